# shellcheck shell=bash
# Every node benchmark's shared start-up (sourced by run.sh, latency.sh, web.sh, web-attack.sh,
# sounds.sh, sound-cpu.sh, alarm-latency.sh and group-dismiss.sh): a work directory removed on exit
# with every process started here, a private mosquitto, node processes with the benchmarks'
# configuration, a subscriber's log to count lines in, and CPU and RSS from /proc.
# (Benchmarks/lib/nodes.py is the same for the Python benchmarks.)
#
#   bench_init NAME                  work=/tmp/noiseclock-NAME.XXXXXX; pids=() killed on exit
#   bench_on_exit COMMAND            also run COMMAND on exit (before the work directory goes)
#   bench_mosquitto [CONF_LINE...]   port= and broker= (pid) of a private mosquitto on loopback, with
#                                    extra lines for its configuration (e.g. 'set_tcp_nodelay true')
#   bench_node ID [YAML...]          starts $BIN as node ID (configuration and log in $work/ID, state in
#                                    $work/ID/state); a YAML line given replaces the default line of
#                                    the same top-level key (`audio:`, `web:`, `state_dir:`...), others
#                                    are added. Its pid: $node_pid, appended to pids and nodes; the
#                                    time of its exec: $bench_started_at. The same ID again (after
#                                    bench_stop) starts afresh
#   bench_online ID [SECONDS]        until node ID says `online` (default 15 s), else its log and exit 1;
#                                    then bench_throttle of $node_pid when BENCH_NODE_QUOTA is set
#   bench_throttle PID...            with BENCH_NODE_QUOTA=P (percent of one core): each PID alone in a
#                                    cgroup of its own capped at P % (period BENCH_NODE_PERIOD_MS, 100),
#                                    to show a bound failing with the node slowed (Benchmarks/perf.sh)
#   bench_stop PID...                SIGTERM, then wait for each to exit
#   bench_free_port                  a free loopback port (scripts/loopback_port.py's range)
#   bench_subscribe FILE TOPIC...    mosquitto_sub -F '%U %t %p' (arrival time, topic, payload) into FILE
#   bench_count FILE PATTERN         lines of FILE containing PATTERN
#   bench_wait FILE PATTERN N WHAT [SECONDS]   until N lines contain PATTERN, else exit 1 naming WHAT
#   bench_cpu_ticks PID...           utime + stime in clock ticks, summed
#   bench_rss_kb PID...              VmRSS in kB, summed
#   bench_median FILE                the median of a sorted column of numbers
#
# Defaults a node gets: timezone UTC, locale en, no Home Assistant discovery, no battery, no web
# app, and `audio: {device: null_noiseclock_bench}`, a PCM that does not exist (no sound: many
# nodes on two cores); a benchmark that plays passes 'audio: {device: "null"}'. Log level
# $BENCH_LOG_LEVEL (default warning).
command -v mosquitto_sub >/dev/null || { echo "mosquitto-clients missing (make deps)" >&2; exit 1; }
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)
export NOISECLOCK_RESOURCES="${NOISECLOCK_RESOURCES:-$PWD/Resources}"
pids=()
nodes=()
bench_exit_hooks=()
bench_mqtt=""
bench_pub_options=()
node_pid=""

bench_cleanup() {
    local pid hook
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    for hook in "${bench_exit_hooks[@]}"; do eval "$hook" || true; done
    rm -rf "$work"
}

bench_init() {
    work=$(mktemp -d "${BENCH_WORK_ROOT:-/tmp}/noiseclock-$1.XXXXXX")
    trap bench_cleanup EXIT
}

bench_on_exit() { bench_exit_hooks+=("$1"); }

bench_mosquitto() {
    local _ line
    broker=""
    for _ in 1 2 3 4 5; do
        port=$(bench_free_port)
        {
            printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port"
            for line in "$@"; do printf '%s\n' "$line"; done
        } > "$work/mosquitto.conf"
        "$MOSQUITTO" -c "$work/mosquitto.conf" > "$work/mosquitto.log" 2>&1 &
        broker=$!
        for _ in $(seq 50); do
            kill -0 "$broker" 2>/dev/null || break
            mosquitto_pub -p "$port" -t bench/ping -m x 2>/dev/null && break 2
            sleep 0.1
        done
        kill "$broker" 2>/dev/null || true
        broker=""
    done
    [ -n "$broker" ] || { echo "could not start mosquitto" >&2; exit 1; }
    pids+=("$broker")
    bench_mqtt="mqtt: {host: 127.0.0.1, port: $port}"
}

bench_node() {
    local id=$1 line key default
    shift
    local defaults=(
        "node_id: $id" "timezone: UTC" "locale: en" "state_dir: $work/$id/state" "home_assistant: {discovery: false}"
        "$bench_mqtt" "audio: {device: null_noiseclock_bench}" "battery: {path: $work/no-power-supply}" "web: {enabled: false}"
        "stream: {allow_local_addresses: true}"
    )
    if [ -d "$work/$id" ]; then
        # A restart: the last run's retained `offline` must not pass for this one's `online`.
        mosquitto_pub -p "$port" "${bench_pub_options[@]}" -r -n -t "noiseclock/$id/availability"
    fi
    mkdir -p "$work/$id"
    {
        for default in "${defaults[@]}"; do
            key=${default%%:*}
            for line in "$@"; do [ "${line%%:*}" = "$key" ] && continue 2; done
            printf '%s\n' "$default"
        done
        for line in "$@"; do printf '%s\n' "$line"; done
    } > "$work/$id/noiseclock.yaml"
    bench_started_at=$(date +%s.%N)
    NOISECLOCK_LOG_LEVEL=${BENCH_LOG_LEVEL:-warning} "$BIN" --config "$work/$id/noiseclock.yaml" > "$work/$id/log" 2>&1 &
    node_pid=$!
    pids+=("$node_pid")
    nodes+=("$node_pid")
}

bench_online() {
    local id=$1 seconds=${2:-15} said
    said=$(mosquitto_sub -p "$port" "${bench_pub_options[@]}" -t "noiseclock/$id/availability" -C 1 -W "$seconds" 2>/dev/null || true)
    [ "$said" = online ] || { echo "node $id did not come online in $seconds s (said '$said'):" >&2; cat "$work/$id/log" >&2; exit 1; }
    bench_throttle "$node_pid"
}

# The quota on the node's process alone (its threads follow it), once it is up: what is measured
# is its work, not its start. cgroup v1's cpu controller (this project's build machine), or v2.
bench_throttle() {
    [ -n "${BENCH_NODE_QUOTA:-}" ] || return 0
    local period_us=$(( ${BENCH_NODE_PERIOD_MS:-100} * 1000 )) quota_us pid group root
    quota_us=$(awk -v p="$BENCH_NODE_QUOTA" -v t="$period_us" 'BEGIN { printf "%d", p * t / 100 }')
    [ "$quota_us" -ge 1000 ] || { echo "BENCH_NODE_QUOTA=$BENCH_NODE_QUOTA: under the kernel's 1 ms per period" >&2; exit 1; }
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        root=/sys/fs/cgroup
        grep -qw cpu "$root/cgroup.subtree_control" || echo +cpu >"$root/cgroup.subtree_control"
    else
        root=/sys/fs/cgroup/cpu
    fi
    [ -w "$root" ] || { echo "cannot make a cgroup in $root (BENCH_NODE_QUOTA needs root)" >&2; exit 1; }
    if [ -z "${bench_cgroup:-}" ]; then
        bench_cgroup="$root/noiseclock-bench.$$"
        mkdir -p "$bench_cgroup"
        [ "$root" = /sys/fs/cgroup ] && echo +cpu >"$bench_cgroup/cgroup.subtree_control"
        # v1: the audio thread is SCHED_FIFO as root, which a group without real-time runtime
        # refuses (EINVAL) and which a CFS quota does not cap: each node gets its quota of both.
        [ "$root" = /sys/fs/cgroup ] || echo 900000 >"$bench_cgroup/cpu.rt_runtime_us"
        # After the processes are gone (bench_cleanup waits for them first).
        bench_on_exit 'rmdir "$bench_cgroup"/node-* "$bench_cgroup" 2>/dev/null'
    fi
    for pid in "$@"; do
        group="$bench_cgroup/node-$pid"
        mkdir -p "$group"
        if [ "$root" = /sys/fs/cgroup ]; then
            echo "$quota_us $period_us" >"$group/cpu.max"
        else
            echo "$period_us" >"$group/cpu.cfs_period_us"
            echo "$quota_us" >"$group/cpu.cfs_quota_us"
            echo "$period_us" >"$group/cpu.rt_period_us"
            echo "$quota_us" >"$group/cpu.rt_runtime_us"
        fi
        echo "$pid" >"$group/cgroup.procs"
    done
    echo "quota: node(s) $* at $BENCH_NODE_QUOTA % of one core ($quota_us us per $period_us us)" >&2
}

bench_stop() {
    local pid
    for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "$@"; do wait "$pid" 2>/dev/null || true; done
}

bench_free_port() {
    python3 -c 'import sys; sys.path.insert(0, "scripts"); from loopback_port import free_port; print(free_port())'
}

bench_subscribe() {
    local file=$1 topic arguments=()
    shift
    for topic in "$@"; do arguments+=(-t "$topic"); done
    mosquitto_sub -p "$port" "${bench_pub_options[@]}" -q 1 -F '%U %t %p' "${arguments[@]}" > "$file" &
    pids+=("$!")
}

bench_count() { grep -c -- "$2" "$1" || true; }

bench_wait() {
    local file=$1 pattern=$2 want=$3 what=$4 seconds=${5:-30} _
    for _ in $(seq 1 $((seconds * 20))); do
        [ "$(bench_count "$file" "$pattern")" -ge "$want" ] && return 0
        sleep 0.05
    done
    echo "timed out waiting for $what ($(bench_count "$file" "$pattern") of $want)" >&2
    exit 1
}

bench_cpu_ticks() {
    local t=0 p
    for p in "$@"; do t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0))); done
    echo "$t"
}

bench_rss_kb() {
    local t=0 p
    for p in "$@"; do t=$((t + $(awk '/^VmRSS/ { print $2 }' "/proc/$p/status" 2>/dev/null || echo 0))); done
    echo "$t"
}

bench_median() {
    awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$1"
}
