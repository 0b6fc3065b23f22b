#!/usr/bin/env bash
# Issue 19's figures for sounds streamed from disk, given a noiseclock binary as $1:
#   - idle RSS with 20 one-hour FLAC files in sounds_dir beside an empty sounds_dir,
#     RSS while one plays, CPU of streaming it in real time beside brown noise and sox;
#   - start-to-online time when their loudness is already remembered in state_dir;
#   - a 2-hour file through `noiseclock render --seconds 7300`: correlation with the file's own
#     content at 1 h 59 min (sox's rate conversion as the reference) and the largest step
#     across the loop seam against the steady sound's.
# The files are made with sox here (one per length, hard-linked: the node sees separate paths,
# measures and remembers each). PLAY_SECONDS (default 60) is each real-time window.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/sounds.sh path/to/noiseclock}")
PLAY=${PLAY_SECONDS:-60}
. Benchmarks/lib/nodes.sh
bench_init sounds

# --- Files ------------------------------------------------------------------------------------
mkdir -p "$work/empty" "$work/twenty" "$work/long"
sox -n -r 44100 -c 2 -b 16 "$work/hour.flac" synth 3600 brownnoise vol 0.5
for i in $(seq -w 1 20); do ln "$work/hour.flac" "$work/twenty/rain $i.flac"; done
sox -n -r 44100 -c 2 -b 16 "$work/long/two hours.flac" synth 7200 brownnoise vol 0.5

# --- A broker, and a node on the ALSA null device ------------------------------------------------
bench_mosquitto
root=noiseclock/bench
rss_mb() { awk '$1 == "Rss:" { printf "%.1f", $2 / 1024 }' "/proc/$node_pid/smaps_rollup"; }
# CPU time in nanoseconds where it can (Benchmarks/cpu-time.sh says how).
. Benchmarks/cpu-time.sh

# start_node SOUNDS_DIR STATE_DIR: starts it; $online is the seconds from exec to `online`.
start_node() {
    local t1
    bench_node bench "audio: {device: \"null\", sounds_dir: \"$1\"}" "state_dir: $2"
    bench_online bench 20
    t1=$(date +%s.%N)
    online=$(awk -v a="$bench_started_at" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}
stop_node() { bench_stop "$node_pid"; }
# cpu_over SECONDS: % of one core the node used.
cpu_over() {
    local c0 t0 c1 t1
    c0=$(cpu_snapshot "$node_pid"); t0=$(date +%s.%N); sleep "$1"; c1=$(cpu_snapshot "$node_pid"); t1=$(date +%s.%N)
    awk -v c="$(cpu_seconds "$c0" "$c1")" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", 100 * c / (b - a) }'
}
play() { mosquitto_pub -p "$port" -q 1 -t "$root/noise/set" -m "{\"playing\": true, \"sound\": \"$1\", \"volume\": 40}"; }

start_node "$work/empty" "$work/state-empty"; online_empty=$online
sleep 5
rss_empty=$(rss_mb)
play brown; sleep 5
cpu_brown=$(cpu_over "$PLAY")
stop_node

# First start with the twenty files: their loudness is measured in the background.
start_node "$work/twenty" "$work/state"; online_first=$online
t0=$(date +%s)
until [ "$(grep -o '"path"' "$work/state/sound-loudness.json" 2>/dev/null | wc -l)" -ge 20 ]; do sleep 1; done
measure_seconds=$(( $(date +%s) - t0 ))
rss_after_measuring=$(rss_mb)
stop_node

# Again, loudness remembered: online time, idle RSS, one file playing.
start_node "$work/twenty" "$work/state"; online_remembered=$online
sleep 5
rss_twenty=$(rss_mb)
play rain_07; sleep 5
cpu_stream=$(cpu_over "$PLAY")
rss_playing=$(rss_mb)
stop_node
sox_stream=$( /usr/bin/time -f '%U %S' sox "$work/hour.flac" -r 48000 -b 16 -t raw /dev/null rate -h 2>&1 >/dev/null | tail -1 | awk '{ printf "%.3f", 100 * ($1 + $2) / 3600 }')

# --- The 2-hour file, rendered past its end -------------------------------------------------------
"$BIN" render two_hours --sounds-dir "$work/long" --seconds 7300 --output - | python3 Benchmarks/sounds-check.py "$work/long/two hours.flac" >"$work/check.txt"

printf '%-52s %s\n' "figure" "value"
printf '%-52s %s\n' "idle RSS, empty sounds_dir" "$rss_empty MB"
printf '%-52s %s\n' "idle RSS, 20 one-hour FLACs (loudness remembered)" "$rss_twenty MB ($(awk -v a="$rss_twenty" -v b="$rss_empty" 'BEGIN { printf "%+.1f", a - b }') MB; target +3)"
printf '%-52s %s\n' "RSS playing one of them" "$rss_playing MB ($(awk -v a="$rss_playing" -v b="$rss_twenty" 'BEGIN { printf "%+.1f", a - b }') MB; target +4)"
printf '%-52s %s\n' "RSS after measuring all 20 (first start)" "$rss_after_measuring MB (took ${measure_seconds} s)"
printf '%-52s %s\n' "start to online: empty / first / remembered" "$online_empty s / $online_first s / $online_remembered s (target 2 s)"
printf '%-52s %s\n' "CPU streaming a 44.1 kHz FLAC in real time" "$cpu_stream % (target 0.5 %)"
printf '%-52s %s\n' "CPU brown noise in real time, same run" "$cpu_brown %"
printf '%-52s %s\n' "sox decoding + converting the FLAC (CPU per hour)" "$sox_stream % of one core"
cat "$work/check.txt"
