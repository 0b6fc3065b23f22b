#!/usr/bin/env bash
# Runs the node for `make run`: starts a local mosquitto on 127.0.0.1:1883 when nothing listens
# there, and stops it again when the node exits.
set -euo pipefail
bin=$1
config=$2
host=127.0.0.1
port=1883
broker_pid=""
conf=""

listening() { (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; }

cleanup() {
    if [ -n "$broker_pid" ]; then
        kill "$broker_pid" 2>/dev/null || true
        wait "$broker_pid" 2>/dev/null || true
    fi
    [ -n "$conf" ] && rm -f "$conf"
    return 0
}
trap cleanup EXIT

if ! listening; then
    echo "run: no MQTT broker on $host:$port, starting mosquitto"
    conf=$(mktemp)
    printf 'listener %s %s\nallow_anonymous true\npersistence false\n' "$port" "$host" >"$conf"
    mosquitto -c "$conf" >/dev/null 2>&1 &
    broker_pid=$!
    for _ in $(seq 50); do listening && break; sleep 0.1; done
    listening || { echo "run: mosquitto did not start" >&2; exit 1; }
fi

echo "run: the web app: \`make web-url\` (in another terminal) prints its address with the access token"
"$bin" --config "$config" &
node_pid=$!
trap 'kill -TERM $node_pid 2>/dev/null' INT TERM
wait "$node_pid" || true
wait "$node_pid" 2>/dev/null || true
