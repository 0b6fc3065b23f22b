#!/usr/bin/env bash
# The web app's browser tests: a real headless Chromium (Debian's chromium + chromium-driver,
# python3-selenium) against the real node and a real mosquitto. Builds nothing.
# Usage: scripts/browser-tests.sh [path/to/noiseclock]   (default: swift build --show-bin-path)
# SCREENSHOT_DIR=docs/images also writes the screenshots the README shows.
set -u
cd "$(dirname "$0")/.."
bin=${1:-${NOISECLOCK_BIN:-}}
if [ -z "$bin" ]; then bin="$(${SWIFT:-swift} build --show-bin-path)/noiseclock"; fi
if [ ! -x "$bin" ]; then echo "browser tests: no noiseclock binary at $bin (swift build first)"; echo "browser tests: 0 passed, 1 failed"; exit 1; fi
for tool in chromium chromedriver mosquitto_sub mosquitto_pub; do
	if ! command -v "$tool" >/dev/null; then echo "browser tests: $tool is missing (make deps)"; echo "browser tests: 0 passed, 1 failed"; exit 1; fi
done
if [ -n "${SCREENSHOT_DIR:-}" ]; then SCREENSHOT_DIR=$(realpath -m "$SCREENSHOT_DIR"); export SCREENSHOT_DIR; fi
# Debian's python3 (where python3-selenium lives), whatever else is first on PATH.
export NOISECLOCK_BIN=$(realpath "$bin")
# BROWSER_HALVES=1 (make test): the tests in BROWSER_PARTS parts (3; 2 allowed) side by side, each with
# its own node, broker and Chromium (Tests/Browser/run.py's SHARDS), their output one after the
# other, then one summary line for all. Screenshots are taken in one run.
if [ "${BROWSER_HALVES:-0}" != 1 ] || [ -n "${SCREENSHOT_DIR:-}" ]; then exec /usr/bin/python3 -u Tests/Browser/run.py; fi
start=$(date +%s)
logs=$(mktemp -d)
pids=()
parts=${BROWSER_PARTS:-3}
for half in $(seq "$parts"); do BROWSER_SHARD=$half/$parts /usr/bin/python3 -u Tests/Browser/run.py >"$logs/$half" 2>&1 & pids+=($!); done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
passed=0; failed=0
for half in $(seq "$parts"); do
    echo "== part $half of $parts of the browser tests:"
    cat "$logs/$half"
    line=$(grep '^browser tests: ' "$logs/$half" | tail -1)
    [[ $line =~ ^browser\ tests:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] || { echo "✘ browser part $half ended without its summary"; status=1; failed=$((failed + 1)); continue; }
    passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
done
rm -rf "$logs"
[ "$failed" -eq 0 ] || status=1
echo "browser tests: $passed passed, $failed failed ($(( $(date +%s) - start )) s, $parts parts side by side)"
exit $status
