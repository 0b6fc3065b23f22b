#!/usr/bin/env bash
# Command latency as Home Assistant sees it (issue 10): commands from one client, the new state
# and the response read by another that subscribes only to them, on a stock mosquitto and on one
# with `set_tcp_nodelay true`. Beside each: the floor, 2 × (broker echo between two clients + one
# durable small write in the state directory), measured in the same run, interleaved with the
# commands (an echo and a write before each), so a noisy disk or CPU weighs on both alike.
#
#   Benchmarks/latency.sh path/to/noiseclock [SAMPLES] [GAP_MS]
#
# GAP_MS (default 100) separates commands (and the floor's echoes and writes: an idle system wakes
# more slowly than a busy one) as a person or an automation would; with 0 on the stock
# broker every command waits ~40 ms for the node's delayed ACK (Nagle on the broker's socket).
#
# Prints one table row per broker and per figure; the raw numbers go to stdout's last lines too.
# BROKERS (default "stock nodelay") chooses the brokers. It fails when a figure is missing or 0.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: Benchmarks/latency.sh path/to/noiseclock [SAMPLES]}
SAMPLES=${2:-300}
GAP_MS=${3:-100}
. Benchmarks/lib/nodes.sh
bench_init latency
BENCH_LOG_LEVEL=${LOG_LEVEL:-info}
cc -O2 -o "$work/ha-latency" Benchmarks/ha-latency.c -lmosquitto

row() { printf '%-46s %-14s %-32s %s\n' "$@"; }
ms() { awk -v us="$1" 'BEGIN { printf "%.3f ms", us / 1000 }'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { printf "%.2fx of floor, %s", v / t, (v <= t ? "met" : "NOT met") }'; }

for kind in ${BROKERS:-stock nodelay}; do
    if [ "$kind" = nodelay ]; then bench_mosquitto 'set_tcp_nodelay true'; else bench_mosquitto; fi
    bench_node "lat$kind" 'audio: {device: "null"}'
    root=noiseclock/lat$kind
    bench_online "lat$kind"
    sleep 1
    # Each command follows, after the same idle gap, one echo between the two clients and one
    # durable write in the state directory: the floor is measured in the same moments.
    read -r state50 state99 resp50 resp99 echo50 write50 < <("$work/ha-latency" "$port" command "$root/noise/volume/set" \
        "$root/noise" "$root/response" "$SAMPLES" 41 42 "$GAP_MS" bench/echo "$work/lat$kind/state") ||
        { echo "latency ($kind broker): the probe measured nothing" >&2; exit 1; }
    for figure in "$state50" "$resp50" "$echo50" "$write50"; do
        [ "${figure:-0}" -gt 0 ] 2>/dev/null || { echo "latency ($kind broker): measured nothing ($figure)" >&2; exit 1; }
    done
    floor=$(( 2 * (echo50 + write50) ))
    row "latency p50 command -> ~/noise ($kind broker)" "$(ms "$state50")" "floor $(ms "$floor")" "<= floor: $(verdict "$state50" "$floor")"
    row "latency p50 command -> ~/response ($kind)" "$(ms "$resp50")" "floor $(ms "$floor")" "<= floor: $(verdict "$resp50" "$floor")"
    row "latency p99 command -> ~/noise / ~/response ($kind)" "$(ms "$state99") / $(ms "$resp99")" "echo $(ms "$echo50"), write $(ms "$write50")" "-"
    echo "latency_ha $kind echo_p50_us $echo50 write_p50_us $write50 state_p50_us $state50 state_p99_us $state99 response_p50_us $resp50 response_p99_us $resp99 floor_us $floor" >>"$work/raw"
    bench_stop "$node_pid" "$broker"
done
cat "$work/raw"
