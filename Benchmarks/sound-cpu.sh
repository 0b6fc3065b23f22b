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
export NOISECLOCK_RESOURCES="$PWD/Resources"
work=$(mktemp -d)
broker_pid=""
node_pid=""
cleanup() {
    [ -n "$node_pid" ] && kill -TERM "$node_pid" 2>/dev/null && wait "$node_pid" 2>/dev/null
    [ -n "$broker_pid" ] && kill "$broker_pid" 2>/dev/null && wait "$broker_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
broker_pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
cat >"$work/noiseclock.yaml" <<YAML
node_id: bench
timezone: UTC
state_dir: $work/state
mqtt: {host: 127.0.0.1, port: $port}
home_assistant: {discovery: false}
audio: {device: "null"}
battery: {path: $work/no-battery}
web: {enabled: false}
YAML
NOISECLOCK_LOG_LEVEL=warning "$BIN" --config "$work/noiseclock.yaml" >"$work/node.log" 2>&1 &
node_pid=$!
root=noiseclock/bench
mosquitto_sub -p "$port" -t "$root/availability" -C 1 -W 15 >/dev/null || { cat "$work/node.log"; exit 1; }
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
