#!/usr/bin/env bash
# Issue 29's radio figures (asserted by Benchmarks/perf.sh, `make perf`): the node playing a station as its noise, in
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
CODECS=${CODECS:-mp3 aac heaac}
declare -A label=([mp3]="MP3 128k" [aac]="AAC-LC 64k" [heaac]="HE-AAC 64k")
for codec in $CODECS; do [ -n "${label[$codec]:-}" ] || { echo "unknown codec $codec (mp3, aac, heaac)" >&2; exit 64; }; done
. Benchmarks/lib/nodes.sh
. Benchmarks/lib/icecast.sh
bench_init radio-cpu
bench_mosquitto
bench_icecast
# Only the stations measured: an encoder left running would weigh on the others' figures.
case " $CODECS " in *" mp3 "*) bench_icecast_source /mp3 -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3 ;; esac
case " $CODECS " in *" aac "*) bench_icecast_source /aac -c:a aac -b:a 64k -content_type audio/aac -f adts ;; esac
case " $CODECS " in *" heaac "*)
    ffmpeg -nostdin -loglevel error -re -stream_loop -1 -i Tests/Fixtures/he-aac/he-aac-v1-pink-64k.aac -c:a copy \
        -content_type audio/aacp -f adts "icecast://source:srcpw@127.0.0.1:$ice/heaac" &
    pids+=($!) ;;
esac
bench_node bench 'audio: {device: "null"}'
root=noiseclock/bench
bench_online bench
# The node (every thread) and each FFmpeg on one and the same core (the last): the figure and its
# baseline then run on the same core's speed. Side by side on two cores of this VM, one core's
# moments of slowness fell on one of them only: the same binary read 1.63-2.01x of FFmpeg.
core=$(( $(nproc) - 1 ))
taskset -a -p -c "$core" "$node_pid" >/dev/null
pss_kb() { awk '/^Pss:/ { print $2 }' "/proc/$1/smaps_rollup"; }
sleep 3
idle_pss=$(pss_kb "$node_pid")
idle_rss=$(bench_rss_kb "$node_pid")
for codec in $CODECS; do
    mosquitto_pub -p "$port" -q 1 -t "$root/station/add" -m "{\"id\": \"$codec\", \"name\": \"$codec\", \"url\": \"http://127.0.0.1:$ice/$codec\"}"
done
sleep 2
added_pss=$(pss_kb "$node_pid")
player_ns() {  # the node's station-player thread: nanoseconds on a CPU so far; nothing when it is missing
    local task
    for task in /proc/"$node_pid"/task/*; do
        [ "$(cat "$task/comm" 2>/dev/null)" = station-player ] && { cut -d' ' -f1 "$task/schedstat"; return; }
    done
}
task_clock() {  # pid: % of one core over $PLAY seconds
    perf stat -e task-clock -x, -p "$1" -- sleep "$PLAY" 2>&1 | awk -F, -v s="$PLAY" '$3 == "task-clock" { printf "%.3f", $1 / (10 * s) }'
}
cpu_of() {  # codec: "node% player% ffmpeg%" over the same $PLAY seconds into $work/cpu; fails when one is missing
    mosquitto_pub -p "$port" -q 1 -t "$root/noise/set" -m "{\"playing\": true, \"sound\": \"radio:$1\", \"volume\": 40}"
    taskset -c "$core" ffmpeg -nostdin -loglevel error -i "http://127.0.0.1:$ice/$1" -ar 48000 -f f32le -y /dev/null &
    local listener=$!
    sleep 4
    task_clock "$node_pid" >"$work/node.cpu" &
    local node=$! before after
    before=$(player_ns)
    task_clock "$listener" >"$work/ffmpeg.cpu"
    after=$(player_ns)
    wait "$node"
    kill "$listener"
    wait "$listener" 2>/dev/null || true
    # A figure of nothing is a failure, not 0.00x: no player thread (it plays no station), no
    # perf reading, or a process that was not running.
    [ -n "$before" ] && [ -n "$after" ] || { echo "$1: the node has no station-player thread (not playing the station)" >&2; return 1; }
    local player
    player=$(awk -v a="$before" -v b="$after" -v s="$PLAY" 'BEGIN { printf "%.3f", (b - a) / (1e7 * s) }')
    echo "$(cat "$work/node.cpu") $player $(cat "$work/ffmpeg.cpu")" >"$work/cpu"
    awk '{ exit !(NF == 3 && $1 > 0 && $2 > 0 && $3 > 0) }' "$work/cpu" ||
        { echo "$1: measured nothing (node, player, ffmpeg % of a core: '$(cat "$work/cpu")')" >&2; return 1; }
}
: >"$work/rounds"
playing_rss=""
for round in $(seq "$ROUNDS"); do
    line="round $round (load $(cut -d' ' -f1 /proc/loadavg)):"
    for codec in $CODECS; do
        cpu_of "$codec" || exit 1
        [ -n "$playing_rss" ] || { playing_rss=$(bench_rss_kb "$node_pid"); playing_codec=$codec; }
        read -r node player ffmpeg <"$work/cpu"
        echo "$codec $node $player $ffmpeg" >>"$work/rounds"
        line+=" ${label[$codec]} node $node %, its player $player %, ffmpeg $ffmpeg %;"
    done
    echo "${line%;}"
done
# The medians per codec, one line each, then the ratios; `radio_cpu` lines for Benchmarks/perf.sh.
for codec in $CODECS; do
    awk -v c="$codec" -v l="${label[$codec]}" '$1 == c { n++; for (i = 2; i <= 4; i++) v[i, n] = $i } END {
        split("node player ffmpeg", name, " ")
        for (i = 2; i <= 4; i++) {
            for (r = 1; r <= n; r++) a[r] = v[i, r]
            for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
            m[i] = a[int((n + 1) / 2)]
            printf "%s-%s median %s %% of a core (range %s-%s)\n", c, name[i - 1], m[i], a[1], a[n]
        }
        printf "%s: player/ffmpeg %.2fx, whole node/ffmpeg %.2fx\n", l, m[3] / m[4], m[2] / m[4]
        printf "radio_cpu %s node %s player %s ffmpeg %s\n", c, m[2], m[3], m[4]
    }' "$work/rounds"
done
echo "memory: idle PSS $idle_pss kB, with the stations added (never played) $added_pss kB ($((added_pss - idle_pss)) kB);" \
    "RSS idle $idle_rss kB, playing ${label[$playing_codec]} $playing_rss kB" \
    "(+$(awk -v a="$idle_rss" -v b="$playing_rss" 'BEGIN { printf "%.1f", (b - a) / 1024 }') MB)"
echo "radio_memory idle_pss_kb $idle_pss added_pss_kb $added_pss idle_rss_kb $idle_rss playing_rss_kb $playing_rss playing $playing_codec"
