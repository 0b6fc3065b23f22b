#!/usr/bin/env bash
# Issue 19's real-time CPU figures alone (the `make bench` rows, without the rest of the run):
# one node on the ALSA null device and its own broker; brown noise, rain, fan and the worst
# 3-layer mix (brown 100 + rain 70 + fan 50) each played for PLAY_SECONDS (default 20) after 4 s
# to settle, ROUNDS times (default 3) in turn, so a burst of other work on the machine falls on
# one sound of one round, not on all of one sound. CPU: the node's own threads, in nanoseconds
# (`perf stat`'s task-clock). Prints one line per round and the medians.
#     Benchmarks/sound-cpu.sh path/to/noiseclock
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/sound-cpu.sh path/to/noiseclock}")
PLAY=${PLAY_SECONDS:-20}
ROUNDS=${ROUNDS:-3}
. Benchmarks/lib/nodes.sh
bench_init sound-cpu
bench_mosquitto
bench_node bench 'audio: {device: "null"}'
root=noiseclock/bench
bench_online bench
mosquitto_pub -p "$port" -q 1 -t "$root/mix/set" \
    -m '{"id": "worst", "layers": [{"sound": "brown", "volume": 100}, {"sound": "rain", "volume": 70}, {"sound": "fan", "volume": 50}]}'
cpu_of() {  # sound: % of one core over $PLAY seconds of it
    mosquitto_pub -p "$port" -q 1 -t "$root/noise/set" -m "{\"playing\": true, \"sound\": \"$1\", \"volume\": 40}"
    sleep 4
    # perf's task-clock: nanoseconds of every thread of the node, also one that ends in the
    # window (libdispatch's workers do, seconds after a command; /proc's ticks are 10 ms).
    perf stat -e task-clock -x, -p "$node_pid" -- sleep "$PLAY" 2>&1 |
        awk -F, -v s="$PLAY" '$3 == "task-clock" { printf "%.3f", $1 / (10 * s) }'
}
: >"$work/rounds"
for round in $(seq "$ROUNDS"); do
    brown=$(cpu_of brown); rain=$(cpu_of rain); fan=$(cpu_of fan); worst=$(cpu_of worst)
    ratio=$(awk -v a="$worst" -v b="$brown" 'BEGIN { printf "%.2f", a / b }')
    echo "$brown $rain $fan $worst $ratio" >>"$work/rounds"
    echo "round $round (load $(cut -d' ' -f1 /proc/loadavg)): brown $brown %, rain $rain %, fan $fan %, worst mix $worst % = ${ratio}x brown"
done
awk '{ for (i = 1; i <= 5; i++) v[i, NR] = $i } END {
    split("brown rain fan worst ratio", name, " ")
    for (i = 1; i <= 5; i++) {
        n = 0; for (r = 1; r <= NR; r++) a[++n] = v[i, r]
        for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
        printf "%s median %s (range %s-%s)\n", name[i], a[int((n + 1) / 2)], a[1], a[n]
    }
}' "$work/rounds"
