#!/usr/bin/env bash
# `scripts/expect-tests.sh STAGE LOG`: a stage that tested nothing fails. LOG is what the stage's
# test runs printed (Swift Testing's "✔ Suite Name passed" / "✘ Suite Name failed" lines, and its
# "Test run with N tests" summaries). scripts/stage-suites/STAGE holds the stage's committed
# minimum ("minimum N": the tests the stage must have run) and its suites, one a line; every suite
# listed must have run, or the check names it. A renamed or deleted suite thus fails its stage
# until the list says so; a new suite is named as one to add.
set -u
stage=$1
log=$2
list="$(dirname "$0")/stage-suites/$stage"
[ -f "$list" ] || { echo "expect-tests: no list $list"; exit 1; }
minimum=$(sed -n 's/^minimum \([0-9]*\)$/\1/p' "$list")
[ -n "$minimum" ] || { echo "expect-tests: $list has no 'minimum N' line"; exit 1; }
# A suite is named by its type, or by its display name in quotes (`@Suite("Web API")`). Its
# "◇ Suite Name started." counts too: Swift Testing once printed a suite's start and not its end
# line (a fresh clone's make test: RoutineIntegrationTests, all of whose tests ran, the run's
# summary counting them), and a suite that started was not filtered out; its failures are judged
# by the failed tests' own lines and the run's summary, not here.
ran=$(sed -n -e 's/^\(✔\|✘\) Suite \([A-Za-z0-9_]*\|"[^"]*"\) \(passed\|failed\).*/\2/p' \
    -e 's/^◇ Suite \([A-Za-z0-9_]*\|"[^"]*"\) started\..*/\1/p' "$log" | sort -u)
total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} in .*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
status=0
missing=$(grep -E '^([A-Za-z0-9_]+|"[^"]+")$' "$list" | sort -u | comm -23 - <(printf '%s\n' "$ran"))
if [ -n "$missing" ]; then
    echo "✘ stage $stage: these suites of $list did not run (renamed, deleted or filtered out?):"
    printf '%s\n' "$missing" | sed 's/^/    /'
    status=1
fi
if [ "$total" -lt "$minimum" ]; then
    echo "✘ stage $stage: $total tests ran, fewer than the committed minimum $minimum ($list)"
    status=1
fi
unlisted=$(comm -13 <(grep -E '^([A-Za-z0-9_]+|"[^"]+")$' "$list" | sort -u) <(printf '%s\n' "$ran") | grep -v '^$')
[ -z "$unlisted" ] || echo "expect-tests: suites that ran and are not in $list (add them):" $unlisted
[ $status -ne 0 ] || echo "stage $stage: $total tests ran (minimum $minimum), every listed suite among them"
exit $status
