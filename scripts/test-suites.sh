#!/usr/bin/env bash
# `make test`'s test stage (the build is done). Three groups, one after the other in time:
# - the integration suites (real mosquitto and node processes), the long proofs and the browser
#   tests (Tests/Browser: headless Chromium against the real node, in three parts) at the same time,
#   each in processes of its own; the integration suites in parallel (at most TEST_WIDTH at once);
# - then TimingSuite, the tests that measure lateness and audio to the tenth of a second, on a
#   quieter machine: its two lanes (TimingSuite.Audio and TimingSuite.Clock) side by side, each
#   one test at a time. Its lanes mostly wait, which leaves most of two cores idle, so beside it:
# - the unit suites (core, platform, audio, MQTT, web: CPU-bound DSP among them) and the fuzz
#   targets' run (Fuzz/run.sh: nine targets, two at a time, 9 s each), at idle priority (nice 19 and SCHED_IDLE: they get only
#   the CPU TimingSuite leaves, and a TimingSuite thread that wakes takes its core at once). The
#   fuzz targets are built from the stage's start, at idle priority too (compiling is never timed:
#   it takes what the parallel run leaves, and finishes beside TimingSuite). Neither the fuzz run nor
#   the unit suites run beside the parallel run: starved there, a fuzzer would spend its 10 s
#   per-input limit (-timeout=10) on one input and report a hang, and a unit test its timeout.
# Each run's output is shown when it ends. Last comes one line for the whole stage,
# "tests: N passed, M failed", counted from the four runs' own reports.
set -u
start=$(date +%s)
SWIFT=${SWIFT:-swift}
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${TEST_WIDTH:-8}
tests="$($SWIFT build --show-bin-path)/NoiseClockPackageTests.xctest"
idle() { nice -n 19 chrt --idle 0 "$@"; }
# The integration tests' processes without Swift's cooperative pool (as many threads as cores: two
# here), on libdispatch's global queues, which add a thread when one blocks: their helpers block
# (a node's log line awaited with poll, a process reaped, a script run), and with eight tests at
# once two such waits stalled every other test of the process (50,000 hostile messages took 70-115 s
# there, 18 s alone, 41-70 s now).
no_pool() { SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES=false "$@"; }
# The idle work waits for marker files (the parallel run's end, the unit run's end), not for a time;
# a stage stopped meanwhile takes its idle work with it.
marks=$(mktemp -d)
wait_for_mark() { while [ ! -e "$marks/$1" ]; do kill -0 $$ 2>/dev/null || exit 1; sleep 0.2; done; }
(
    fuzz_start=$(date +%s)
    fuzz_status=0
    FUZZ_CONFIGURATION=debug idle Fuzz/run.sh build || fuzz_status=$?
    # With the unit suites, not after them: past their first ~13 s of DSP they wait on real audio
    # (AlsaEngineTests, one test at a time, 82 s), and a fuzz run after them was the stage's tail.
    wait_for_mark parallel-done
    [ $fuzz_status -ne 0 ] || FUZZ_CONFIGURATION=debug idle Fuzz/run.sh run || fuzz_status=$?
    echo "stage fuzz: $(( $(date +%s) - fuzz_start )) s, beside the tests$([ $fuzz_status -eq 0 ] || echo " (failed, status $fuzz_status)")"
    exit $fuzz_status
) >"$marks/fuzz.log" 2>&1 &
fuzz=$!
(
    wait_for_mark parallel-done
    unit_start=$(date +%s)
    unit_status=0
    idle "$tests" --testing-library swift-testing --skip NoiseClockNodeTests || unit_status=$?
    echo "unit suites: $(( $(date +%s) - unit_start )) s, beside TimingSuite"
    exit $unit_status
) >"$marks/unit.log" 2>&1 &
unit=$!
trap 'kill "$fuzz" "$unit" 2>/dev/null; exit 130' INT TERM
all_log="$marks/all.log"
browser_log="$marks/browser.log"
BROWSER_HALVES=1 scripts/browser-tests.sh "$($SWIFT build --show-bin-path)/noiseclock" >"$browser_log" 2>&1 &
browser=$!
status=0
# The long proofs (7-30 s each alone: ten broker kills, kill -9 after every change, 50,000 hostile
# messages, a night of the week) in a process of their own from the start: in the one run with the
# rest they waited for a slot and ended the run at 125-130 s.
long="ProofSuite|HostileInputTests|WeekOfNightsTests"
no_pool "$tests" --testing-library swift-testing --filter "$long" >"$marks/long.log" 2>&1 &
long_run=$!
echo "== integration suites (NoiseClockNodeTests but TimingSuite and the long proofs), beside the long proofs and the browser tests:"
no_pool $SWIFT test --skip-build --filter NoiseClockNodeTests --skip TimingSuite --skip "$long" 2>&1 | tee -a "$all_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
wait "$long_run" || status=1
echo "== the long proofs, run alongside:"
tee -a "$all_log" <"$marks/long.log"
wait "$browser" || status=1
echo "== browser tests (Tests/Browser), run alongside:"
cat "$browser_log"
touch "$marks/parallel-done"
echo "== TimingSuite (two lanes), the unit suites and the fuzz run beside it at idle priority:"
$SWIFT test --skip-build --filter TimingSuite 2>&1 | tee -a "$all_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
wait "$unit" || status=1
echo "== unit suites (core, platform, audio, MQTT, web), run beside TimingSuite:"
tee -a "$all_log" <"$marks/unit.log"
fuzz_failure=""
wait "$fuzz" || { status=1; fuzz_failure="✘ fuzz: the libFuzzer targets failed (Fuzz/run.sh's output above)"; }
echo "== fuzz (Fuzz/run.sh: built beside the parallel run, run beside TimingSuite):"
cat "$marks/fuzz.log"
# Swift Testing closes each run with "Test run with N tests in M suites passed|failed ..."; a
# failed test has its own "✘ Test name() failed" line (parameterised cases are one test).
# The failures again, last, where a CI log's tail shows them: each failed test's issues.
failures=$(grep -E '^✘ Test .*(recorded an issue|failed after)' "$all_log" | grep -v '^✘ Test run with' | head -60)
total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} in .*/\1/p' "$all_log" | awk '{ s += $1 } END { print s + 0 }')
failed=$(grep '^✘ Test .*failed after' "$all_log" | grep -vc '^✘ Test run with' | tr -d ' ')
# The browser run closes with "browser tests: N passed, M failed (S s)".
browser_passed=$(sed -n 's/^browser tests: \([0-9]*\) passed, .*/\1/p' "$browser_log" | tail -1)
browser_failed=$(sed -n 's/^browser tests: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$browser_log" | tail -1)
[ -n "$browser_failed" ] || browser_failed=1
browser_failures=$(grep -E '^(✘ browser|FAIL:|ERROR:|[A-Za-z_.]*(Error|Exception): )' "$browser_log" | head -20)
# A stage that tested nothing fails: every suite of scripts/stage-suites/test ran, and at least its
# minimum of tests; the browser tests at least BROWSER_MINIMUM (scripts/expect-tests.sh).
expected=$(scripts/expect-tests.sh test "$all_log") || { status=1; fuzz_failure="$fuzz_failure${fuzz_failure:+
}$expected"; }
printf '%s\n' "$expected"
browser_minimum=$(sed -n 's/^browser-minimum \([0-9]*\)$/\1/p' scripts/stage-suites/test)
if [ "${browser_passed:-0}" -lt "${browser_minimum:-1}" ]; then
    status=1
    fuzz_failure="$fuzz_failure${fuzz_failure:+
}✘ browser tests: ${browser_passed:-0} passed, fewer than the committed minimum ${browser_minimum:-1} (scripts/stage-suites/test)"
fi
rm -rf "$marks"
total=$((total + ${browser_passed:-0} + browser_failed))
failed=$((failed + browser_failed))
[ "$failed" -gt 0 ] && status=1
if [ -n "$failures$browser_failures$fuzz_failure" ]; then
    echo "== the failures (above in full):"
    [ -z "$failures" ] || printf '%s\n' "$failures"
    [ -z "$browser_failures" ] || printf '%s\n' "$browser_failures"
    [ -z "$fuzz_failure" ] || printf '%s\n' "$fuzz_failure"
fi
echo "stage tests: $(( $(date +%s) - start )) s"
echo "tests: $((total - failed)) passed, $failed failed"
exit $status
