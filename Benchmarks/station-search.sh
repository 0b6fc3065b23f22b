#!/usr/bin/env bash
# The station search's answer time (issue 41, "Searching answers within 1 s from the stand-in, and from
# the cache the second time"): GET /api/stations/search on a node whose directory is the Radio Browser
# stand-in of the tests (Tests/Fixtures/radio-browser/directory_server.py) on loopback, timed by curl
# (request to last byte). Each round a search the node has not seen (asked of the stand-in), then the
# same search again (from the node's 10-minute cache); the medians and the worst of ROUNDS rounds. The
# baseline: the same search asked of the stand-in directly, in the same rounds. The stand-in's count of
# searches shows the second ones came from the cache. Given the noiseclock binary as $1.
#
#   Benchmarks/station-search.sh path/to/noiseclock          (ROUNDS, default 7; about 5 s)
#
# Its last line: station_search first_median_ms F first_worst_ms FW cached_median_ms C cached_worst_ms CW
#                direct_median_ms D rounds N asked A
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: Benchmarks/station-search.sh path/to/noiseclock}
ROUNDS=${ROUNDS:-7}
. Benchmarks/lib/nodes.sh
bench_init search
command -v curl >/dev/null || { echo "curl missing (make deps)" >&2; exit 1; }

directory_port=$(bench_free_port)
python3 Tests/Fixtures/radio-browser/directory_server.py "$directory_port" >"$work/directory.log" 2>&1 &
pids+=("$!")
directory="http://127.0.0.1:$directory_port"
for _ in $(seq 100); do curl -sf "$directory/control/stats" >/dev/null && break; sleep 0.05; done
curl -sf "$directory/control/stats" >/dev/null || { echo "the directory stand-in did not start" >&2; exit 1; }

bench_mosquitto
web_port=$(bench_free_port)
bench_node search "stream: {allow_local_addresses: true, directory_url: \"$directory\"}" \
    "web: {enabled: true, host: 127.0.0.1, port: $web_port}"
bench_online search
token=$(cat "$work/search/state/web_token")

# Seconds from request to the answer's last byte, in ms; fails on anything but 200.
timed() {
    local out
    out=$(curl -s -o "$work/answer" -w '%{http_code} %{time_total}' "$@")
    [ "${out%% *}" = 200 ] || { echo "search answered ${out%% *}: $(head -c 300 "$work/answer")" >&2; exit 1; }
    awk -v s="${out#* }" 'BEGIN { printf "%.1f\n", s * 1000 }'
}
asked_before=$(curl -sf "$directory/control/stats" | python3 -c 'import json, sys; print(json.load(sys.stdin)["searches"])')
# A warm-up search (the node's first connection, its resolver): not counted.
timed -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/api/stations/search?q=warm&limit=5" >/dev/null
words=(jazz night classic moving swiss kbs test gone smooth radio)
: >"$work/first"; : >"$work/cached"; : >"$work/direct"
for round in $(seq 0 $((ROUNDS - 1))); do
    q="${words[$((round % ${#words[@]}))]}$round"  # a new search every round
    url="http://127.0.0.1:$web_port/api/stations/search?q=$q&limit=20"
    timed "$directory/json/stations/search?name=$q&limit=20&hidebroken=true&order=votes&reverse=true" >>"$work/direct"
    timed -H "Authorization: Bearer $token" "$url" >>"$work/first"
    timed -H "Authorization: Bearer $token" "$url" >>"$work/cached"
done
asked=$(curl -sf "$directory/control/stats" | python3 -c 'import json, sys; print(json.load(sys.stdin)["searches"])')
# The stand-in's own count: the direct searches, the warm-up and one per round from the node.
asked=$((asked - asked_before - ROUNDS - 1))
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
worst() { sort -n "$1" | tail -1; }
echo "first (from the stand-in): $(tr '\n' ' ' <"$work/first")ms"
echo "cached (the same again):   $(tr '\n' ' ' <"$work/cached")ms"
echo "the stand-in directly:     $(tr '\n' ' ' <"$work/direct")ms"
echo "station_search first_median_ms $(median "$work/first") first_worst_ms $(worst "$work/first")" \
    "cached_median_ms $(median "$work/cached") cached_worst_ms $(worst "$work/cached")" \
    "direct_median_ms $(median "$work/direct") rounds $ROUNDS asked $asked"
