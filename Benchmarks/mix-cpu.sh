#!/usr/bin/env bash
# The worst 3-layer mix (brown 100 + rain 70 + fan 50) against its loudest layer, brown, alone,
# in the same moments: two nodes on one broker and the ALSA null device, one playing the mix and
# the other brown, their CPU (perf's task-clock, all threads) over the same PLAY_SECONDS window
# (default 10) after 4 s to settle; ROUNDS times (default 6), the nodes swapping sounds each round
# so neither process's luck stays on one side. A burst of other work on a shared machine falls on
# both at once, where sound-cpu.sh's windows one after the other moved the ratio 1.37-2.05x.
#     Benchmarks/mix-cpu.sh path/to/release/noiseclock
# Prints one line per round, then `mix_ratio median R (range A-B)` and `cpu_median brown|worst X`;
# fails when a window measured nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/mix-cpu.sh path/to/noiseclock}")
PLAY=${PLAY_SECONDS:-10}
ROUNDS=${ROUNDS:-6}
. Benchmarks/lib/nodes.sh
bench_init mix-cpu
bench_mosquitto
declare -A pid
for id in a b; do
    bench_node "$id" 'audio: {device: "null"}'
    pid[$id]=$node_pid
    bench_online "$id"
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/mix/set" \
        -m '{"id": "worst", "layers": [{"sound": "brown", "volume": 100}, {"sound": "rain", "volume": 70}, {"sound": "fan", "volume": 50}]}'
done
task_clock() {  # pid: % of one core over $PLAY seconds
    perf stat -e task-clock -x, -p "$1" -- sleep "$PLAY" 2>&1 | awk -F, -v s="$PLAY" '$3 == "task-clock" { printf "%.3f", $1 / (10 * s) }'
}
: >"$work/rounds"
for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) -eq 1 ]; then mixer=a; plain=b; else mixer=b; plain=a; fi
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$mixer/noise/set" -m '{"playing": true, "sound": "worst", "volume": 40}'
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$plain/noise/set" -m '{"playing": true, "sound": "brown", "volume": 40}'
    sleep 4
    task_clock "${pid[$mixer]}" >"$work/worst.cpu" &
    task_clock "${pid[$plain]}" >"$work/brown.cpu"
    wait $!
    worst=$(cat "$work/worst.cpu"); brown=$(cat "$work/brown.cpu")
    awk -v a="$worst" -v b="$brown" 'BEGIN { exit !(a > 0 && b > 0) }' ||
        { echo "round $round measured nothing (worst '$worst', brown '$brown')" >&2; exit 1; }
    ratio=$(awk -v a="$worst" -v b="$brown" 'BEGIN { printf "%.2f", a / b }')
    echo "$brown $worst $ratio" >>"$work/rounds"
    echo "round $round (load $(cut -d' ' -f1 /proc/loadavg)): node $mixer worst mix $worst %, node $plain brown $brown %: ${ratio}x"
done
for column in 1:brown 2:worst 3:ratio; do
    awk -v c="${column%%:*}" -v name="${column#*:}" '{ a[NR] = $c } END {
        for (x = 1; x <= NR; x++) for (y = x + 1; y <= NR; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
        m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
        printf "%s median %s (range %s-%s)\ncpu_median %s %s\n", name, m, a[1], a[NR], name, m
    }' "$work/rounds"
done
