#!/usr/bin/env bash
# Alarm group dismiss: two nodes on a private mosquitto ring the same `family` alarm
# (`alarm/test`), one is dismissed over MQTT, and the figure is the time from its message on
# `noiseclock/groups/family/ring` arriving at a subscriber to the other node's `dismissed`
# arriving there. Repeated `rings` times.
#
#   Benchmarks/group-dismiss.sh [path/to/noiseclock] [rings]      (defaults: release build, 20)
#
# Output (last line): group dismiss: p50 X ms, worst Y ms (N rings, M replies to a group message)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/noiseclock}
RINGS=${2:-20}
[ -x "$BIN" ] || { echo "no noiseclock binary at $BIN (make release)" >&2; exit 1; }
command -v mosquitto_sub >/dev/null || { echo "mosquitto-clients missing (make deps)" >&2; exit 1; }
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)

work=$(mktemp -d /tmp/noiseclock-group-dismiss.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

for _ in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 20000))
    printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" > "$work/mosquitto.conf"
    "$MOSQUITTO" -c "$work/mosquitto.conf" > "$work/mosquitto.log" 2>&1 &
    broker=$!
    sleep 0.3
    if kill -0 "$broker" 2>/dev/null && mosquitto_pub -p "$port" -t bench/ping -m x 2>/dev/null; then break; fi
    kill "$broker" 2>/dev/null || true
    broker=""
done
[ -n "$broker" ] || { echo "could not start mosquitto" >&2; exit 1; }
pids+=("$broker")

mosquitto_sub -p "$port" -q 1 -F '%U %t %p' -t 'noiseclock/+/alarm/event' -t 'noiseclock/+/response' \
    -t 'noiseclock/+/availability' -t 'noiseclock/groups/#' > "$work/messages.txt" &
pids+=("$!")

for node in a b; do
    mkdir -p "$work/$node"
    cat > "$work/$node/noiseclock.yaml" <<EOF
node_id: room_$node
timezone: UTC
locale: en
state_dir: $work/$node/state
home_assistant:
  discovery: false
mqtt:
  host: 127.0.0.1
  port: $port
audio:
  device: null_noiseclock_bench
battery:
  path: $work/no-power-supply
web:
  enabled: false
EOF
    NOISECLOCK_LOG_LEVEL=warning "$BIN" --config "$work/$node/noiseclock.yaml" > "$work/$node/log" 2>&1 &
    pids+=("$!")
done

count() { grep -c -- "$1" "$work/messages.txt" || true; }
wait_count() {  # pattern, at least, what
    for _ in $(seq 1 200); do [ "$(count "$1")" -ge "$2" ] && return 0; sleep 0.05; done
    echo "timed out waiting for $3" >&2; exit 1
}
wait_count '/availability online' 2 "both nodes online"
for node in a b; do
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/room_$node/alarm/add" \
        -m '{"id": "family", "time": "03:00", "sound": "none", "group": "family"}'
done
wait_count '"command":"alarm/add","ok":true' 2 "both alarms"

for i in $(seq 1 "$RINGS"); do
    for node in a b; do mosquitto_pub -p "$port" -q 1 -t "noiseclock/room_$node/alarm/test" -m family; done
    wait_count '"event":"fired"' $((2 * i)) "ring $i"
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/room_a/alarm/dismiss" -m ''
    wait_count 'room_b/alarm/event {"event":"dismissed"' "$i" "room_b's dismiss $i"
    wait_count 'room_a/alarm/event {"event":"dismissed"' "$i" "room_a's dismiss $i"
done
sleep 0.5

grep ' noiseclock/groups/family/ring ' "$work/messages.txt" | awk '{ print $1 }' > "$work/told.txt"
grep 'room_b/alarm/event {"event":"dismissed"' "$work/messages.txt" | awk '{ print $1 }' > "$work/followed.txt"
paste "$work/told.txt" "$work/followed.txt" | awk '{ printf "%.2f\n", ($2 - $1) * 1000 }' | sort -n > "$work/delays.txt"
rings=$(wc -l < "$work/delays.txt")
p50=$(awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$work/delays.txt")
worst=$(tail -n 1 "$work/delays.txt")
replies=$(grep ' noiseclock/groups/family/ring ' "$work/messages.txt" | grep -vc '"node":"room_a"' || true)
echo "group dismiss: p50 $p50 ms, worst $worst ms ($rings rings, $replies replies to a group message)"
