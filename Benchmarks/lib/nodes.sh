# shellcheck shell=bash
# The node benchmarks' shared start-up (sourced by alarm-latency.sh and group-dismiss.sh): a work
# directory removed on exit with every process started here, a private mosquitto, node processes
# with the benchmarks' configuration, a subscriber's log to count lines in, and CPU and RSS from
# /proc. (Benchmarks/lib/nodes.py is the same for the Python benchmarks.)
#
#   bench_init NAME                  work=/tmp/noiseclock-NAME.XXXXXX; pids=() killed on exit
#   bench_on_exit COMMAND            also run COMMAND on exit (before the work directory goes)
#   bench_mosquitto                  port= and broker= (pid) of a private mosquitto on loopback
#   bench_mqtt_yaml                  the `mqtt:` line for that mosquitto (or set bench_mqtt yourself)
#   bench_node ID [YAML...]          starts $BIN as node ID with $bench_mqtt (extra YAML lines after it);
#                                    its pid is appended to pids and nodes
#   bench_subscribe FILE TOPIC...    mosquitto_sub -F '%U %t %p' (arrival time, topic, payload) into FILE
#   bench_count FILE PATTERN         lines of FILE containing PATTERN
#   bench_wait FILE PATTERN N WHAT [SECONDS]   until N lines contain PATTERN, else exit 1 naming WHAT
#   bench_cpu_ticks PID...           utime + stime in clock ticks, summed
#   bench_rss_kb PID...              VmRSS in kB, summed
#   bench_median FILE                the median of a sorted column of numbers
command -v mosquitto_sub >/dev/null || { echo "mosquitto-clients missing (make deps)" >&2; exit 1; }
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)
pids=()
nodes=()
bench_exit_hooks=()
bench_mqtt=""
bench_pub_options=()

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
    local _
    broker=""
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 20000))
        printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" > "$work/mosquitto.conf"
        "$MOSQUITTO" -c "$work/mosquitto.conf" > "$work/mosquitto.log" 2>&1 &
        broker=$!
        sleep 0.3
        if kill -0 "$broker" 2>/dev/null && mosquitto_pub -p "$port" -t bench/ping -m x 2>/dev/null; then break; fi
        kill "$broker" 2>/dev/null || true
        broker=""
    done
    [ -n "$broker" ] || { echo "could not start mosquitto" >&2; exit 1; }
    pids+=("$broker")
    bench_mqtt="mqtt: {host: 127.0.0.1, port: $port}"
}

bench_node() {
    local id=$1
    shift
    mkdir -p "$work/$id"
    {
        printf 'node_id: %s\ntimezone: UTC\nlocale: en\nstate_dir: %s/state\n' "$id" "$work/$id"
        printf 'home_assistant: {discovery: false}\n%s\n' "$bench_mqtt"
        printf 'audio: {device: null_noiseclock_bench}\nbattery: {path: %s/no-power-supply}\nweb: {enabled: false}\n' "$work"
        local line
        for line in "$@"; do printf '%s\n' "$line"; done
    } > "$work/$id/noiseclock.yaml"
    NOISECLOCK_LOG_LEVEL=warning "$BIN" --config "$work/$id/noiseclock.yaml" > "$work/$id/log" 2>&1 &
    pids+=("$!")
    nodes+=("$!")
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
