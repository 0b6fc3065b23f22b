#!/usr/bin/env bash
# How long `noiseclock doctor` takes on a healthy node (issue 28: "all-OK in under 3 s"): a broker
# of its own, the ALSA `null` device, a sounds folder with one WAV, the web port free; RUNS runs
# (default 10), wall time of each, then min / median / max. Given the noiseclock binary as $1.
#   Benchmarks/doctor.sh .build/debug/noiseclock
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: Benchmarks/doctor.sh path/to/noiseclock}
RUNS=${RUNS:-10}
export NOISECLOCK_RESOURCES="$PWD/Resources"
work=$(mktemp -d)
broker_pid=""
cleanup() {
    [ -n "$broker_pid" ] && kill "$broker_pid" 2>/dev/null && wait "$broker_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
broker_pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
mkdir -p "$work/sounds"
sox -n -r 48000 -c 1 -b 16 "$work/sounds/tone.wav" synth 1 sine 440 vol 0.3
cat >"$work/noiseclock.yaml" <<YAML
node_id: bench
timezone: UTC
state_dir: $work/state
mqtt: {host: 127.0.0.1, port: $port}
audio: {device: "null", sounds_dir: $work/sounds}
web: {enabled: true, host: 127.0.0.1, port: $(free_port)}
YAML
times=()
for _ in $(seq "$RUNS"); do
    start=$(date +%s%N)
    "$BIN" doctor --config "$work/noiseclock.yaml" >"$work/out.txt" || true
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
grep -E '^(FAILED|WARNING)' "$work/out.txt" || true
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "doctor, healthy node, $RUNS runs: min ${sorted[0]} ms, median ${sorted[$((RUNS / 2))]} ms, max ${sorted[$((RUNS - 1))]} ms"
