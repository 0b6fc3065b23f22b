#!/usr/bin/env bash
# `make test`'s test stage (the build is done). Three groups:
# - the unit suites (core, platform, audio: CPU-bound) and the integration suites (real
#   mosquitto and node processes: mostly waiting) run at the same time, in two processes, so
#   a long synchronous DSP test cannot starve the integration tests' waits on the cooperative
#   threads of one process; each runs its suites in parallel (at most TEST_WIDTH at once);
# - then TimingSuite, the tests that measure lateness and audio to the tenth of a second, one
#   at a time, on a quieter machine.
# The unit run's output is shown when the integration run ends; TimingSuite's summary is last.
set -u
SWIFT=${SWIFT:-swift}
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${TEST_WIDTH:-8}
tests="$($SWIFT build --show-bin-path)/NoiseClockPackageTests.xctest"
unit_log=$(mktemp)
"$tests" --testing-library swift-testing --skip NoiseClockNodeTests >"$unit_log" 2>&1 &
unit=$!
status=0
$SWIFT test --skip-build --filter NoiseClockNodeTests --skip TimingSuite || status=1
wait "$unit" || status=1
echo "== unit suites (core, platform, audio), run alongside:"
cat "$unit_log"
rm -f "$unit_log"
$SWIFT test --skip-build --no-parallel --filter TimingSuite || status=1
exit $status
