#!/usr/bin/env bash
# Issue 29's memory over time (printed, not asserted): two release nodes each playing a station as
# their noise for MINUTES (default 60) of real time, their RSS read every SAMPLE_SECONDS (default
# 30). One plays a live Icecast 2 MP3 mount (128 kb/s, FFmpeg's pink noise) whose ICY title
# changes every 20 s through Icecast's admin interface; the other an HLS station FFmpeg writes live
# (AAC-LC 64 kb/s in MPEG-TS, 2 s segments, a 6-segment sliding playlist with old segments deleted,
# served by Python's HTTP server), so its playlist is reloaded and its segments change all along.
# Both on the ALSA null device (the node paces itself). Printed per node: RSS idle (before the
# station), after 5 minutes, at the end, the largest, and the least-squares slope over the samples
# from minute 5 on (a quarter of a shorter run) (kB per hour; the start's warm-up, first sockets and buffers, is left out).
#     Benchmarks/radio-memory.sh path/to/release/noiseclock
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/radio-memory.sh path/to/noiseclock}")
MINUTES=${MINUTES:-60}
SAMPLE=${SAMPLE_SECONDS:-30}
. Benchmarks/lib/nodes.sh
. Benchmarks/lib/icecast.sh
bench_init radio-memory
bench_mosquitto
bench_icecast
bench_icecast_source /mp3 -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3
mkdir -p "$work/hls"
ffmpeg -nostdin -loglevel error -re -f lavfi -i "anoisesrc=color=pink:sample_rate=44100:amplitude=0.25:seed=29" -ac 2 \
    -c:a aac -b:a 64k -f hls -hls_time 2 -hls_list_size 6 -hls_flags delete_segments "$work/hls/live.m3u8" &
pids+=($!)
web=$(bench_free_port)
python3 -m http.server "$web" --bind 127.0.0.1 --directory "$work/hls" >/dev/null 2>&1 &
pids+=($!)
declare -A url=([mp3]="http://127.0.0.1:$ice/mp3" [hls]="http://127.0.0.1:$web/live.m3u8")
declare -A pid idle
for id in mp3 hls; do
    bench_node "$id" 'audio: {device: "null"}'
    pid[$id]=$node_pid
    bench_online "$id"
done
sleep 5
for id in mp3 hls; do
    idle[$id]=$(bench_rss_kb "${pid[$id]}")
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/station/add" -m "{\"id\": \"s\", \"name\": \"s\", \"url\": \"${url[$id]}\"}"
    mosquitto_pub -p "$port" -q 1 -t "noiseclock/$id/noise/set" -m '{"playing": true, "sound": "radio:s", "volume": 40}'
done
start=$(date +%s)
: >"$work/samples"
title=0
while [ $(($(date +%s) - start)) -lt $((MINUTES * 60)) ]; do
    for _ in $(seq $((SAMPLE / 10))); do
        title=$((title + 1))
        [ $((title % 2)) -eq 0 ] && curl -s -o /dev/null "http://admin:adminpw@127.0.0.1:$ice/admin/metadata?mount=/mp3&mode=updinfo&song=Track%20$title"
        sleep 10
    done
    elapsed=$(($(date +%s) - start))
    for id in mp3 hls; do
        kill -0 "${pid[$id]}" || { echo "node $id exited" >&2; cat "$work/$id/log" >&2; exit 1; }
        echo "$id $elapsed $(bench_rss_kb "${pid[$id]}")" >>"$work/samples"
    done
    echo "$(date +%H:%M:%S) ${elapsed}s: $(awk -v t="$elapsed" '$2 == t { printf "%s %s kB  ", $1, $3 }' "$work/samples")"
done
# The warm-up left out of the slope: 5 minutes, or a quarter of a shorter run.
warm=$((MINUTES * 60 / 4 < 300 ? MINUTES * 60 / 4 : 300))
for id in mp3 hls; do
    noise=$(mosquitto_sub -p "$port" -t "noiseclock/$id/noise" -C 1 -W 5)
    grep -qE '"error": ?"' <<<"$noise" && echo "node $id: ~/noise has an error at the end: $noise" >&2
    awk -v id="$id" -v idle="${idle[$id]}" -v warm="$warm" '$1 == id {
        n++; t[n] = $2; r[n] = $3; if ($3 > max) max = $3
        if ($2 >= warm) { m++; sx += $2; sy += $3; sxx += $2 * $2; sxy += $2 * $3; if (!at5) at5 = $3 }
    } END {
        slope = m > 1 ? (m * sxy - sx * sy) / (m * sxx - sx * sx) * 3600 : 0
        printf "%s: RSS idle %d kB; playing: at %d s %d kB (+%.1f MB over idle), at the end (%d s) %d kB (+%.1f MB), largest %d kB; from then on: %+d kB at the end, slope %+.0f kB/h over %d samples\n",
            id, idle, warm, at5, (at5 - idle) / 1024, t[n], r[n], (r[n] - idle) / 1024, max, r[n] - at5, slope, m
    }' "$work/samples"
done
