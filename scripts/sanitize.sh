#!/usr/bin/env bash
# `make sanitize`: the core, MQTT and node test suites under ThreadSanitizer and AddressSanitizer, each
# in its own scratch path (.build-tsan, .build-asan). The node tests start the sanitized
# `noiseclock` from the same scratch path (NOISECLOCK_BIN), so the node process is checked too,
# not only the test process. Every report of every process goes to a file under
# .build-?san/reports; any report fails the run.
#
#   SANITIZERS="thread address" (default both)   FILTER=regex (default core, MQTT and node suites)
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FILTER=${FILTER:-NoiseClockCoreTests|NoiseClockMQTTTests|NoiseClockNodeTests}
# The black-box run sends 5,000 messages here instead of 50,000: sanitized code is 5-20x slower.
export HOSTILE_COUNT=${HOSTILE_COUNT:-5000}
status=0
for sanitizer in ${SANITIZERS:-thread address}; do
    scratch=.build-${sanitizer:0:1}san
    reports="$PWD/$scratch/reports"
    rm -rf "$reports" && mkdir -p "$reports"
    echo "== $sanitizer sanitizer ($scratch)"
    start=$(date +%s)
    if ! "$SWIFT" build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | grep -E 'error|warning: ' | grep -v 'Cannot export local symbol'; then :; fi
    bin=$("$SWIFT" build --sanitize="$sanitizer" --scratch-path "$scratch" --show-bin-path)
    [ -x "$bin/noiseclock" ] || { echo "build failed"; status=1; continue; }
    export NOISECLOCK_BIN="$bin/noiseclock"
    # halt_on_error=0: collect every report in one run; the files decide the verdict.
    export TSAN_OPTIONS="log_path=$reports/tsan halt_on_error=0 second_deadlock_stack=1"
    export ASAN_OPTIONS="log_path=$reports/asan halt_on_error=0 detect_leaks=1"
    "$bin/NoiseClockPackageTests.xctest" --testing-library swift-testing --filter "$FILTER" >"$reports/../sanitize-tests.log" 2>&1
    tests=$?
    grep -aE '^.{0,12}Test run with' "$reports/../sanitize-tests.log" | tail -1
    [ $tests -eq 0 ] || { echo "tests failed under $sanitizer (log: $scratch/sanitize-tests.log)"; grep -a '✘' "$reports/../sanitize-tests.log" | head -20; status=1; }
    found=$(ls "$reports" | wc -l)
    if [ "$found" -gt 0 ]; then
        echo "$found $sanitizer report file(s) in $reports:"
        grep -ahE '^(WARNING|ERROR|SUMMARY): (ThreadSanitizer|AddressSanitizer|LeakSanitizer)' "$reports"/* | sort | uniq -c
        status=1
    fi
    echo "$sanitizer: $(( $(date +%s) - start )) s"
    unset TSAN_OPTIONS ASAN_OPTIONS NOISECLOCK_BIN
done
exit $status
