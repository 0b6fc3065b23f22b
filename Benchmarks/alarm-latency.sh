#!/usr/bin/env bash
# Alarm fire delay: from an alarm's scheduled instant (a whole minute) to its `~/alarm/fired`
# message arriving at a subscriber, over a private broker on loopback.
#
#   Benchmarks/alarm-latency.sh [path/to/noiseclock] [fires] [mosquitto|rabbitmq]
#                                                  (defaults: release build, 20, mosquitto)
#
# A node rings once per minute, so instead of waiting 20 minutes this starts one node process per
# fire, each with one alarm at the same minute boundary: 20 fires in one to two minutes. All of
# them wake at the same instant, so on a small machine the worst case includes that contention.
#
# `rabbitmq`: a three-node RabbitMQ cluster (scripts/rabbitmq-cluster.sh, MQTT plugin, MQTT 3.1.1)
# instead of mosquitto, the nodes spread round it (node i's `mqtt.hosts` starts at broker node
# i mod 3), the subscriber on broker node 1: two thirds of the fires cross broker nodes.
# FLOOR=1 (mosquitto): the floor in the same run, 20 s after the fire, so it does not share the
# nodes' instant: as many C clients as nodes (Benchmarks/mqtt-probe.c `at`), connected beforehand,
# each making one durable small write (as a node writes its state at a fire) and publishing one
# message at the same wall-clock instant, timed the same way.
# Output: the cluster's start-up time (rabbitmq), the nodes' CPU in 8 idle seconds, the CPU and RSS
# around the fire, (rabbitmq) the delays of
# the fires on the subscriber's broker node and of those that crossed, (FLOOR=1) the floor's line
# `floor: median X ms, worst Y ms (N clients)`, then (last line)
# alarm fire delay: median X ms, worst Y ms (N fires)
# It fails when any node did not fire (or the floor's clients did not all publish).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/noiseclock}
FIRES=${2:-20}
BROKER=${3:-mosquitto}
[ -x "$BIN" ] || { echo "no noiseclock binary at $BIN (make release)" >&2; exit 1; }
. Benchmarks/lib/nodes.sh
bench_init alarm-latency

broker_pids=()
case "$BROKER" in
mosquitto)
    bench_mosquitto
    broker_pids=("$broker")
    ;;
rabbitmq)
    cluster="$work/rabbitmq"
    bench_on_exit "scripts/rabbitmq-cluster.sh stop '$cluster'"
    started=$(date +%s.%N)
    ports=$(scripts/rabbitmq-cluster.sh start "$cluster" 2>/dev/null) || { echo "the RabbitMQ cluster did not start" >&2; exit 1; }
    echo "RabbitMQ cluster of 3 up in $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
    IFS=, read -r -a rabbit <<< "${ports#mqtt_ports=}"
    port=${rabbit[0]}
    for n in 1 2 3; do broker_pids+=("$(cat "$cluster/node$n/pid")"); done
    bench_pub_options=(-V mqttv311)
    ;;
*) echo "unknown broker $BROKER (mosquitto or rabbitmq)" >&2; exit 64 ;;
esac

FLOOR=${FLOOR:-}
floor_pids=()
[ -z "$FLOOR" ] || [ "$BROKER" = mosquitto ] || { echo "FLOOR=1 is for mosquitto" >&2; exit 64; }
[ -z "$FLOOR" ] || cc -O2 -o "$work/mqtt-probe" Benchmarks/mqtt-probe.c -lmosquitto
bench_subscribe "$work/messages.txt" 'noiseclock/+/alarm/fired' 'noiseclock/+/response' 'noiseclock/+/availability' 'floor/+/fired'
for i in $(seq 1 "$FIRES"); do
    if [ "$BROKER" = rabbitmq ]; then
        first=$(( (i - 1) % 3 ))
        hosts=""
        for k in 0 1 2; do hosts+="${hosts:+, }\"127.0.0.1:${rabbit[$(( (first + k) % 3 ))]}\""; done
        bench_mqtt="mqtt: {hosts: [$hosts], protocol: \"3.1.1\"}"
    fi
    bench_node "bench$i"
done
bench_wait "$work/messages.txt" '/availability online' "$FIRES" "the nodes to come online"
bench_throttle "${nodes[@]}"

# The next whole minute at least 20 s away, as HH:MM in UTC.
now=$(date +%s)
boundary=$(( (now / 60 + 1) * 60 ))
[ $((boundary - now)) -ge 20 ] || boundary=$((boundary + 60))
clock=$(date -u -d "@$boundary" +%H:%M)
for i in $(seq 1 "$FIRES"); do
    mosquitto_pub -p "$port" "${bench_pub_options[@]}" -q 1 -t "noiseclock/bench$i/alarm/add" \
        -m "{\"time\": \"$clock\", \"label\": \"bench\", \"sound\": \"none\", \"request_id\": \"bench$i\"}"
done
bench_wait "$work/messages.txt" '"ok":true' "$FIRES" "the alarms to be accepted" 10
if [ -n "$FLOOR" ]; then
    floor_at=$((boundary + 20))
    for i in $(seq 1 "$FIRES"); do
        mkdir -p "$work/floor$i"
        "$work/mqtt-probe" "$port" at "floor/$i/fired" "$floor_at" "$work/floor$i" &
        floor_pids+=($!)
    done
    pids+=("${floor_pids[@]}")
fi

echo "waiting for $FIRES fires at $(date -u -d "@$boundary" +%FT%TZ)" >&2
# CPU from 3 s before the minute to 5 s after it: the fire, as the nodes and the broker pay it;
# and the 8 s before that, nothing due (what the same window costs idle, to tell the fire apart).
sleep $(( boundary - $(date +%s) - 11 ))
idle_before=$(bench_cpu_ticks "${nodes[@]}")
sleep 8
nodes_before=$(bench_cpu_ticks "${nodes[@]}"); broker_before=$(bench_cpu_ticks "${broker_pids[@]}")
sleep 8
nodes_after=$(bench_cpu_ticks "${nodes[@]}"); broker_after=$(bench_cpu_ticks "${broker_pids[@]}")
hz=$(getconf CLK_TCK)
echo "idle 8 s before it: nodes $(awk -v a="$idle_before" -v b="$nodes_before" -v h="$hz" -v n="$FIRES" \
    'BEGIN { printf "%.0f ms CPU in all, %.2f ms each", (b - a) * 1000 / h, (b - a) * 1000 / h / n }')"
nodes_rss=$(bench_rss_kb "${nodes[@]}")
broker_rss=$(bench_rss_kb "${broker_pids[@]}")
echo "around the fire (8 s): nodes $(awk -v a="$nodes_before" -v b="$nodes_after" -v h="$hz" -v n="$FIRES" \
    'BEGIN { printf "%.0f ms CPU in all, %.2f ms each", (b - a) * 1000 / h, (b - a) * 1000 / h / n }'),"\
" $BROKER $(awk -v a="$broker_before" -v b="$broker_after" -v h="$hz" 'BEGIN { printf "%.0f ms CPU", (b - a) * 1000 / h }');"\
" RSS nodes $((nodes_rss / 1024)) MB in all ($((nodes_rss / FIRES / 1024)) MB each), $BROKER $((broker_rss / 1024)) MB"\
"${broker_pids[1]:+ (${#broker_pids[@]} broker nodes)}"

grep '/alarm/fired ' "$work/messages.txt" | awk -v b="$boundary" '{ printf "%.1f\n", ($1 - b) * 1000 }' | sort -n > "$work/delays.txt"
if [ "$BROKER" = rabbitmq ]; then
    # Fires from nodes on the subscriber's broker node against those that crossed to it.
    for side in same crossed; do
        grep '/alarm/fired ' "$work/messages.txt" | awk -v b="$boundary" -v side="$side" '{
            split($2, parts, "/"); i = substr(parts[2], 6) + 0
            if ((side == "same") == ((i - 1) % 3 == 0)) printf "%.1f\n", ($1 - b) * 1000 }' | sort -n > "$work/$side.txt"
    done
    echo "on the subscriber's broker node: median $(bench_median "$work/same.txt") ms, worst $(tail -n 1 "$work/same.txt") ms" \
        "($(wc -l < "$work/same.txt")); crossed from the other two: median $(bench_median "$work/crossed.txt") ms," \
        "worst $(tail -n 1 "$work/crossed.txt") ms ($(wc -l < "$work/crossed.txt"))"
fi
if [ -n "$FLOOR" ]; then
    for pid in "${floor_pids[@]}"; do wait "$pid" || { echo "a floor client did not publish" >&2; exit 1; }; done
    bench_wait "$work/messages.txt" '/fired fired' "$FIRES" "the floor's messages" 10
    grep '^[0-9.]* floor/' "$work/messages.txt" | awk -v b="$floor_at" '{ printf "%.1f\n", ($1 - b) * 1000 }' | sort -n > "$work/floor.txt"
    echo "floor: median $(bench_median "$work/floor.txt") ms, worst $(tail -n 1 "$work/floor.txt") ms ($(wc -l < "$work/floor.txt") clients)"
fi
fires=$(wc -l < "$work/delays.txt")
[ "$fires" -gt 0 ] || { echo "no alarm fired" >&2; exit 1; }
[ "$fires" -eq "$FIRES" ] || { echo "only $fires of $FIRES alarms fired" >&2; exit 1; }
echo "alarm fire delay: median $(bench_median "$work/delays.txt") ms, worst $(tail -n 1 "$work/delays.txt") ms ($fires fires)"
