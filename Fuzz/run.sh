#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets (Fuzz/Package.swift) with ASan and runs each for
# FUZZ_SECONDS (default 60) from the committed seed corpus, FUZZ_PARALLEL (default 2) at a time.
# New inputs go to Fuzz/.build/corpus/<target> (not committed); a crash leaves crash-* in
# Fuzz/.build/artifacts and fails the run. Reproduce one with the build that found it:
# Fuzz/.build/debug/FuzzCommand <file> after `make test` (debug), Fuzz/.build/release/... after
# `make fuzz`. `Fuzz/run.sh build` only builds, `Fuzz/run.sh run` only runs (what is built); no
# argument, both (`make test` builds them beside its parallel tests and runs them beside TimingSuite).
# FUZZ_TARGETS picks some (`FUZZ_TARGETS="hls player"`); FUZZ_RUNS stops each after that many
# executions instead (with FUZZ_SECONDS as a bound).
set -euo pipefail
step=${1:-all}
cd "$(dirname "$0")"
SECONDS_EACH=${FUZZ_SECONDS:-60}
PARALLEL=${FUZZ_PARALLEL:-2}
FLAGS=(-c "${FUZZ_CONFIGURATION:-release}" -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
# corpus folder -> executable. The order is the run's: the slower targets (the command core, the
# whole player) first, so two at a time they end together.
declare -A names=(
    [command]=FuzzCommand [player]=FuzzPlayer [config]=FuzzConfig [framing]=FuzzFraming
    [hls]=FuzzHLS [stream-head]=FuzzStreamHead [icy]=FuzzIcy [playlist]=FuzzPlaylist [directory]=FuzzDirectory
)
order=(command player config framing hls stream-head icy playlist directory)
targets=(${FUZZ_TARGETS:-${order[*]}})
# ld.gold warns about every ASan-internal symbol it cannot export; those lines are noise.
# A failed build fails the run (its output shown), instead of fuzzing a stale binary.
build() {
    local log status=0
    log=$(mktemp)
    swift build "${FLAGS[@]}" >"$log" 2>&1 || status=$?
    grep -v -e 'Cannot export local symbol' -e '^\[' "$log" || true
    rm -f "$log"
    [ $status -eq 0 ] || echo "Fuzz/run.sh: the fuzz targets did not build" >&2
    return $status
}
[ "$step" = run ] || build
[ "$step" != build ] || exit 0
# FUZZ_BIN: binaries copied elsewhere (a long run goes on while the next build is made).
bin=${FUZZ_BIN:-$(swift build "${FLAGS[@]}" --show-bin-path)}
mkdir -p .build/artifacts
# Each target is one thread: FUZZ_PARALLEL at a time (a core each on a 2-core machine), so each
# still gets FUZZ_SECONDS of a core. Swift's own crash backtracer is off: libFuzzer prints the
# stack, and the backtracer, symbolising an ASan binary on a loaded machine, took minutes.
fuzz() {
    local target=$1 work options=()
    work=.build/corpus/$target
    mkdir -p "$work"
    [ -f "$target.dict" ] && options+=(-dict="$target.dict")
    [ -n "${FUZZ_RUNS:-}" ] && options+=(-runs="$FUZZ_RUNS")
    case $target in
        # A few frames of each codec, and 48 KB for native FLAC to decode (the harness adds them).
        # libmpg123 reports every broken frame on stderr: the target's stderr is closed
        # (libFuzzer's own reports still show; replay a crash to see its message).
        player) options+=(-max_len=16384 -close_fd_mask=2) ;;
        framing) options+=(-max_len=8192) ;;
        *) options+=(-max_len=4096) ;;
    esac
    # -seed: the same executions run after run for the same build and time (a failure repeats).
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/lsan.supp:print_suppressions=0" \
        "$bin/${names[$target]}" -seed=37 -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix=.build/artifacts/ "${options[@]}" "$work" "corpus/$target" \
        >".build/$target.log" 2>&1
}
report() {
    local target=$1 status=$2
    echo "== ${names[$target]}: ${SECONDS_EACH}s${FUZZ_RUNS:+ or $FUZZ_RUNS runs}"
    [ "$status" -eq 0 ] || tail -40 ".build/$target.log"
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^Done|^#[0-9]+.*DONE' ".build/$target.log" || tail -3 ".build/$target.log"
}
status=0
for ((first = 0; first < ${#targets[@]}; first += PARALLEL)); do
    batch=("${targets[@]:first:PARALLEL}")
    declare -A runs=()
    for target in "${batch[@]}"; do
        [ -n "${names[$target]:-}" ] || { echo "Fuzz/run.sh: no target $target" >&2; exit 2; }
        fuzz "$target" &
        runs[$target]=$!
    done
    for target in "${batch[@]}"; do
        result=0
        wait "${runs[$target]}" || result=$?
        [ $result -eq 0 ] || status=1
        report "$target" $result
    done
    unset runs
done
exit $status
