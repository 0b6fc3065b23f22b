#!/usr/bin/env bash
# `make test`'s test stage (the build is done). Three groups:
# - the unit suites (core, platform, audio: CPU-bound) and the integration suites (real
#   mosquitto and node processes: mostly waiting) run at the same time, in two processes, so
#   a long synchronous DSP test cannot starve the integration tests' waits on the cooperative
#   threads of one process; each runs its suites in parallel (at most TEST_WIDTH at once);
# - the browser tests (Tests/Browser: headless Chromium against the real node, ~30 s, mostly
#   waiting on the node's clock) run alongside the first group too, in a third process.
# - then TimingSuite, the tests that measure lateness and audio to the tenth of a second, on a
#   quieter machine: its two lanes (TimingSuite.Audio and TimingSuite.Clock) side by side, each
#   one test at a time.
# The unit and browser runs' output is shown when the integration run ends. Last comes one line
# for the whole stage, "tests: N passed, M failed", counted from the four runs' own reports.
set -u
start=$(date +%s)
SWIFT=${SWIFT:-swift}
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${TEST_WIDTH:-8}
tests="$($SWIFT build --show-bin-path)/NoiseClockPackageTests.xctest"
unit_log=$(mktemp)
all_log=$(mktemp)
"$tests" --testing-library swift-testing --skip NoiseClockNodeTests >"$unit_log" 2>&1 &
unit=$!
browser_log=$(mktemp)
scripts/browser-tests.sh "$($SWIFT build --show-bin-path)/noiseclock" >"$browser_log" 2>&1 &
browser=$!
status=0
$SWIFT test --skip-build --filter NoiseClockNodeTests --skip TimingSuite 2>&1 | tee -a "$all_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
wait "$unit" || status=1
echo "== unit suites (core, platform, audio), run alongside:"
cat "$unit_log" | tee -a "$all_log"
rm -f "$unit_log"
wait "$browser" || status=1
echo "== browser tests (Tests/Browser), run alongside:"
cat "$browser_log"
$SWIFT test --skip-build --filter TimingSuite 2>&1 | tee -a "$all_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
# Swift Testing closes each run with "Test run with N tests in M suites passed|failed ..."; a
# failed test has its own "✘ Test name() failed" line (parameterised cases are one test).
# The failures again, last, where a CI log's tail shows them: each failed test's issues.
failures=$(grep -E '^✘ Test .*(recorded an issue|failed after)' "$all_log" | grep -v '^✘ Test run with' | head -60)
total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} in .*/\1/p' "$all_log" | awk '{ s += $1 } END { print s + 0 }')
failed=$(grep '^✘ Test .*failed after' "$all_log" | grep -vc '^✘ Test run with' | tr -d ' ')
rm -f "$all_log"
# The browser run closes with "browser tests: N passed, M failed (S s)".
browser_passed=$(sed -n 's/^browser tests: \([0-9]*\) passed, .*/\1/p' "$browser_log" | tail -1)
browser_failed=$(sed -n 's/^browser tests: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$browser_log" | tail -1)
[ -n "$browser_failed" ] || browser_failed=1
browser_failures=$(grep -E '^(✘ browser|FAIL:|ERROR:|[A-Za-z_.]*(Error|Exception): )' "$browser_log" | head -20)
rm -f "$browser_log"
total=$((total + ${browser_passed:-0} + browser_failed))
failed=$((failed + browser_failed))
[ "$failed" -gt 0 ] && status=1
if [ -n "$failures$browser_failures" ]; then
    echo "== the failures (above in full):"
    [ -z "$failures" ] || printf '%s\n' "$failures"
    [ -z "$browser_failures" ] || printf '%s\n' "$browser_failures"
fi
echo "stage tests: $(( $(date +%s) - start )) s"
echo "tests: $((total - failed)) passed, $failed failed"
exit $status
