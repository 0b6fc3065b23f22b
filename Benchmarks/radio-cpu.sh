#!/usr/bin/env bash
# Issue 29's radio figures (printed, not asserted): the node playing a station as its noise, in
# real time, against FFmpeg's command line decoding the same stream and resampling it to 48 kHz in
# the same run; and the node's memory idle, with stations added but never played, and playing.
# A real Icecast 2 on loopback, fed by FFmpeg with pink noise (stereo, 44.1 kHz) as 128 kb/s MP3
# and as 64 kb/s AAC-LC, and with the same noise as 64 kb/s HE-AAC made by FDK AAC
# (Tests/Fixtures/he-aac: Debian's FFmpeg has no HE-AAC encoder), looped as it is. The
# node on the ALSA null device (it paces itself). CPU over PLAY_SECONDS (default 30), ROUNDS
# times (default 3) in turn, the medians: FFmpeg's whole process and the node's whole process
# (perf's task-clock), and the node's decoder alone: its `station-player` thread (network,
# decoding, resampling; /proc's schedstat, in nanoseconds), what FFmpeg's process does. The
# node's whole process adds its mixer and output thread, which run for any sound.
#     Benchmarks/radio-cpu.sh path/to/release/noiseclock
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/radio-cpu.sh path/to/noiseclock}")
PLAY=${PLAY_SECONDS:-30}
ROUNDS=${ROUNDS:-3}
. Benchmarks/lib/nodes.sh
. Benchmarks/lib/icecast.sh
bench_init radio-cpu
bench_mosquitto
bench_icecast
bench_icecast_source /mp3 -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3
bench_icecast_source /aac -c:a aac -b:a 64k -content_type audio/aac -f adts
ffmpeg -nostdin -loglevel error -re -stream_loop -1 -i Tests/Fixtures/he-aac/he-aac-v1-pink-64k.aac -c:a copy \
    -content_type audio/aacp -f adts "icecast://source:srcpw@127.0.0.1:$ice/heaac" &
pids+=($!)
bench_node bench 'audio: {device: "null"}'
root=noiseclock/bench
bench_online bench
pss_kb() { awk '/^Pss:/ { print $2 }' "/proc/$1/smaps_rollup"; }
sleep 3
idle_pss=$(pss_kb "$node_pid")
idle_rss=$(bench_rss_kb "$node_pid")
for codec in mp3 aac heaac; do
    mosquitto_pub -p "$port" -q 1 -t "$root/station/add" -m "{\"id\": \"$codec\", \"name\": \"$codec\", \"url\": \"http://127.0.0.1:$ice/$codec\"}"
done
sleep 2
added_pss=$(pss_kb "$node_pid")
player_ns() {  # the node's station-player thread: nanoseconds on a CPU so far
    local task
    for task in /proc/"$node_pid"/task/*; do
        [ "$(cat "$task/comm" 2>/dev/null)" = station-player ] && { cut -d' ' -f1 "$task/schedstat"; return; }
    done
    echo 0
}
task_clock() {  # pid: % of one core over $PLAY seconds
    perf stat -e task-clock -x, -p "$1" -- sleep "$PLAY" 2>&1 | awk -F, -v s="$PLAY" '$3 == "task-clock" { printf "%.3f", $1 / (10 * s) }'
}
cpu_of() {  # codec: "node% player% ffmpeg%" over the same $PLAY seconds
    mosquitto_pub -p "$port" -q 1 -t "$root/noise/set" -m "{\"playing\": true, \"sound\": \"radio:$1\", \"volume\": 40}"
    ffmpeg -nostdin -loglevel error -i "http://127.0.0.1:$ice/$1" -ar 48000 -f f32le -y /dev/null &
    local listener=$!
    sleep 4
    task_clock "$node_pid" >"$work/node.cpu" &
    local node=$! before
    before=$(player_ns)
    task_clock "$listener" >"$work/ffmpeg.cpu"
    local player
    player=$(awk -v a="$before" -v b="$(player_ns)" -v s="$PLAY" 'BEGIN { printf "%.3f", (b - a) / (1e7 * s) }')
    wait "$node"
    kill "$listener"
    wait "$listener" 2>/dev/null || true
    echo "$(cat "$work/node.cpu") $player $(cat "$work/ffmpeg.cpu")"
}
: >"$work/rounds"
for round in $(seq "$ROUNDS"); do
    read -r mp3 mp3_player mp3_ffmpeg < <(cpu_of mp3)
    playing_rss=$(bench_rss_kb "$node_pid")
    read -r aac aac_player aac_ffmpeg < <(cpu_of aac)
    read -r he he_player he_ffmpeg < <(cpu_of heaac)
    echo "$mp3 $mp3_player $mp3_ffmpeg $aac $aac_player $aac_ffmpeg $he $he_player $he_ffmpeg" >>"$work/rounds"
    echo "round $round (load $(cut -d' ' -f1 /proc/loadavg)): MP3 128k node $mp3 %, its player $mp3_player %, ffmpeg $mp3_ffmpeg %;" \
        "AAC-LC 64k node $aac %, its player $aac_player %, ffmpeg $aac_ffmpeg %;" \
        "HE-AAC 64k node $he %, its player $he_player %, ffmpeg $he_ffmpeg %"
done
awk '{ for (i = 1; i <= 9; i++) v[i, NR] = $i } END {
    split("mp3-node mp3-player mp3-ffmpeg aac-node aac-player aac-ffmpeg heaac-node heaac-player heaac-ffmpeg", name, " ")
    for (i = 1; i <= 9; i++) {
        n = 0; for (r = 1; r <= NR; r++) a[++n] = v[i, r]
        for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
        m[i] = a[int((n + 1) / 2)]
        printf "%s median %s %% of a core (range %s-%s)\n", name[i], m[i], a[1], a[n]
    }
    printf "player/ffmpeg: MP3 %.2fx, AAC-LC %.2fx, HE-AAC %.2fx; whole node/ffmpeg: MP3 %.2fx, AAC-LC %.2fx, HE-AAC %.2fx\n",
        m[2] / m[3], m[5] / m[6], m[8] / m[9], m[1] / m[3], m[4] / m[6], m[7] / m[9]
}' "$work/rounds"
echo "memory: idle PSS $idle_pss kB, with three stations added (never played) $added_pss kB ($((added_pss - idle_pss)) kB);" \
    "RSS idle $idle_rss kB, playing MP3 $playing_rss kB (+$(awk -v a="$idle_rss" -v b="$playing_rss" 'BEGIN { printf "%.1f", (b - a) / 1024 }') MB)"
