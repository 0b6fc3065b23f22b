#!/usr/bin/env bash
# `make bench`: every figure of issue 7 in ONE table, each beside a baseline measured in the same
# run on the same machine. Given the release noiseclock binary as $1.
#
#   IDLE_SECONDS   idle window (default 600, the issue's 10 minutes; e.g. 60 for a quick run)
#   PLAY_SECONDS   brown-noise window (default 60)
#   SAMPLES        latency samples per row (default 2000)
#   HA_SAMPLES     samples of the Home Assistant-style latency rows (Benchmarks/latency.sh, 300)
#   RATE_COMMANDS  commands in the sustained-rate run (default 20000)
#   WEB_SECONDS    each window of the web app's footprint rows (Benchmarks/web.sh, default 120)
#   ATTACK_SECONDS each window of the web attack rows (Benchmarks/web-attack.sh, default 20)
#
# Raw numbers also go to Benchmarks/RESULTS-latest.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: Benchmarks/run.sh path/to/release/noiseclock}
IDLE=${IDLE_SECONDS:-600}
PLAY=${PLAY_SECONDS:-60}
SAMPLES=${SAMPLES:-2000}
RATE_N=${RATE_COMMANDS:-20000}
. Benchmarks/lib/nodes.sh
bench_init bench

cc -O2 -o "$work/mqtt-probe" Benchmarks/mqtt-probe.c -lmosquitto
probe() { "$work/mqtt-probe" "$port" "$@"; }

# A broker of our own on a free loopback port.
# set_tcp_nodelay: mosquitto's default leaves Nagle on, which holds any reply that is not sent
# in the same instant as the broker's PUBACK for ~40 ms (measured: node p50 44 ms, echo 0.1 ms).
bench_mosquitto 'set_tcp_nodelay true'
broker_pid=$broker

# A recording to stream (issue 19): 10 minutes of brown noise as a 44.1 kHz FLAC, so playing it
# costs decoding, rate conversion and the read-ahead thread.
mkdir -p "$work/sounds"
sox -n -r 44100 -c 2 -b 16 "$work/sounds/stream.flac" synth 600 brownnoise vol 0.5

# The node: no battery, the ALSA null device (never blocks: the engine paces itself).
bench_node bench "audio: {device: \"null\", sounds_dir: \"$work/sounds\"}"
root=noiseclock/bench
bench_online bench
mosquitto_pub -p "$port" -q 1 -t "$root/alarm/add" -m '{"id": "bench", "time": "07:00", "repeat": "daily"}'
sleep 1

results=Benchmarks/RESULTS-latest.txt
: >"$results"
row() { printf '%-46s %-14s %-32s %s\n' "$@"; }
ms() { awk -v us="$1" 'BEGIN { printf "%.3f ms", us / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }'; }
meets() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "met" : "NOT met") }'; }

# --- Latency ---------------------------------------------------------------------------------
read -r floor50 floor99 _ < <(probe echo bench/echo "$SAMPLES")
"$work/mqtt-probe" "$port" relay bench/relay/in bench/relay/out &
relay_pid=$!
pids+=("$relay_pid")
sleep 0.5
read -r relay50 relay99 _ < <(probe command bench/relay/in bench/relay/out "$SAMPLES" x)
bench_stop "$relay_pid"
read -r same50 same99 _ < <(probe command "$root/noise/volume/set" "$root/response" "$SAMPLES" 40)
read -r vol50 vol99 _ < <(probe command "$root/noise/volume/set" "$root/response" "$SAMPLES" 41 42)
read -r upd50 upd99 _ < <(probe command "$root/alarm/update" "$root/response" "$SAMPLES" \
    '{"id": "bench", "label": "A"}' '{"id": "bench", "label": "B"}')
echo "latency_us floor $floor50 $floor99 relay $relay50 $relay99 volume_same $same50 $same99 volume_change $vol50 $vol99 alarm_update $upd50 $upd99" >>"$results"

# --- Sustained rate (paced by responses: at most 50 unanswered) ----------------------------------
read -r echo_rate _ _ < <(probe rate bench/echo bench/echo "$RATE_N" 50 x)
read -r node_rate rate_sent rate_answered < <(probe rate "$root/noise/volume/set" "$root/response" "$RATE_N" 50 40)
echo "rate echo $echo_rate node $node_rate sent $rate_sent answered $rate_answered" >>"$results"

# --- Idle, then brown noise: CPU % of one core and RSS, node beside the broker -----------------
# CPU time in nanoseconds where it can (Benchmarks/cpu-time.sh says how).
. Benchmarks/cpu-time.sh
rss_mb() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
# Rss and Pss (MB) from smaps_rollup: Pss divides each shared page by the processes mapping it,
# so it depends on what else runs; with no other Swift process it approaches Rss.
smaps_mb() { awk -v f="$2" '$1 == f ":" { printf "%.1f", $2 / 1024 }' "/proc/$1/smaps_rollup"; }
# usage: measure SECONDS -> "node_cpu% node_rss broker_cpu% broker_rss"
measure() {
    local n0 b0 t0 n1 b1 t1
    n0=$(cpu_snapshot "$node_pid"); b0=$(cpu_snapshot "$broker_pid"); t0=$(date +%s.%N)
    sleep "$1"
    n1=$(cpu_snapshot "$node_pid"); b1=$(cpu_snapshot "$broker_pid"); t1=$(date +%s.%N)
    awk -v n="$(cpu_seconds "$n0" "$n1")" -v b="$(cpu_seconds "$b0" "$b1")" -v w="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        -v nr="$(rss_mb "$node_pid")" -v br="$(rss_mb "$broker_pid")" \
        'BEGIN { printf "%.3f %s %.3f %s\n", 100 * n / w, nr, 100 * b / w, br }'
}
sleep 5
read -r idle_cpu idle_rss broker_idle_cpu broker_rss < <(measure "$IDLE")
idle_smaps_rss=$(smaps_mb "$node_pid" Rss)
idle_pss=$(smaps_mb "$node_pid" Pss)
idle_pss_anon=$(smaps_mb "$node_pid" Pss_Anon)
echo "idle ${IDLE}s node_cpu% $idle_cpu node_rss_mb $idle_rss broker_cpu% $broker_idle_cpu broker_rss_mb $broker_rss" >>"$results"
echo "idle smaps_rollup node_rss_mb $idle_smaps_rss node_pss_mb $idle_pss node_pss_anon_mb $idle_pss_anon" >>"$results"

mosquitto_pub -p "$port" -q 1 -t "$root/noise/set" -m '{"playing": true, "sound": "brown", "volume": 40}'
sleep 5
read -r play_cpu play_rss _ _ < <(measure "$PLAY")
echo "brown ${PLAY}s node_cpu% $play_cpu node_rss_mb $play_rss" >>"$results"
# 3-layer mixes in real time against their loudest layer alone: the same engine, volume and
# window; a mix should cost at most twice the CPU. The layers' own DSP differs by 4x (brown is
# the cheapest, fan the dearest), so two mixes: rain over brown and pink (loudest: rain), and
# the worst case, brown loudest under the two dearest sounds, rain and fan.
play_sound() {  # sound or mix id; prints the CPU % and RSS of $PLAY seconds of it
    mosquitto_pub -p "$port" -q 1 -t "$root/noise/set" -m "{\"playing\": true, \"sound\": \"$1\", \"volume\": 40}"
    sleep 5
    read -r cpu rss _ _ < <(measure "$PLAY")
    echo "$cpu $rss"
}
mosquitto_pub -p "$port" -q 1 -t "$root/mix/set" -m '{"id": "bench_mix", "layers": [{"sound": "rain", "volume": 100}, {"sound": "brown", "volume": 70}, {"sound": "pink", "volume": 50}]}'
mosquitto_pub -p "$port" -q 1 -t "$root/mix/set" -m '{"id": "bench_worst", "layers": [{"sound": "brown", "volume": 100}, {"sound": "rain", "volume": 70}, {"sound": "fan", "volume": 50}]}'
read -r rain_cpu _ < <(play_sound rain)
read -r mix_cpu mix_rss < <(play_sound bench_mix)
read -r worst_cpu _ < <(play_sound bench_worst)
read -r stream_cpu stream_rss < <(play_sound stream)
# sox decoding and converting the same file (CPU seconds for its 600 s, as % of real time).
sox_stream=$(/usr/bin/time -f '%U %S' sox "$work/sounds/stream.flac" -r 48000 -b 16 -t raw /dev/null rate -h 2>&1 >/dev/null | tail -1 | awk '{ printf "%.3f", 100 * ($1 + $2) / 600 }')
echo "stream ${PLAY}s flac_cpu% $stream_cpu rss_mb $stream_rss sox_decode_cpu% $sox_stream" >>"$results"
echo "mix3 ${PLAY}s rain_alone_cpu% $rain_cpu rain_brown_pink_cpu% $mix_cpu rss_mb $mix_rss brown_rain_fan_cpu% $worst_cpu" >>"$results"
mosquitto_pub -p "$port" -q 1 -t "$root/noise/set" -m OFF

# --- Offline render against sox (CPU s per audio hour) -----------------------------------------
render=$(RENDER_ONLY=1 Benchmarks/render-vs-sox.sh "$BIN")
echo "$render" >>"$results"
render_row() { echo "$render" | awk -v c="$1" '$1 == c { print $2, $3, $4 }'; }

# --- Latency as Home Assistant sees it: two clients, stock and nodelay broker (own brokers) ------
ha=$(Benchmarks/latency.sh "$BIN" "${HA_SAMPLES:-300}")
echo "$ha" | grep '^latency_ha' >>"$results"

# --- The web app: memory beside the same node without it, CPU with 5 browsers (own broker) -------
web=$(Benchmarks/web.sh "$BIN" "${WEB_SECONDS:-120}")
echo "$web" | grep '^web ' >>"$results"

# --- The web app under attack from one address, beside libmicrohttpd (own broker) ---------------
attack=$(Benchmarks/web-attack.sh "$BIN" "${ATTACK_SECONDS:-20}")
echo "$attack" | grep '^attack_' >>"$results"

# --- Alarm fire delay (another script measures it when present) ---------------------------------
alarm_script=$(ls Benchmarks/alarm-latency* 2>/dev/null | head -1 || true)

# --- Alarm group dismiss across two nodes (own broker) -------------------------------------------
group=$(Benchmarks/group-dismiss.sh "$BIN" 20 | tail -1)
echo "$group" >>"$results"

# --- The table ---------------------------------------------------------------------------------
echo
echo "NoiseClock benchmarks — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
row "figure" "noiseclock" "baseline (same run)" "target / verdict"
row "------" "----------" "-------------------" "----------------"
echo "$ha" | grep -v '^latency_ha'
echo "$web" | grep -v '^web '
echo "$attack" | grep -v '^attack_'
row "latency p50, noise/volume/set (no change)" "$(ms "$same50")" "$(ms "$floor50") libmosquitto echo" "<= 2x floor: $(ratio "$same50" "$floor50") $(meets "$same50" "$((2 * floor50))")"
row "latency p50, same path, C relay client" "$(ms "$relay50")" "$(ms "$floor50") libmosquitto echo" "$(ratio "$relay50" "$floor50") (4 hops, no work)"
row "latency p99, noise/volume/set (no change)" "$(ms "$same99")" "$(ms "$floor99") libmosquitto echo" "-"
row "latency p50, noise/volume/set (persists)" "$(ms "$vol50")" "$(ms "$floor50") libmosquitto echo" "$(ratio "$vol50" "$floor50") (fsync of noise.json)"
row "latency p99, noise/volume/set (persists)" "$(ms "$vol99")" "$(ms "$floor99") libmosquitto echo" "-"
row "latency p50, alarm/update (persists)" "$(ms "$upd50")" "$(ms "$floor50") libmosquitto echo" "$(ratio "$upd50" "$floor50") (fsync of alarms.json)"
row "latency p99, alarm/update (persists)" "$(ms "$upd99")" "$(ms "$floor99") libmosquitto echo" "-"
row "sustained rate, no loss (window 50)" "$node_rate cmd/s" "$echo_rate msg/s broker echo" "answered $rate_answered of $rate_sent"
row "idle CPU over ${IDLE}s" "${idle_cpu}%" "${broker_idle_cpu}% mosquitto" "<= 0.1%: $(meets "$idle_cpu" 0.1)"
row "idle RSS (smaps_rollup)" "$idle_smaps_rss MB" "$broker_rss MB mosquitto" "<= 22 MB: $(meets "$idle_smaps_rss" 22)"
row "idle PSS (smaps_rollup)" "$idle_pss MB" "$idle_pss_anon MB of it anonymous" "<= 20 MB: $(meets "$idle_pss" 20)"
read -r brown_ours brown_sox _ < <(render_row brown)
sox_realtime=$(awk -v s="$brown_sox" 'BEGIN { printf "%.3f", 100 * s / 3600 }')
row "brown noise in real time, CPU (${PLAY}s)" "${play_cpu}%" "${sox_realtime}% sox synthesis" "<= 0.15%: $(meets "$play_cpu" 0.15)"
row "brown noise in real time, RSS" "$play_rss MB" "-" "-"
mix_ratio=$(awk -v a="$mix_cpu" -v b="$rain_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
worst_ratio=$(awk -v a="$worst_cpu" -v b="$play_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
row "mix rain+brown+pink in real time, CPU" "${mix_cpu}%" "${rain_cpu}% rain alone" "<= 2x: ${mix_ratio}x $(meets "$mix_ratio" 2)"
row "mix brown+rain+fan (worst case), CPU" "${worst_cpu}%" "${play_cpu}% brown alone" "<= 1.5x: ${worst_ratio}x $(meets "$worst_ratio" 1.5)"
row "streaming a 44.1 kHz FLAC in real time, CPU" "${stream_cpu}%" "${sox_stream}% sox decode+rate" "<= 0.5%: $(meets "$stream_cpu" 0.5)"
row "streaming a 44.1 kHz FLAC, RSS" "$stream_rss MB" "$play_rss MB brown" "-"
for colour in white pink brown; do
    read -r ours theirs r < <(render_row "$colour")
    row "render $colour, CPU s per audio hour" "$ours s" "$theirs s sox" "<= 0.5x sox: ${r}x $(meets "$r" 0.5)"
done
group_p50=$(echo "$group" | sed -n 's/.*p50 \([0-9.]*\) ms.*/\1/p')
group_worst=$(echo "$group" | sed -n 's/.*worst \([0-9.]*\) ms.*/\1/p')
row "group dismiss, other node follows p50 / worst (20 rings)" "$group_p50 / $group_worst ms" "-" "<= 1000 ms: $(meets "${group_worst:-9999}" 1000)"
if [ -n "$alarm_script" ]; then
    # Its last line: "alarm fire delay: median X ms, worst Y ms (N fires)".
    fire=$("$alarm_script" "$(realpath "$BIN")" 20 | tail -1)
    echo "$fire" >>"$results"
    median=$(echo "$fire" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
    worst=$(echo "$fire" | sed -n 's/.*worst \([0-9.]*\) ms.*/\1/p')
    row "alarm fire delay median / worst (20 fires)" "$median / $worst ms" "-" "worst <= 50 ms: $(meets "${worst:-999}" 50)"
    # Many rooms: 200 nodes on one mosquitto, all firing at the same minute, with CPU and RSS.
    many=$("$alarm_script" "$(realpath "$BIN")" 200 | tail -3)
    echo "$many" >>"$results"
    fire=$(echo "$many" | tail -1)
    median=$(echo "$fire" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
    worst=$(echo "$fire" | sed -n 's/.*worst \([0-9.]*\) ms.*/\1/p')
    row "alarm fire delay median / worst (200 nodes)" "$median / $worst ms" "$(echo "$many" | sed -n 2p | cut -c1-60)" "worst <= 100 ms: $(meets "${worst:-999}" 100)"
    # Many rooms over a clustered broker: 50 nodes spread over a three-node RabbitMQ cluster
    # (its start-up time, the CPU and RSS of the nodes and of the three broker nodes).
    if [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then
        rabbit=$("$alarm_script" "$(realpath "$BIN")" 50 rabbitmq | tail -5)
        echo "$rabbit" >>"$results"
        fire=$(echo "$rabbit" | tail -1)
        median=$(echo "$fire" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
        worst=$(echo "$fire" | sed -n 's/.*worst \([0-9.]*\) ms.*/\1/p')
        row "alarm fire delay median / worst (50 nodes, RabbitMQ x3)" "$median / $worst ms" "$(echo "$rabbit" | head -1)" "-"
        echo "$rabbit" | sed -n 2,4p
    else
        row "alarm fire delay (50 nodes, RabbitMQ x3)" "-" "rabbitmq-server missing (make deps)" "-"
    fi
else
    row "alarm fire delay median / worst (20 fires)" "TODO" "-" "worst <= 50 ms: needs Benchmarks/alarm-latency*"
fi
# Buttons (issue 20): a press-only button's key-down, and a default button's release, to the
# ringing alarm's `snoozed` event.
buttons=$(python3 Benchmarks/button-latency.py "$(realpath "$BIN")" 20 | tail -2)
echo "$buttons" >>"$results"
quick_worst=$(echo "$buttons" | sed -n '1s/.*worst \([0-9.]*\) ms.*/\1/p')
top_worst=$(echo "$buttons" | sed -n '2s/.*worst \([0-9.]*\) ms.*/\1/p')
row "button to snooze, press-only, from key-down (worst of 20)" "$quick_worst ms" "-" "<= 100 ms: $(meets "${quick_worst:-999}" 100)"
row "button to snooze, default, from release (worst of 20)" "$top_worst ms" "350 ms double_seconds" "<= 450 ms: $(meets "${top_worst:-999}" 450)"
# Speech (issue 20): button press to the first audible speech sample; idle RSS before any speech;
# a speak_time alarm's voice after alarm/test.
speech=$(python3 Benchmarks/speech-latency.py "$(realpath "$BIN")" 10 | tail -4)
echo "$speech" >>"$results"
first=$(echo "$speech" | sed -n '1s/.*first: \([0-9.]*\) ms.*/\1/p')
later=$(echo "$speech" | sed -n '2s/.*worst \([0-9.]*\) ms.*/\1/p')
row "speech, button to first audible sample, first" "$first ms" "-" "<= 300 ms: $(meets "${first:-999}" 300)"
row "speech, button to first audible sample, later (worst)" "$later ms" "-" "<= 150 ms: $(meets "${later:-999}" 150)"
ring=$(echo "$speech" | sed -n '4s/.*worst \([0-9.]*\) ms.*/\1/p')
row "speak_time, alarm/test to first audible speech (worst of 5)" "$ring ms" "-" "-"
