#!/usr/bin/env bash
# Alarm fire delay: from an alarm's scheduled instant (a whole minute) to its `~/alarm/fired`
# message arriving at a subscriber, over a private mosquitto on loopback.
#
#   Benchmarks/alarm-latency.sh [path/to/noiseclock] [fires]      (defaults: release build, 20)
#
# A node rings once per minute, so instead of waiting 20 minutes this starts one node process per
# fire, each with one alarm at the same minute boundary: 20 fires in one to two minutes. All of
# them wake at the same instant, so on a small machine the worst case includes that contention.
# Output (last line): alarm fire delay: median X ms, worst Y ms (N fires)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/noiseclock}
FIRES=${2:-20}
[ -x "$BIN" ] || { echo "no noiseclock binary at $BIN (make release)" >&2; exit 1; }
command -v mosquitto_sub >/dev/null || { echo "mosquitto-clients missing (make deps)" >&2; exit 1; }
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)

work=$(mktemp -d /tmp/noiseclock-alarm-latency.XXXXXX)
pids=()
nodes=()
# CPU (utime + stime, clock ticks) and RSS (kB) of a set of processes, from /proc.
cpu_ticks() { local t=0 p; for p in "$@"; do t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$t"; }
rss_kb() { local t=0 p; for p in "$@"; do t=$((t + $(awk '/^VmRSS/ { print $2 }' "/proc/$p/status" 2>/dev/null || echo 0))); done; echo "$t"; }
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A private broker on a free-looking port (retried if taken).
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

mosquitto_sub -p "$port" -q 1 -F '%U %t %p' -t 'noiseclock/+/alarm/fired' -t 'noiseclock/+/response' \
    -t 'noiseclock/+/availability' > "$work/messages.txt" &
pids+=("$!")

for i in $(seq 1 "$FIRES"); do
    mkdir -p "$work/node$i"
    cat > "$work/node$i/noiseclock.yaml" <<EOF
node_id: bench$i
timezone: UTC
locale: en
state_dir: $work/node$i/state
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
    NOISECLOCK_LOG_LEVEL=warning "$BIN" --config "$work/node$i/noiseclock.yaml" > "$work/node$i/log" 2>&1 &
    pids+=("$!")
    nodes+=("$!")
done

count() { grep -c -- "$1" "$work/messages.txt" || true; }
for _ in $(seq 1 300); do
    [ "$(count '/availability online')" -ge "$FIRES" ] && break
    sleep 0.1
done
[ "$(count '/availability online')" -ge "$FIRES" ] || { echo "only $(count '/availability online') of $FIRES nodes came online" >&2; exit 1; }

# The next whole minute at least 10 s away, as HH:MM in UTC.
now=$(date +%s)
boundary=$(( (now / 60 + 1) * 60 ))
[ $((boundary - now)) -ge 10 ] || boundary=$((boundary + 60))
clock=$(date -u -d "@$boundary" +%H:%M)
for i in $(seq 1 "$FIRES"); do
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/bench$i/alarm/add" \
        -m "{\"time\": \"$clock\", \"label\": \"bench\", \"sound\": \"none\", \"request_id\": \"bench$i\"}"
done
sleep 1
ok=$(grep '/response ' "$work/messages.txt" | grep -c '"ok":true' || true)
[ "$ok" -ge "$FIRES" ] || { echo "only $ok of $FIRES alarms were accepted" >&2; exit 1; }

echo "waiting for $FIRES fires at $(date -u -d "@$boundary" +%FT%TZ)" >&2
# CPU from 3 s before the minute to 5 s after it: the fire, as the nodes and the broker pay it.
sleep $(( boundary - $(date +%s) - 3 ))
nodes_before=$(cpu_ticks "${nodes[@]}"); broker_before=$(cpu_ticks "$broker")
sleep 8
nodes_after=$(cpu_ticks "${nodes[@]}"); broker_after=$(cpu_ticks "$broker")
hz=$(getconf CLK_TCK)
echo "around the fire (8 s): nodes $(awk -v a="$nodes_before" -v b="$nodes_after" -v h="$hz" -v n="$FIRES" 'BEGIN { printf "%.0f ms CPU in all, %.2f ms each", (b - a) * 1000 / h, (b - a) * 1000 / h / n }'), broker $(awk -v a="$broker_before" -v b="$broker_after" -v h="$hz" 'BEGIN { printf "%.0f ms CPU", (b - a) * 1000 / h }'); RSS nodes $(( $(rss_kb "${nodes[@]}") / 1024 )) MB in all ($(( $(rss_kb "${nodes[@]}") / FIRES / 1024 )) MB each), broker $(( $(rss_kb "$broker") / 1024 )) MB"

grep '/alarm/fired ' "$work/messages.txt" | awk -v b="$boundary" '{ printf "%.1f\n", ($1 - b) * 1000 }' | sort -n > "$work/delays.txt"
fires=$(wc -l < "$work/delays.txt")
[ "$fires" -gt 0 ] || { echo "no alarm fired" >&2; exit 1; }
median=$(awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$work/delays.txt")
worst=$(tail -n 1 "$work/delays.txt")
[ "$fires" -eq "$FIRES" ] || echo "warning: $fires of $FIRES alarms fired" >&2
echo "alarm fire delay: median $median ms, worst $worst ms ($fires fires)"
