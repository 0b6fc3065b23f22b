#!/usr/bin/env bash
# `make perf`: every bound of docs/performance.md that a CI stage can hold, checked, in one table.
# Each figure is a ratio against a baseline measured in the same run (sox for rendering, FFmpeg's
# command line for a station, the broker's echo and a durable write for latency, do-nothing C
# clients for the fire delay) or an instruction count under callgrind where CPU time is too noisy
# on a shared machine; memory against the node's own idle. It exits 1 when any bound is missed or
# any row measured nothing (NOT MEASURED). Release binary as $1.
#
#   PERF_NODE_QUOTA=P   every node process alone in a cgroup capped at P % of one core once it is
#                       online (Benchmarks/lib/nodes.sh, bench_throttle; PERF_NODE_PERIOD_MS,
#                       default 100): the same run with the node slowed, to show the rows fail
#   PERF_DOC=1          rewrite docs/performance.md's generated section from this table (with a
#                       quota: the "slowed" section)
#   PERF_ONLY="latency fire radio mix render budget search"   the groups to run (default all; a partial run
#                       fails, since the rows left out are NOT MEASURED)
#
# Timing-based rows (marked so): latency and fire delay (wall clock), station decoding and the
# worst mix (CPU time, perf's task-clock, medians of rounds). Instruction counts: render. Memory: /proc.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/perf.sh path/to/release/noiseclock}")
ONLY=${PERF_ONLY:-latency fire radio mix render budget search}
export BENCH_NODE_QUOTA=${PERF_NODE_QUOTA:-}
export BENCH_NODE_PERIOD_MS=${PERF_NODE_PERIOD_MS:-100}
work=$(mktemp -d /tmp/noiseclock-perf.XXXXXX)
# Run through sudo by a newcomer who is not root (Makefile, AS_ROOT): what it wrote in their clone
# (docs/performance.md with PERF_DOC, Python's caches should any appear) goes back to them.
give_back() {
    [ -n "${SUDO_UID:-}" ] || return 0
    for made in docs/performance.md Benchmarks/lib/__pycache__ Benchmarks/__pycache__ scripts/__pycache__; do
        [ -e "$made" ] && chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$made"
    done
    return 0
}
trap 'rm -rf "$work"; give_back' EXIT
rows="$work/rows"
: >"$rows"
started=$(date +%s)
load_start=$(cut -d' ' -f1 /proc/loadavg)

# --- Rows ------------------------------------------------------------------------------------
# row NAME FIGURE BASELINE RATIO BOUND VERDICT KIND
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$rows"; }
at_most() { awk -v v="$1" -v t="$2" 'BEGIN { print (v != "" && v + 0 == v && v <= t ? "PASS" : "FAIL") }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b }'; }
# A row's bound with nothing measured: it fails (a stage that measured nothing passes nothing).
unmeasured() { row "$1" "NOT MEASURED" "-" "-" "$2" "FAIL" "$3"; }
ms() { awk -v us="$1" 'BEGIN { printf "%.2f ms", us / 1000 }'; }
mega() { awk -v n="$1" 'BEGIN { printf "%.1fM", n / 1e6 }'; }

group() {  # NAME COMMAND...: runs one benchmark, its output in $work/NAME.log; 0 when it succeeded
    local name=$1 begun status
    shift
    case " $ONLY " in *" $name "*) ;; *) return 1 ;; esac
    begun=$(date +%s)
    echo "perf: $name ..." >&2
    "$@" >"$work/$name.log" 2>&1
    status=$?
    echo "perf: $name $(( $(date +%s) - begun )) s$([ $status -eq 0 ] || echo ", failed ($status):")" >&2
    [ $status -eq 0 ] || tail -15 "$work/$name.log" | sed 's/^/    /' >&2
    cp "$work/$name.log" "${PERF_LOG_DIR:-$work}/perf-$name.log" 2>/dev/null || true
    return $status
}

# --- Latency: command -> ~/noise and -> ~/response against the floor (Benchmarks/latency.sh) -----
# Floor: 2 x (broker echo between two clients + one durable small write), interleaved with the
# commands. Bound: p50 <= floor (docs/performance.md, "The house").
group latency Benchmarks/latency.sh "$BIN" "${PERF_LATENCY_SAMPLES:-200}"
for kind in stock nodelay; do
    line=$(grep "^latency_ha $kind " "$work/latency.log" 2>/dev/null)
    label="command -> ~/noise p50 ($kind broker)"; rlabel="command -> ~/response p50 ($kind broker)"
    if [ -z "$line" ]; then
        unmeasured "$label" "<= 1.00x floor" "wall clock"; unmeasured "$rlabel" "<= 1.00x floor" "wall clock"
        continue
    fi
    read -r floor state resp < <(echo "$line" | awk '{ for (i = 3; i < NF; i += 2) v[$i] = $(i + 1)
        print v["floor_us"], v["state_p50_us"], v["response_p50_us"] }')
    for pair in "$label:$state" "$rlabel:$resp"; do
        r=$(ratio "${pair##*:}" "$floor")
        row "${pair%:*}" "$(ms "${pair##*:}")" "$(ms "$floor") floor" "${r}x" "<= 1.00x floor" "$(at_most "$r" 1.00)" "wall clock"
    done
done

# --- Fire delay of 50 nodes at once, against 50 C clients publishing at one instant -----------
# (Benchmarks/alarm-latency.sh with FLOOR=1: the floor 20 s after the fire, same broker, each
# client making one durable write before it publishes, as the node writes its state at a fire.)
fire_nodes=${PERF_FIRE_NODES:-50}
label="alarm fire delay, worst of $fire_nodes nodes at once"
if group fire env FLOOR=1 Benchmarks/alarm-latency.sh "$BIN" "$fire_nodes"; then
    worst=$(sed -n 's/^alarm fire delay: .*worst \([0-9.]*\) ms.*/\1/p' "$work/fire.log")
    floor=$(sed -n 's/^floor: .*worst \([0-9.]*\) ms.*/\1/p' "$work/fire.log")
    r=$(ratio "$worst" "$floor")
    # No bound was documented for 50 nodes: the row holds the 200-node bound, worst <= 100 ms, on the
    # node's own share, the worst above what 50 do-nothing clients woken at one instant pay.
    over=$(awk -v a="$worst" -v b="$floor" 'BEGIN { printf "%.1f", a - b }')
    row "$label" "$worst ms" "$floor ms floor (worst)" "${r}x, +$over ms" "<= floor + 100 ms" "$(at_most "$over" 100)" "wall clock"
else
    unmeasured "$label" "<= floor + 100 ms" "wall clock"
fi

# --- Stations: whole node against FFmpeg's whole process; memory (Benchmarks/radio-cpu.sh) -------
# Issue 40's bounds: whole node <= 1.0x FFmpeg for MP3; for HE-AAC <= 0.5 % of a core and <= 2.0x
# (met since the levelling's rework: MP3 0.91x, HE-AAC 0.46 % and 1.80x, docs/performance.md).
if group radio env CODECS="mp3 heaac" ROUNDS="${PERF_RADIO_ROUNDS:-3}" PLAY_SECONDS="${PERF_RADIO_SECONDS:-10}" \
    Benchmarks/radio-cpu.sh "$BIN"; then radio=ok; else radio=""; fi
for codec in mp3 heaac; do
    if [ "$codec" = mp3 ]; then
        label="station MP3 128k: whole node / FFmpeg"; bound="<= 1.00x"
    else
        label="station HE-AAC 64k: whole node"; bound="<= 0.50 % of a core and <= 2.00x"
    fi
    line=$(grep "^radio_cpu $codec " "$work/radio.log" 2>/dev/null)
    if [ -z "$radio" ] || [ -z "$line" ]; then unmeasured "$label" "$bound" "CPU time"; continue; fi
    read -r node ffmpeg < <(echo "$line" | awk '{ print $4, $8 }')
    r=$(ratio "$node" "$ffmpeg")
    if [ "$codec" = mp3 ]; then verdict=$(at_most "$r" 1.00)
    elif [ "$(at_most "$node" 0.50)" = PASS ]; then verdict=$(at_most "$r" 2.00)
    else verdict=FAIL; fi
    row "$label" "$node % of a core" "$ffmpeg % FFmpeg" "${r}x" "$bound" "$verdict" "CPU time"
done
line=$(grep '^radio_memory ' "$work/radio.log" 2>/dev/null)
if [ -n "$radio" ] && [ -n "$line" ]; then
    read -r pss rss playing < <(echo "$line" | awk '{ print $3, $7, $9 }')
    over=$(awk -v a="$rss" -v b="$playing" 'BEGIN { printf "%.1f", (b - a) / 1024 }')
    row "RSS playing a station (MP3) over idle" "$(awk -v k="$playing" 'BEGIN { printf "%.1f MB", k / 1024 }')" \
        "$(awk -v k="$rss" 'BEGIN { printf "%.1f MB idle", k / 1024 }')" "+$over MB" "<= +10 MB" "$(at_most "$over" 10)" "memory"
    pss_mb=$(awk -v k="$pss" 'BEGIN { printf "%.1f", k / 1024 }'); rss_mb=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
    row "idle PSS" "$pss_mb MB" "-" "-" "<= 20 MB" "$(at_most "$pss_mb" 20)" "memory"
    row "idle RSS" "$rss_mb MB" "-" "-" "<= 22 MB" "$(at_most "$rss_mb" 22)" "memory"
else
    unmeasured "RSS playing a station (MP3) over idle" "<= +10 MB" "memory"
    unmeasured "idle PSS" "<= 20 MB" "memory"
    unmeasured "idle RSS" "<= 22 MB" "memory"
fi

# --- Render against sox, in instructions (Benchmarks/render-instructions.sh) --------------------
group render env AUDIO_SECONDS="${PERF_RENDER_SECONDS:-30}" Benchmarks/render-instructions.sh "$BIN"
for colour in white pink brown; do
    label="render $colour, instructions per 30 s of audio"
    line=$(grep "^render_ir $colour " "$work/render.log" 2>/dev/null)
    if [ -z "$line" ]; then unmeasured "$label" "<= 0.50x sox" "callgrind"; continue; fi
    read -r ours theirs < <(echo "$line" | awk '{ print $4, $6 }')
    r=$(ratio "$ours" "$theirs")
    row "$label" "$(mega "$ours")" "$(mega "$theirs") sox" "${r}x" "<= 0.50x sox" "$(at_most "$r" 0.50)" "callgrind"
done

# --- The worst mix against its loudest layer, the node in real time (Benchmarks/mix-cpu.sh) ------
# CPU time (perf's task-clock) of two nodes in the same window, one playing the mix and the other
# brown, swapping each round; the median of 10 rounds' ratios (one run's medians of 6 spread 1.375-1.465x). (Windows one after the other on
# this loaded machine read 1.37-2.05x within one run; side by side 1.48-1.49x. Callgrind would
# give counts, but valgrind 3.19 dies starting the node daemon, an internal SIGSEGV at libdispatch's
# first worker thread with any tool, and instructions leave out the wake-ups that are most of the
# real-time cost.)
label="worst 3-layer mix (brown+rain+fan) / brown alone"
if group mix env ROUNDS="${PERF_MIX_ROUNDS:-10}" PLAY_SECONDS="${PERF_MIX_SECONDS:-10}" Benchmarks/mix-cpu.sh "$BIN"; then
    read -r brown worst r < <(awk '$1 == "cpu_median" { v[$2] = $3 } END { print v["brown"], v["worst"], v["ratio"] }' "$work/mix.log")
    row "$label" "$worst % of a core" "$brown % brown alone" "${r}x" "<= 1.50x" "$(at_most "$r" 1.50)" "CPU time"
else
    unmeasured "$label" "<= 1.50x" "CPU time"
fi

# --- A Pi's budget: everything at once at 3 % of one core (Benchmarks/pi-budget.py, issue 40) ----
# Noise, two stations, five alarms (one snoozed by a button), speech, the lamp, two event streams,
# Home Assistant, a command a second; the node alone in a cgroup at the quota (PERF_NODE_QUOTA
# when set, so the slowed run is slowed here too). Bound: 0 underruns, 0 rings later than 1 s
# after their minute, command -> response p99 <= 250 ms.
budget_quota=${BENCH_NODE_QUOTA:-3}
label="everything at once at $budget_quota % of a core: underruns, late rings, p99"
group budget python3 Benchmarks/pi-budget.py "$BIN" --quota "$budget_quota" --ring-seconds "${PERF_BUDGET_RING_SECONDS:-8}"
line=$(grep '^pi_budget ' "$work/budget.log" 2>/dev/null)
if [ -n "$line" ]; then
    read -r under late p50 p99 verdict < <(echo "$line" | awk '{ for (i = 2; i < NF; i += 2) v[$i] = $(i + 1)
        print v["underruns"], v["late"], v["p50_ms"], v["p99_ms"], v["verdict"] }')
    row "$label" "$under underruns, $late late, p99 $p99 ms" "p50 $p50 ms" "-" "0, 0, <= 250 ms" "$verdict" "cgroup quota"
else
    unmeasured "$label" "0, 0, <= 250 ms" "cgroup quota"
fi

# --- The station search: GET /api/stations/search against the directory's stand-in on loopback ---
# (Benchmarks/station-search.sh, issue 41): a search the node has not seen, asked of the stand-in,
# then the same again from the node's cache; medians of PERF_SEARCH_ROUNDS rounds, the stand-in asked
# directly as the baseline. Bound: <= 1 s each, and the second one not asked of the directory.
group search env ROUNDS="${PERF_SEARCH_ROUNDS:-7}" Benchmarks/station-search.sh "$BIN"
line=$(grep '^station_search ' "$work/search.log" 2>/dev/null)
if [ -n "$line" ]; then
    read -r first first_worst cached cached_worst direct rounds asked < <(echo "$line" | awk '{ for (i = 2; i < NF; i += 2) v[$i] = $(i + 1)
        print v["first_median_ms"], v["first_worst_ms"], v["cached_median_ms"], v["cached_worst_ms"], v["direct_median_ms"],
            v["rounds"], v["asked"] }')
    row "station search, first (from the directory), median of $rounds" "$first ms (worst $first_worst)" "$direct ms stand-in alone" \
        "$(ratio "$first" "$direct")x" "<= 1000 ms" "$(at_most "$first" 1000)" "wall clock"
    verdict=$(at_most "$cached" 1000)
    [ "$asked" = "$rounds" ] || verdict=FAIL  # the cache answered none of the second searches' asking
    row "station search, the same again (cache), median of $rounds" "$cached ms (worst $cached_worst)" \
        "directory asked $asked of $((2 * rounds))" "-" "<= 1000 ms, not asked again" "$verdict" "wall clock"
else
    unmeasured "station search, first (from the directory)" "<= 1000 ms" "wall clock"
    unmeasured "station search, the same again (cache)" "<= 1000 ms, not asked again" "wall clock"
fi

# --- The table -----------------------------------------------------------------------------
seconds=$(( $(date +%s) - started ))
failed=$(awk -F'\t' '$6 != "PASS"' "$rows" | wc -l)
header="make perf, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null), $(nproc) cores,"
header+=" load $load_start -> $(cut -d' ' -f1 /proc/loadavg), $seconds s"
header+="${BENCH_NODE_QUOTA:+, node quota $BENCH_NODE_QUOTA % of a core (period $BENCH_NODE_PERIOD_MS ms)}"
echo
echo "$header"
{
    printf 'row\tfigure\tbaseline (same run)\tratio\tbound\tverdict\tkind\n'
    cat "$rows"
} | awk -F'\t' '{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
    END { for (r = 1; r <= NR; r++) {
        line = ""; for (i = 1; i <= 7; i++) line = line sprintf("%-" w[i] "s  ", cell[r, i]); sub(/ +$/, "", line); print line } }'
echo "$(( $(wc -l <"$rows") - failed )) of $(wc -l <"$rows") rows pass${failed:+; $failed failed}"

# PERF_LOG_DIR keeps the rows and the header too (perf-rows.tsv, perf-header.txt): a CI run's
# table can then be written into the docs with Benchmarks/perf-doc.sh, as PERF_DOC=1 would have.
if [ -n "${PERF_LOG_DIR:-}" ]; then
    cp "$rows" "$PERF_LOG_DIR/perf-rows.tsv" 2>/dev/null && echo "$header" >"$PERF_LOG_DIR/perf-header.txt"
fi

# The docs hold the last run as it came out, verdicts and all: a normal run in the "make perf"
# section, a run with a quota (which must fail somewhere) in the "slowed" one.
if [ -n "${PERF_DOC:-}" ]; then
    if [ -n "$BENCH_NODE_QUOTA" ]; then section=slowed; else section=normal; fi
    Benchmarks/perf-doc.sh "$rows" "$header" docs/performance.md "$section" &&
        echo "docs/performance.md: its make perf section ($section) rewritten"
fi
[ "$failed" -eq 0 ]
