#!/usr/bin/env bash
# The web app's footprint (issue 11): the node idle without the web app, then alone again with it
# enabled and no browser, then with 5 browsers on the event stream (curl -N holding
# /api/events open, as a page does). One node at a time, so shared pages are not split between
# two processes' PSS. Given the release noiseclock binary as $1.
#
#   Benchmarks/web.sh path/to/noiseclock [SECONDS]     (default 120 s per window)
#
# Prints table rows; the raw numbers go to the last line ("web ...").
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: Benchmarks/web.sh path/to/noiseclock [SECONDS]}
WINDOW=${2:-120}
. Benchmarks/lib/nodes.sh
bench_init web
row() { printf '%-46s %-14s %-32s %s\n' "$@"; }
meets() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "met" : "NOT met") }'; }
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
smaps_mb() { awk -v f="$2" '$1 == f ":" { printf "%.1f", $2 / 1024 }' "/proc/$1/smaps_rollup"; }
# CPU % of one core over $1 seconds.
cpu_over() {
    local n0 t0 n1 t1
    n0=$(cpu_ticks "$node_pid"); t0=$(date +%s.%N)
    sleep "$1"
    n1=$(cpu_ticks "$node_pid"); t1=$(date +%s.%N)
    awk -v n="$((n1 - n0))" -v a="$t0" -v b="$t1" -v hz="$ticks" 'BEGIN { printf "%.3f", 100 * n / hz / (b - a) }'
}

bench_mosquitto
web_port=$(bench_free_port)

# usage: start_node ENABLED
start_node() {
    bench_node webbench 'audio: {device: "null"}' "web: {enabled: $1, host: 127.0.0.1, port: $web_port}"
    bench_online webbench
    sleep 5
}
stop_node() { bench_stop "$node_pid"; }

start_node false
off_cpu=$(cpu_over "$WINDOW")
off_rss=$(smaps_mb "$node_pid" Rss); off_pss=$(smaps_mb "$node_pid" Pss)
stop_node

start_node true
token=$(cat "$work/webbench/state/web_token")
curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/api/state" >/dev/null
on_cpu=$(cpu_over "$WINDOW")
on_rss=$(smaps_mb "$node_pid" Rss); on_pss=$(smaps_mb "$node_pid" Pss)
for _ in 1 2 3 4 5; do
    curl -sN -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/api/events" >/dev/null &
    pids+=("$!")
done
sleep 2
five_cpu=$(cpu_over "$WINDOW")
five_rss=$(smaps_mb "$node_pid" Rss); five_pss=$(smaps_mb "$node_pid" Pss)
# The same five with seconds shown: one `time` event a second to every stream.
mosquitto_pub -p "$port" -q 1 -t noiseclock/webbench/style/set -m '{"show_seconds": true}'
sleep 2
seconds_cpu=$(cpu_over "$WINDOW")

delta_pss=$(awk -v a="$on_pss" -v b="$off_pss" 'BEGIN { printf "%.1f", a - b }')
row "idle CPU, web app off / on, no browser (${WINDOW}s)" "${on_cpu}%" "${off_cpu}% with web off" "-"
row "idle RSS / PSS, web app on, no browser" "$on_rss / $on_pss MB" "$off_rss / $off_pss MB with web off" "PSS +<= 3 MB: +$delta_pss MB $(meets "$delta_pss" 3)"
row "idle CPU, 5 browsers on the event stream" "${five_cpu}%" "${on_cpu}% with none" "<= 0.2%: $(meets "$five_cpu" 0.2)"
row "idle CPU, 5 browsers, seconds shown" "${seconds_cpu}%" "one time event a second each" "-"
row "RSS / PSS with 5 browsers" "$five_rss / $five_pss MB" "-" "-"
echo "web window_s $WINDOW off_cpu $off_cpu off_rss $off_rss off_pss $off_pss on_cpu $on_cpu on_rss $on_rss on_pss $on_pss five_cpu $five_cpu five_rss $five_rss five_pss $five_pss seconds_cpu $seconds_cpu"
