# Sourced by packaging/package-test.sh (its functions and variables): the node run as the unit starts it
# (packaging/unit-exec.py) inside the root, and what it must do there: READY=1 and WATCHDOG=1, online,
# ~/info's version, the web API, sound on the null device, the sounds folder, ~/time, doctor.
# --- the unit's command line, environment, user, groups and umask, in the root.
echo "  unit: $(grep -E '^(User|ExecStart|Environment)=' "$unit" | tr '\n' ' ')"

notify_listener() { # a datagram socket standing in for systemd's, logging "seconds message" lines
    python3 -u - "$root/run/noiseclock-notify" "$work/notify.log" <<'EOF' &
import os, socket, sys, time
path, log = sys.argv[1], sys.argv[2]
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
os.chmod(path, 0o666)
with open(log, "a") as out:
    out.write("listening\n"); out.flush()
    while True:
        data = sock.recv(4096).decode()
        out.write(f"{time.time():.3f} {data.replace(chr(10), ' ')}\n"); out.flush()
EOF
    pids+=($!)
    for _ in $(seq 100); do grep -q listening "$work/notify.log" 2>/dev/null && return 0; sleep 0.05; done
    return 1
}
mkdir -p "$root/run"
notify_listener || { echo "package test: the notify socket did not open"; exit 1; }

node_pid=
start_node() { # start_node LOG: the node as the unit starts it (packaging/unit-exec.py); sets node_pid, node_started
    python3 "$repo/packaging/unit-exec.py" "$root" "$unit" NOTIFY_SOCKET=/run/noiseclock-notify WATCHDOG_USEC=2000000 \
        >"$1" 2>&1 &
    node_pid=$!
    node_started=$(date +%s.%N)
    pids+=("$node_pid")
}
wait_for_message() { # wait_for_message TOPIC PATTERN SECONDS: prints the first payload matching
    local line waiter
    coproc WAITER { exec mosquitto_sub -h 127.0.0.1 -p "$broker_port" -t "$1" -W "$3" 2>/dev/null; }
    waiter=$WAITER_PID # bash unsets WAITER_PID when the coprocess ends
    while IFS= read -r -u "${WAITER[0]}" line; do
        if [[ $line =~ $2 ]]; then
            kill "$waiter" 2>/dev/null; wait "$waiter" 2>/dev/null
            printf '%s\n' "$line"
            return 0
        fi
    done
    wait "$waiter" 2>/dev/null
    return 1
}
wait_online() { # wait_online: the seconds from the node's start to ~/availability online
    wait_for_message "$topic/availability" '^online$' 10 >/dev/null || return 1
    seconds_since "$node_started"
}
stop_node() { kill -TERM "$node_pid" 2>/dev/null; wait "$node_pid"; }

start_node "$work/node1.log"
online=$(wait_online)
check "~/availability online within 10 s of the node's start (${online:-no} s)" test -n "$online"
notified() { for _ in $(seq 100); do grep -q "$1" "$work/notify.log" && return 0; sleep 0.05; done; return 1; }
check "READY=1 on the notify socket (Type=notify)" notified 'READY=1'
check "WATCHDOG=1 on the notify socket (WatchdogSec)" notified 'WATCHDOG=1'

if in_root /usr/bin/noiseclock --version >"$work/version.txt" 2>&1; then
    check "noiseclock --version says $version" grep -qE "(^| )${version//./\\.}$" "$work/version.txt"
    info_version() { wait_for_message "$topic/info" "\"version\": ?\"${version//./\\.}\"" 5; }
    check "~/info carries version $version" info_version
else
    echo "  skip  noiseclock --version and ~/info (not in this build)"
    skipped=$((skipped + 2))
fi

web_url=$(in_root runuser -u noiseclock -- /usr/bin/noiseclock web-url --config /etc/noiseclock/noiseclock.yaml 2>&1)
token=${web_url##*token=}
web_answers() {
    curl -sS -o "$work/state.json" -w '%{http_code}\n' -H "Authorization: Bearer $token" \
        "http://127.0.0.1:$web_port/api/state" | grep -x 200 && python3 -m json.tool "$work/state.json" >/dev/null
}
check "the web port answers (GET /api/state with the token: 200, JSON)" web_answers
state_says() { python3 -c "import json, sys; state = json.load(open('$work/state.json')); print($1); sys.exit(0 if ($2) else 1)"; }
# Under the unit's sandbox (unit-exec.py: ProtectSystem, SystemCallFilter, RestrictAddressFamilies ...):
check "sound: ~/audio ok on ALSA's null device" state_says "state['audio']" "state['audio']['status'] == 'ok'"
check "the sounds folder: its file is a custom sound" state_says "[s for l in state['sounds'].values() for s in l if s['category'] == 'custom']" \
    "any(s['name'] == 'Package tone' for l in state['sounds'].values() for s in l if s['category'] == 'custom')"
check "the clock's synchronisation is known (adjtimex allowed)" state_says "state['time']" "state['time']['synced'] is not None"
page_answers() { curl -sS -o /dev/null -w '%{http_code}\n' "$web_url" | grep -E '^(200|30[23])$'; }
check "web-url's address opens the web app ($web_url)" page_answers

# `noiseclock doctor --help` exits 0 in a build without doctor too (it is taken as `run doctor
# --help`): the probe is the help's usage line.
if in_root /usr/bin/noiseclock doctor --help 2>/dev/null | grep -q 'noiseclock doctor'; then
    doctor() {
        started=$(date +%s.%N)
        in_root runuser -u noiseclock -- /usr/bin/noiseclock doctor --json --config /etc/noiseclock/noiseclock.yaml \
            >"$work/doctor.json" 2>"$work/doctor.err"
        local status=$?
        echo "doctor: exit $status in $(seconds_since "$started") s" | tee "$work/doctor.status"
        cat "$work/doctor.json"
        # No /dev/snd in the root and maybe no clock sync here: 1 can be the honest answer; anything
        # else is a crash or a usage error. What the test set up must be ok: the configuration, the
        # sound device (ALSA null), the broker, the sounds folder, the web port (held by the node).
        [ "$status" -le 1 ] && python3 -c '
import json, sys
checks = {check["id"]: check["status"] for check in json.load(open(sys.argv[1]))["checks"]}
print(checks)
sys.exit(0 if all(checks.get(id) == "ok" for id in ("configuration", "sound_device", "broker", "sounds", "web_port")) else 1)' \
            "$work/doctor.json"
    }
    check "noiseclock doctor --json: configuration, sound device, broker, sounds, web port ok" doctor
    echo "  $(cat "$work/doctor.status" 2>/dev/null)"
else
    echo "  skip  noiseclock doctor (not in this build)"
    skipped=$((skipped + 1))
fi
