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
NOISECLOCK_BIN=$(realpath "$bin") exec /usr/bin/python3 -u Tests/Browser/run.py
