#!/usr/bin/env bash
# The radio's own stage (issue 29; `make stream-test`): the stream tests run the real node against
# stations on loopback. Kept out of `make test`, whose test stage is at its bound. Builds nothing
# (swift build --build-tests first). Also the broker's real-time 10 s roll-back (issue 30), too long
# for the integration run. At most three tests at once (STREAM_TEST_WIDTH): all nine suites at
# once on two cores made a ring 1.2 s late and a fade step louder than the steady sound.
set -u
cd "$(dirname "$0")/.."
# The suites and the stage's minimum are in scripts/stage-suites/stream; a stage that ran fewer
# tests, or missed a listed suite, fails (scripts/expect-tests.sh).
# Three passes: the suites that time the player (the fallback within 5 + 0.5 s of a stall, the preroll,
# the sleep radio) first, last the hostile servers' suites (Hostile*: floods at megabytes a
# second, endless segments), which on two cores made a stall's fallback 6.05 s and 8.4 s late
# when they ran beside them.
# Between them, the issue-39 proofs that time from outside with four nodes each (a stall from the
# last byte, 5 + 0.5 s; the preroll at the capture, 0.5 s), one at a time: beside the 3-minute
# sleep radio outages one stall ring of forty came 5.92 s after its last byte.
suites=$(grep -E '^[A-Za-z0-9_]+$' scripts/stage-suites/stream)
proofs='StreamStallNodeTests|StreamPrerollCaptureNodeTests'
timed=$(grep -v '^Hostile' <<<"$suites" | grep -vxE "$proofs" | paste -sd '|')
alone=$(grep -xE "$proofs" <<<"$suites" | paste -sd '|')
hostile=$(grep '^Hostile' <<<"$suites" | paste -sd '|')
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for filter in "$timed" "$alone" "$hostile"; do
    [ -n "$filter" ] || continue
    width=${STREAM_TEST_WIDTH:-3}
    [ "$filter" = "$alone" ] && width=1
    # Bounded (STREAM_TEST_LIMIT per pass, 900 s; the longest takes about 250 s): a hang fails the
    # stage instead of eating CI's whole time. SIGINT first: swift test stops its test process.
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$width NOISECLOCK_STREAM_TESTS=1 \
        timeout -s INT -k 30 "${STREAM_TEST_LIMIT:-900}" ${SWIFT:-swift} test --skip-build --filter "$filter" 2>&1 | tee -a "$log"
    pass=${PIPESTATUS[0]}
    [ "$pass" -ne 124 ] || echo "stream tests: a pass stopped after ${STREAM_TEST_LIMIT:-900} s (a hang)"
    [ "$pass" -eq 0 ] || status=1
done
scripts/expect-tests.sh stream "$log" || status=1
exit $status
