#!/usr/bin/env bash
# `make test`'s test stage (the build is done). Three groups:
# - the unit suites (core, platform, audio: CPU-bound) and the integration suites (real
#   mosquitto and node processes: mostly waiting) run at the same time, in two processes, so
#   a long synchronous DSP test cannot starve the integration tests' waits on the cooperative
#   threads of one process; each runs its suites in parallel (at most TEST_WIDTH at once);
# - then TimingSuite, the tests that measure lateness and audio to the tenth of a second, one
#   at a time, on a quieter machine.
# The unit run's output is shown when the integration run ends. Last comes one line for the
# whole stage, "tests: N passed, M failed", counted from the three runs' own reports.
set -u
start=$(date +%s)
SWIFT=${SWIFT:-swift}
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${TEST_WIDTH:-8}
tests="$($SWIFT build --show-bin-path)/NoiseClockPackageTests.xctest"
unit_log=$(mktemp)
all_log=$(mktemp)
"$tests" --testing-library swift-testing --skip NoiseClockNodeTests >"$unit_log" 2>&1 &
unit=$!
status=0
$SWIFT test --skip-build --filter NoiseClockNodeTests --skip TimingSuite 2>&1 | tee -a "$all_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
wait "$unit" || status=1
echo "== unit suites (core, platform, audio), run alongside:"
cat "$unit_log" | tee -a "$all_log"
rm -f "$unit_log"
$SWIFT test --skip-build --no-parallel --filter TimingSuite 2>&1 | tee -a "$all_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
# Swift Testing closes each run with "Test run with N tests in M suites passed|failed ..."; a
# failed test has its own "✘ Test name() failed" line (parameterised cases are one test).
total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} in .*/\1/p' "$all_log" | awk '{ s += $1 } END { print s + 0 }')
failed=$(grep '^✘ Test .*failed after' "$all_log" | grep -vc '^✘ Test run with' | tr -d ' ')
rm -f "$all_log"
[ "$failed" -gt 0 ] && status=1
echo "stage tests: $(( $(date +%s) - start )) s"
echo "tests: $((total - failed)) passed, $failed failed"
exit $status
