#!/usr/bin/env bash
# A crashed broker node, measured: the three-node RabbitMQ 3.10 cluster of
# scripts/rabbitmq-cluster.sh, and `RabbitFailoverTests/aCrashedBrokerNodeCostsSecondsNotItsReturn`
# run `runs` times against it (a debug node, as in make cluster-test): each run starts the crashed
# broker node again (waiting for the cluster's own status), starts a NoiseClock node on the first
# broker node, acknowledges five alarms, moves the node's clock 3 s before one of them and
# `kill -9`s that broker node's Erlang VM. Builds nothing (swift build --build-tests first).
#
#   Benchmarks/crash-failover.sh [runs]      (default 20)
#
# Output: one line per run (reconnect: the kill to `online` through a survivor; fired: the kill
# to the `fired` event of the alarm due 3 s after it; lost: acknowledged alarms missing after),
# then the medians, the worst and the failed runs.
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-20}
dir=$(mktemp -d /tmp/noiseclock-crash-bench.XXXXXX)
log=$dir.log
trap 'scripts/rabbitmq-cluster.sh stop "$dir"; rm -f "$log"' EXIT
ports=$(scripts/rabbitmq-cluster.sh start "$dir") || { echo "the RabbitMQ cluster did not start" >&2; exit 1; }
failed=0
for run in $(seq 1 "$RUNS"); do
    started=$(date +%s.%N)
    NOISECLOCK_RABBITMQ_MQTT_PORTS=${ports#mqtt_ports=} NOISECLOCK_RABBITMQ_DIR=$dir \
        ${SWIFT:-swift} test --skip-build --filter 'RabbitFailoverTests/aCrashedBrokerNode' > "$log" 2>&1
    status=$?
    took=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
    revived=$(grep -o 'revived broker node(s) [0-9 ]* in [0-9.]* s' "$log" | grep -o '[0-9.]* s$' || echo "- s")
    line=$(grep -o 'crash failover: .*' "$log" | tail -1)
    if [ "$status" != 0 ] || [ -z "$line" ]; then
        failed=$((failed + 1))
        echo "run $run: FAILED (${took} s)"; grep -E '✘|Expectation failed|Caught error' "$log" | head -5 | cut -c1-300
        continue
    fi
    reconnect=$(sed -E 's/.* ([0-9.]+) s after the crash.*/\1/' <<< "$line")
    fired=$(sed -E 's/.*fired event ([0-9.]+) s after.*/\1/' <<< "$line")
    lost=$(sed -E 's/.*lost ([0-9]+).*/\1/' <<< "$line")
    via=$(sed -E 's/.*online through :([0-9]+).*/\1/' <<< "$line")
    echo "run $run: reconnect $reconnect s, fired $fired s, lost $lost (via :$via; run ${took} s, crashed node back in $revived)"
    echo "$reconnect $fired $lost" >> "$dir.figures"
done
if [ -s "$dir.figures" ]; then
    sort -n -k1 "$dir.figures" | awk '{ r[NR] = $1 } END { printf "reconnect: median %.2f s, worst %.2f s\n", r[int((NR + 1) / 2)], r[NR] }'
    sort -n -k2 "$dir.figures" | awk '{ f[NR] = $2; lost += $3 } END { printf "fired event: median %.2f s, worst %.2f s; lost %d in %d runs\n", f[int((NR + 1) / 2)], f[NR], lost, NR }'
fi
rm -f "$dir.figures"
echo "failed runs: $failed of $RUNS"
