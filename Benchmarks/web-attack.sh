#!/usr/bin/env bash
# The web app under attack from one address (issue 18), the node's own server beside the same
# API on libmicrohttpd (Benchmarks/mhd-server.c; skipped when libmicrohttpd-dev is missing), by
# Benchmarks/web-attack.py: probes from 127.0.0.1 during a slow-loris + half-sent requests from
# 127.0.0.2, headers dribbled a byte at a time, 16 event streams. Given the release noiseclock
# binary as $1.
#
#   Benchmarks/web-attack.sh path/to/noiseclock [SECONDS]     (default 20 s per window)
#
# Prints table rows; the raw numbers go to the last lines ("attack_node ...", "attack_mhd ...").
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: Benchmarks/web-attack.sh path/to/noiseclock [SECONDS]}
WINDOW=${2:-20}
. Benchmarks/lib/nodes.sh
bench_init web-attack
row() { printf '%-46s %-14s %-32s %s\n' "$@"; }
field() { echo "$1" | tr ' ' '\n' | awk -v k="$2" 'found { print; exit } $0 == k { found = 1 }'; }

bench_mosquitto
web_port=$(bench_free_port)
bench_node attackbench 'audio: {device: "null"}' "web: {enabled: true, host: 127.0.0.1, port: $web_port}"
bench_online attackbench
# One time event a second to every stream, as mhd-server sends.
mosquitto_pub -p "$port" -q 1 -t noiseclock/attackbench/style/set -m '{"show_seconds": true}'
sleep 3
node=$(python3 Benchmarks/web-attack.py "$web_port" "$(cat "$work/attackbench/state/web_token")" "$node_pid" "$WINDOW")
bench_stop "$node_pid"

mhd=""
if cc -O2 -o "$work/mhd-server" Benchmarks/mhd-server.c -lmicrohttpd -lpthread 2>/dev/null; then
    mhd_port=$(bench_free_port)
    "$work/mhd-server" "$mhd_port" benchtoken &
    mhd_pid=$!
    pids+=("$mhd_pid")
    sleep 1
    mhd=$(python3 Benchmarks/web-attack.py "$mhd_port" benchtoken "$mhd_pid" "$WINDOW")
fi

for name in node mhd; do
    out=${!name}
    [ -n "$out" ] || { row "web attack ($name)" "skipped" "libmicrohttpd-dev missing" "-"; continue; }
    raw=$(echo "$out" | tail -1)
    label=$([ "$name" = node ] && echo "noiseclock" || echo "libmicrohttpd")
    row "attack from 127.0.0.2, probes served ($label)" "$(field "$raw" served) %" "$(field "$raw" within_200ms) % within 200 ms" ">= 99 % within 200 ms"
    row "  probe latency p50 / p99 / max" "$(field "$raw" p50) / $(field "$raw" p99) / $(field "$raw" max) ms" "server CPU $(field "$raw" attack_cpu) s in ${WINDOW} s" "-"
    row "  headers dribbled, 4 connections, CPU" "$(field "$raw" dribble_cpu) s in ${WINDOW} s" "-" "-"
    row "  16 event streams: CPU s / RSS / PSS" "$(field "$raw" streams_cpu) s" "$(field "$raw" streams_rss) / $(field "$raw" streams_pss) MB" "idle $(field "$raw" idle_rss) / $(field "$raw" idle_pss) MB"
    echo "attack_$name ${raw#attack }"
done
