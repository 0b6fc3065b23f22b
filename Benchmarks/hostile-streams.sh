#!/usr/bin/env bash
# Issue 37's playlist findings as figures (printed, not asserted; the bounds: mqtt-api v1.4
# "Streams are bounded"): release nodes against scripts/hostile_stream_server.py on loopback.
#   1. RSS: one `station/test`, then four at once, of an HLS station whose segment never ends (the
#      tone, then random bytes at 20 MB/s), RSS sampled every 50 ms until the answers; and the same
#      station as the noise for 20 s. Peak over the node's idle RSS (bound +12 MB a stream, +48 MB
#      for four probes).
#   2. Requests a second to a self-naming m3u, a self-naming HLS master and a playlist of 404
#      segments, each a node's noise for RUN_SECONDS (default 60), counted in the server's log (bound 1/s).
#     Benchmarks/hostile-streams.sh path/to/release/noiseclock
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/hostile-streams.sh path/to/noiseclock}")
SECONDS_RUN=${RUN_SECONDS:-60}
. Benchmarks/lib/nodes.sh
bench_init hostile-streams
bench_mosquitto
web=$(bench_free_port)
python3 scripts/hostile_stream_server.py "$web" "$work/requests.log" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 150); do curl -s -o /dev/null "http://127.0.0.1:$web/tone.aac" && break; sleep 0.1; done
base="http://127.0.0.1:$web"

# The peak RSS of $1 (kB) while `$2` (a command) runs.
peak_while() {
    local pid=$1 peak=0 rss
    shift
    "$@" &
    local job=$!
    while kill -0 "$job" 2>/dev/null; do
        rss=$(bench_rss_kb "$pid")
        [ "$rss" -gt "$peak" ] && peak=$rss
        sleep 0.05
    done
    echo "$peak"
}

# `station/test` of $2 on node $1, $3 at once: until every answer is in (at most 20 s).
station_tests() {
    local id=$1 url=$2 count=$3 n
    : >"$work/$id.responses"
    mosquitto_sub -p "$port" -t "noiseclock/$id/response" -C "$count" -W 20 >"$work/$id.responses" 2>/dev/null &
    local sub=$!
    sleep 0.3
    for n in $(seq "$count"); do
        mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/station/test" -m "{\"url\": \"$url\", \"request_id\": \"t$n\"}"
    done
    wait "$sub" || true
}

bench_node probe 'audio: {device: "null"}'
probe=$node_pid
bench_online probe
sleep 5
idle=$(bench_rss_kb "$probe")
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
hwm_idle=$(hwm "$probe")
one=$(peak_while "$probe" station_tests probe "$base/endless-noise.m3u8" 1)
echo "endless segment, one station/test:   idle $idle kB, peak $one kB: +$(((one - idle) / 1024)) MB ($(grep -o '"ok":[a-z]*\|"codec":"[^"]*"\|"cause":"[^"]*"' "$work/probe.responses" | tr '\n' ' '))"
four=$(peak_while "$probe" station_tests probe "$base/endless-noise.m3u8" 4)
echo "endless segment, four station/tests: idle $idle kB, peak $four kB: +$(((four - idle) / 1024)) MB"
mosquitto_pub -p "$port" -q 1 -t "noiseclock/probe/station/add" -m "{\"id\": \"endless\", \"name\": \"endless\", \"url\": \"$base/endless-noise.m3u8\"}"
play_noise() {
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/probe/noise/set" -m '{"playing": true, "sound": "radio:endless", "volume": 40}'
    sleep 20
}
noise=$(peak_while "$probe" play_noise)
echo "endless segment as the noise, 20 s:   idle $idle kB, peak $noise kB: +$(((noise - idle) / 1024)) MB"
echo "the node's VmHWM (its peak RSS since start, between samples too): $hwm_idle kB idle, $(hwm "$probe") kB after the three"
bench_stop "$probe"

declare -A path=([self]=/self.m3u [master]=/self-master.m3u8 [notfound]=/notfound.m3u8)
for id in self master notfound; do
    bench_node "$id" 'audio: {device: "null"}'
    bench_online "$id"
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/station/add" -m "{\"id\": \"s\", \"name\": \"s\", \"url\": \"$base${path[$id]}\"}"
done
before=$(wc -l <"$work/requests.log")
started=$(date +%s.%N)
for id in self master notfound; do
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/noise/set" -m '{"playing": true, "sound": "radio:s", "volume": 40}'
done
sleep "$SECONDS_RUN"
ended=$(date +%s.%N)
tail -n +"$((before + 1))" "$work/requests.log" >"$work/window.log"
for id in self master notfound; do
    case $id in
        self) pattern='^[0-9.]* /self\.m3u$' ;;
        master) pattern='^[0-9.]* /self-master' ;;
        notfound) pattern='^[0-9.]* /(notfound|missing)' ;;
    esac
    count=$(grep -cE "$pattern" "$work/window.log" || true)
    awk -v n="$count" -v a="$started" -v b="$ended" -v what="${path[$id]}" \
        'BEGIN { printf "%-20s as the noise: %d requests in %.0f s: %.2f a second\n", what, n, b - a, n / (b - a) }'
done
