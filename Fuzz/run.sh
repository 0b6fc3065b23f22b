#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets (Fuzz/Package.swift) with ASan and runs each for
# FUZZ_SECONDS (default 60) from the committed seed corpus. New inputs go to
# Fuzz/.build/corpus/<target> (not committed); a crash leaves crash-* in Fuzz/.build/artifacts
# and fails the run. Reproduce one with the build that found it: Fuzz/.build/debug/FuzzCommand <file>
# after `make test` (debug), Fuzz/.build/release/FuzzCommand <file> after `make fuzz`.
# `Fuzz/run.sh build` only builds, `Fuzz/run.sh run` only runs (what is built); no argument, both
# (`make test` builds them beside its parallel tests and runs them beside TimingSuite).
set -euo pipefail
step=${1:-all}
cd "$(dirname "$0")"
SECONDS_EACH=${FUZZ_SECONDS:-60}
FLAGS=(-c "${FUZZ_CONFIGURATION:-release}" -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
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
bin=$(swift build "${FLAGS[@]}" --show-bin-path)
mkdir -p .build/artifacts
# The two targets run side by side: each is one thread (a core each on a 2-core machine), so each
# still gets FUZZ_SECONDS of a core, and the stage takes one FUZZ_SECONDS instead of two.
fuzz() {
    local target=$1 name work dict
    name=$([ "$target" = command ] && echo FuzzCommand || echo FuzzConfig)
    work=.build/corpus/$target
    mkdir -p "$work"
    dict=(); [ -f "$target.dict" ] && dict=(-dict="$target.dict")
    "$bin/$name" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix=.build/artifacts/ "${dict[@]}" "$work" "corpus/$target" \
        >".build/$target.log" 2>&1
}
declare -A runs
for target in command config; do
    fuzz "$target" &
    runs[$target]=$!
done
status=0
for target in command config; do
    name=$([ "$target" = command ] && echo FuzzCommand || echo FuzzConfig)
    echo "== $name: ${SECONDS_EACH}s"
    if ! wait "${runs[$target]}"; then
        status=1
        tail -40 ".build/$target.log"
    fi
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^Done|^#[0-9]+.*DONE' ".build/$target.log" || tail -3 ".build/$target.log"
done
exit $status
