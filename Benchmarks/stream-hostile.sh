#!/usr/bin/env bash
# Issue 37's stream content figures (printed, not asserted): one node playing, as its noise, each
# case of the tests' hostile server (Tests/Fixtures/hostile-stream/format_server.py) on the ALSA
# null device, for DURATION seconds (default 10) each. Per case: RSS idle, the peak over the case (VmHWM:
# a fresh node per case), CPU (share of a core) while it plays, `~/noise` messages carrying a new
# title (and their rate), the cause `~/noise` gives, and the seconds from `noise/set OFF` until
# the node has no `station-player` thread left.
#     Benchmarks/stream-hostile.sh path/to/noiseclock [case...]
# Cases: ogg-rate1 flac-rates mp3-rates icy-flood icy-titles (default: all). A binary from before
# issue 37 knows no `stream.allow_local_addresses`: BENCH_STREAM='stream: {timeout_seconds: 5}'.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/stream-hostile.sh path/to/noiseclock [case...]}")
shift
SECONDS_EACH=${DURATION:-10}
cases=("$@")
local_stations='stream: {allow_local_addresses: true}'
stream_line=${BENCH_STREAM:-$local_stations}
[ ${#cases[@]} -gt 0 ] || cases=(ogg-rate1 flac-rates mp3-rates icy-flood icy-titles)
. Benchmarks/lib/nodes.sh
bench_init stream-hostile
bench_mosquitto
server=$(bench_free_port)
python3 Tests/Fixtures/hostile-stream/format_server.py "$server" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do (echo >"/dev/tcp/127.0.0.1/$server") 2>/dev/null && break; sleep 0.1; done
ticks=$(getconf CLK_TCK)

players() { grep -l '^station-player$' /proc/"$1"/task/*/comm 2>/dev/null | wc -l; }

for case in "${cases[@]}"; do
    id="h${case//-/}"
    bench_node "$id" 'audio: {device: "null"}' "$stream_line"
    pid=$node_pid
    bench_online "$id"
    sleep 3
    idle=$(bench_rss_kb "$pid")
    bench_subscribe "$work/$id.noise" "noiseclock/$id/noise"
    sleep 0.5
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/station/add" -m "{\"id\": \"s\", \"name\": \"s\", \"url\": \"http://127.0.0.1:$server/$case\"}"
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/noise/set" -m '{"playing": true, "sound": "radio:s", "volume": 40}'
    sleep 1
    before=$(bench_cpu_ticks "$pid")
    start=$(date +%s.%N)
    sleep "$SECONDS_EACH"
    after=$(bench_cpu_ticks "$pid")
    end=$(date +%s.%N)
    peak=$(awk '/VmHWM/ { print $2 }' /proc/"$pid"/status)
    threads=$(players "$pid")
    off=$(date +%s.%N)
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/noise/set" -m OFF
    gone=""
    for _ in $(seq 300); do
        if [ "$(players "$pid")" -eq 0 ]; then gone=$(awk -v a="$off" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'); break; fi
        sleep 0.02
    done
    titles=$( (grep -o '"title": *"[^"]*"' "$work/$id.noise" || true) | uniq | wc -l)
    cause=$( (grep -o 'is down ([a-z_0-9]*)' "$work/$id.noise" || true) | tail -1)
    awk -v c="$case" -v idle="$idle" -v peak="$peak" -v b="$before" -v a="$after" -v s="$start" -v e="$end" -v t="$ticks" \
        -v n="$titles" -v p="$threads" -v g="${gone:-"> 6"}" -v cause="${cause:-none}" 'BEGIN {
        printf "%-10s RSS idle %d kB, peak %d kB (+%.1f MB); CPU %.1f %% of a core over %.0f s; %d titles on ~/noise (%.2f/s); players %d; thread gone %s s after OFF; %s\n",
            c, idle, peak, (peak - idle) / 1024, 100 * (a - b) / t / (e - s), e - s, n, n / (e - s + 1), p, g, cause
    }'
    bench_stop "$pid"
done

# station/test as a port scanner: 11 probes of loopback ports, each as soon as the last is answered, on a node with
# the default `stream.allow_local_addresses: false` (skipped with BENCH_STREAM, a binary from before).
if [ -z "${BENCH_STREAM:-}" ]; then
    bench_node hprobe 'stream: {allow_local_addresses: false}'
    bench_online hprobe
    bench_subscribe "$work/hprobe.response" noiseclock/hprobe/response
    sleep 0.5
    start=$(date +%s.%N)
    for n in $(seq 11); do  # one after the other (at most 4 run at once: limit_exceeded)
        mosquitto_pub -p "$port" -q 1 -t noiseclock/hprobe/station/test -m "{\"url\": \"http://127.0.0.1:$((8000 + n))/\", \"request_id\": $n}"
        bench_wait "$work/hprobe.response" '"command":"station/test"' "$n" "station/test answer $n" 20
    done
    end=$(date +%s.%N)
    forbidden=$(bench_count "$work/hprobe.response" forbidden_address)
    limited=$(bench_count "$work/hprobe.response" rate_limited)
    [ -n "${BENCH_VERBOSE:-}" ] && cat "$work/hprobe.response"
    awk -v f="$forbidden" -v l="$limited" -v s="$start" -v e="$end" 'BEGIN {
        printf "station/test x11 to loopback ports: %d forbidden_address, %d rate_limited, all answered in %.2f s\n", f, l, e - s }'
fi
