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
. Benchmarks/lib/nodes.sh
bench_init group-dismiss
bench_mosquitto
bench_subscribe "$work/messages.txt" 'noiseclock/+/alarm/event' 'noiseclock/+/response' 'noiseclock/+/availability' 'noiseclock/groups/#'
for node in a b; do bench_node "room_$node"; done

wait_count() { bench_wait "$work/messages.txt" "$1" "$2" "$3" 10; }  # pattern, at least, what
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
p50=$(bench_median "$work/delays.txt")
worst=$(tail -n 1 "$work/delays.txt")
replies=$(grep ' noiseclock/groups/family/ring ' "$work/messages.txt" | grep -vc '"node":"room_a"' || true)
echo "group dismiss: p50 $p50 ms, worst $worst ms ($rings rings, $replies replies to a group message)"
