#!/usr/bin/env bash
# Issue 19's real-time CPU figures alone (the `make bench` rows, without the rest of the run):
# one node on the ALSA null device and its own broker; brown noise, rain, fan and the worst
# 3-layer mix (brown 100 + rain 70 + fan 50) each played for PLAY_SECONDS (default 20) after 4 s
# to settle, ROUNDS times (default 3) in turn, so a burst of other work on the machine falls on
# one sound of one round, not on all of one sound. CPU: the node's own threads, in nanoseconds
# (`perf stat`'s task-clock). Prints one line per round and the medians; SOUNDS (default "brown
# rain fan worst") chooses them. It fails when a window measured nothing.
#     Benchmarks/sound-cpu.sh path/to/noiseclock
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/sound-cpu.sh path/to/noiseclock}")
PLAY=${PLAY_SECONDS:-20}
ROUNDS=${ROUNDS:-3}
SOUNDS=${SOUNDS:-brown rain fan worst}
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
    line="round $round (load $(cut -d' ' -f1 /proc/loadavg)):"
    for sound in $SOUNDS; do
        cpu=$(cpu_of "$sound")
        # perf read nothing (the node gone, perf missing): a failure, not a ratio of 0.
        awk -v c="$cpu" 'BEGIN { exit !(c > 0) }' || { echo "round $round, $sound: measured nothing ('$cpu')" >&2; exit 1; }
        echo "$round $sound $cpu" >>"$work/rounds"
        line+=" $sound $cpu %,"
    done
    ratio=$(awk -v r="$round" '$1 == r { v[$2] = $3 }
        END { if (v["brown"] > 0 && v["worst"] > 0) printf "%.2f", v["worst"] / v["brown"] }' "$work/rounds")
    [ -z "$ratio" ] || { echo "$round ratio $ratio" >>"$work/rounds"; line+=" worst mix = ${ratio}x brown"; }
    echo "${line%,}"
done
# Medians (`cpu_median SOUND X` lines for Benchmarks/perf.sh), the ratio's over the rounds too.
for name in $SOUNDS ratio; do
    awk -v s="$name" '$2 == s { a[++n] = $3 } END {
        if (!n) exit
        for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
        printf "%s median %s (range %s-%s)\ncpu_median %s %s\n", s, a[int((n + 1) / 2)], a[1], a[n], s, a[int((n + 1) / 2)]
    }' "$work/rounds"
done
