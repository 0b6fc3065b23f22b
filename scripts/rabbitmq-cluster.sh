#!/usr/bin/env bash
# A three-node RabbitMQ cluster on loopback with the MQTT plugin, for the failover tests:
# Debian's rabbitmq-server, each broker node with its own node name, ports and data directory
# under DIR, formed at start by classic peer discovery (one start, no join steps).
#
#   scripts/rabbitmq-cluster.sh start DIR     # prints "mqtt_ports=P1,P2,P3" once all three serve
#   scripts/rabbitmq-cluster.sh stop DIR
#   scripts/rabbitmq-cluster.sh stop-node DIR N | start-node DIR N   # the broker app of node N (1-3)
#   scripts/rabbitmq-cluster.sh crash-node DIR N   # kill -9 of node N's Erlang VM (beam.smp), as a crash would
#   scripts/rabbitmq-cluster.sh revive DIR         # starts every crashed node again; returns once all three run
set -euo pipefail
cmd=${1:?start|stop|stop-node|start-node}
dir=$(realpath -m "${2:?DIR}")
RABBIT=/usr/lib/rabbitmq/bin
[ -x "$RABBIT/rabbitmq-server" ] || { echo "rabbitmq-server missing (make deps)" >&2; exit 1; }

node_env() {  # N: the environment of broker node N
    local n=$1 base
    base=$(cat "$dir/base-port")
    export HOME="$dir"  # the shared Erlang cookie lives here
    export RABBITMQ_NODENAME="nc_rabbit$n@localhost"
    export RABBITMQ_NODE_PORT=$((base + n))
    export RABBITMQ_DIST_PORT=$((base + 100 + n))
    export RABBITMQ_MNESIA_BASE="$dir/node$n/mnesia"
    export RABBITMQ_LOG_BASE="$dir/node$n/log"
    export RABBITMQ_PID_FILE="$dir/node$n/pid"
    export RABBITMQ_CONFIG_FILE="$dir/node$n/rabbitmq"
    export RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins"
    export RABBITMQ_CONF_ENV_FILE="$dir/node$n/rabbitmq-env.conf"
    export RABBITMQ_ADVANCED_CONFIG_FILE="$dir/node$n/advanced.config"
    export ERL_EPMD_PORT=$((base + 99))
}

ctl() { local n=$1; shift; (node_env "$n"; "$RABBIT/rabbitmqctl" -n "nc_rabbit$n@localhost" "$@"); }

launch() { local n=$1; (node_env "$n"; nohup "$RABBIT/rabbitmq-server" > "$dir/node$n/stdout" 2>&1 &); }

# The Erlang VM of node N is running (its pid file names a live beam.smp).
alive() { local pid; pid=$(cat "$dir/node$1/pid" 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

# Waits until nodes "$@" have started (await_startup fails at once while a node is not yet
# registered with epmd: ask again; the one-second steps only pace the questions).
await_nodes_started() {
    local n
    for n in "$@"; do
        for _ in $(seq 1 60); do ctl "$n" await_startup --timeout 120 > /dev/null 2>&1 && break; sleep 1; done
    done
}

# Node N's MQTT listener takes a subscription: a retained message published through it comes back
# to a subscriber on it (retained messages are kept per node). Else its log's tail, and false.
serves_mqtt() {
    local n=$1 port topic
    port=$(( $(cat "$dir/base-port") + 200 + n ))
    topic="nc-cluster-probe/node$n"
    for _ in $(seq 1 10); do
        if mosquitto_pub -h 127.0.0.1 -p "$port" -V mqttv311 -q 1 -r -t "$topic" -m up 2>/dev/null &&
            [ "$(mosquitto_sub -h 127.0.0.1 -p "$port" -V mqttv311 -q 1 -t "$topic" -C 1 -W 5 2>/dev/null)" = up ]; then
            mosquitto_pub -h 127.0.0.1 -p "$port" -V mqttv311 -q 1 -r -t "$topic" -n 2>/dev/null || true
            return 0
        fi
        sleep 1
    done
    echo "broker node $n takes no MQTT subscription on port $port; its log's end:" >&2
    tail -n 30 "$dir/node$n/log/nc_rabbit$n@localhost.log" >&2 || true
    return 1
}

# Waits until nodes "$@" have started and all three are in the cluster.
await_nodes() {
    local running
    await_nodes_started "$@"
    for _ in $(seq 1 120); do
        running=$(ctl 1 cluster_status --formatter json 2>/dev/null | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["running_nodes"]))' 2>/dev/null || echo 0)
        [ "$running" = 3 ] && return 0
        sleep 0.5
    done
    echo "the cluster did not form (running nodes: $running)" >&2
    return 1
}

case "$cmd" in
start)
    mkdir -p "$dir"
    # Ports from a range no other suite picks from (they use 20000-39999 or the kernel's, which
    # overlaps it, so the ports are tried first): AMQP base+1..3, distribution base+101..103, epmd
    # base+99, MQTT base+201..203.
    for _ in $(seq 1 20); do
        base=$((40000 + (RANDOM % 50) * 400))
        python3 - "$base" <<'PY' && break
import socket, sys
base = int(sys.argv[1])
for offset in (1, 2, 3, 99, 101, 102, 103, 201, 202, 203):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", base + offset))
    except OSError:
        sys.exit(1)
    finally:
        s.close()
PY
    done
    echo "$base" > "$dir/base-port"
    head -c 20 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/.erlang.cookie"
    chmod 400 "$dir/.erlang.cookie"
    echo '[rabbitmq_mqtt].' > "$dir/enabled_plugins"
    for n in 1 2 3; do
        mkdir -p "$dir/node$n/log"
        : > "$dir/node$n/rabbitmq-env.conf"
        echo '[].' > "$dir/node$n/advanced.config"
        cat > "$dir/node$n/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$((base + n))
mqtt.listeners.tcp.default = 127.0.0.1:$((base + 200 + n))
mqtt.allow_anonymous = true
loopback_users = none
cluster_formation.peer_discovery_backend = classic_config
cluster_formation.classic_config.nodes.1 = nc_rabbit1@localhost
cluster_formation.classic_config.nodes.2 = nc_rabbit2@localhost
cluster_formation.classic_config.nodes.3 = nc_rabbit3@localhost
log.console = false
log.file.level = warning
EOF
    done
    started=$(date +%s.%N)
    # Node 1 first, the others once it runs: three started at once race to join each other (each
    # waits for the others' tables, 30 s a try) and twice, as an ordinary user's CI, the cluster
    # took 115 s and its third node then took MQTT connections but no subscription.
    launch 1
    await_nodes_started 1
    for n in 2 3; do launch "$n"; done
    await_nodes 1 2 3 || exit 1
    for n in 1 2 3; do serves_mqtt "$n" || exit 1; done
    echo "cluster started in $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s" >&2
    echo "mqtt_ports=$((base + 201)),$((base + 202)),$((base + 203))"
    ;;
stop)
    [ -f "$dir/base-port" ] || exit 0  # never started (or stopped already)
    # A crashed node (its pid file names a process that is gone) is not asked: that only times out.
    for n in 1 2 3; do
        [ -s "$dir/node$n/pid" ] && ! alive "$n" && continue
        ctl "$n" stop > /dev/null 2>&1 || true
    done
    (node_env 1; epmd -port "$ERL_EPMD_PORT" -kill > /dev/null 2>&1 || true)
    rm -rf "$dir"
    ;;
stop-node) ctl "${3:?N}" stop_app > /dev/null ;;
crash-node)
    n=${3:?N}
    alive "$n" || { echo "broker node $n is not running" >&2; exit 1; }
    pid=$(cat "$dir/node$n/pid")
    kill -9 "$pid"
    # Gone once the kernel has closed its sockets: the MQTT clients on it see their connection end.
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    ;;
revive)
    dead=()
    for n in 1 2 3; do alive "$n" || dead+=("$n"); done
    [ ${#dead[@]} = 0 ] && exit 0
    started=$(date +%s.%N)
    for n in "${dead[@]}"; do launch "$n"; done
    await_nodes "${dead[@]}" || exit 1
    echo "revived broker node(s) ${dead[*]} in $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s" >&2
    ;;
start-node) ctl "${3:?N}" start_app > /dev/null ;;
*) echo "unknown command $cmd" >&2; exit 64 ;;
esac
