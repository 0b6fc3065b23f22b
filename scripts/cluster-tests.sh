#!/usr/bin/env bash
# The failover tests' own stage: starts the three-node RabbitMQ cluster once (about 20-40 s on
# 2 cores), runs the suite that needs it (a broker node stopped, then one crashed with kill -9;
# each test starts a crashed node again first if it finds one), stops it. Builds nothing
# (swift build --build-tests first).
set -u
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/noiseclock-rabbitmq.XXXXXX)
started=$(date +%s)
if ! ports=$(scripts/rabbitmq-cluster.sh start "$dir"); then
    echo "cluster tests: the RabbitMQ cluster did not start"; scripts/rabbitmq-cluster.sh stop "$dir"; exit 1
fi
echo "cluster tests: cluster up in $(( $(date +%s) - started )) s ($ports)"
# The suites and the stage's minimum: scripts/stage-suites/cluster (scripts/expect-tests.sh).
filter=$(grep -E '^[A-Za-z0-9_]+$' scripts/stage-suites/cluster | paste -sd '|')
# Bounded (CLUSTER_TEST_LIMIT, 600 s; the suite takes 20-60 s): a hang fails the stage with what
# ran so far instead of eating CI's whole time. SIGINT first: swift test stops its test process.
limit=${CLUSTER_TEST_LIMIT:-600}
NOISECLOCK_RABBITMQ_MQTT_PORTS=${ports#mqtt_ports=} NOISECLOCK_RABBITMQ_DIR=$dir \
    timeout -s INT -k 30 "$limit" ${SWIFT:-swift} test --skip-build --filter "$filter" 2>&1 | tee "$dir/tests.log"
status=${PIPESTATUS[0]}
[ "$status" -ne 124 ] || echo "cluster tests: stopped after $limit s (a hang); the log above is what ran"
scripts/expect-tests.sh cluster "$dir/tests.log" || status=1
scripts/rabbitmq-cluster.sh stop "$dir"
exit $status
