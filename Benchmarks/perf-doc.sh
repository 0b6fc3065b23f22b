#!/usr/bin/env bash
# Rewrites the generated section of docs/performance.md from `make perf`'s rows (Benchmarks/perf.sh
# calls it with PERF_DOC=1): everything between the two markers is replaced, nothing else is
# touched, so no figure in that section comes from anywhere but the run.
#
#   Benchmarks/perf-doc.sh ROWS_FILE "HEADER" docs/performance.md normal|slowed
# (slowed: the run with PERF_NODE_QUOTA, its own pair of markers)
set -euo pipefail
rows=${1:?rows file}
header=${2:?header line}
doc=${3:?document}
section=${4:-normal}
case "$section" in
normal) begin='<!-- make perf: begin (Benchmarks/perf-doc.sh writes this section; do not edit it) -->'; end='<!-- make perf: end -->' ;;
slowed) begin='<!-- make perf slowed: begin (Benchmarks/perf-doc.sh writes this section; do not edit it) -->'
    end='<!-- make perf slowed: end -->' ;;
*) echo "section: normal or slowed" >&2; exit 64 ;;
esac
grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" || { echo "$doc: the make perf markers are missing" >&2; exit 1; }
text=$(mktemp)
trap 'rm -f "$text"' EXIT
{
    echo "$begin"
    echo
    command="make perf PERF_DOC=1${BENCH_NODE_QUOTA:+ PERF_NODE_QUOTA=$BENCH_NODE_QUOTA PERF_NODE_PERIOD_MS=$BENCH_NODE_PERIOD_MS}"
    echo "Last run: $header (\`$command\`)."
    echo
    echo '| row | figure | baseline (same run) | ratio | bound | verdict | measured as |'
    echo '|---|---|---|---|---|---|---|'
    awk -F'\t' '{ gsub(/->/, "→"); gsub(/<=/, "≤"); printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' "$rows"
    echo
    echo "$end"
} >"$text"
awk -v b="$begin" -v e="$end" -v f="$text" '
    $0 == b { while ((getline line < f) > 0) print line; skip = 1; next }
    $0 == e { skip = 0; next }
    !skip' "$doc" >"$doc.new"
mv "$doc.new" "$doc"
