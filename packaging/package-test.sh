#!/usr/bin/env bash
# `make package-test`: the Debian package in a clean Debian 12 root (docs/install.md, "Tested").
#   packaging/package-test.sh DEB
# DEB: the package `make deb` built. This script builds a second one of a higher version from the
# same binary (its shipped configuration changed by a comment line) for the upgrade, then:
#   lintian (no error, no warning that is not overridden with a reason);
#   installs DEB with apt into a clean Debian 12 root (packaging/test-root.sh, cached) and checks
#   the user, its groups, the state directory, the conffile, the unit enabled, the web address
#   printed; `systemd-analyze verify` on the installed unit;
#   edits the conffile as a user would (node id, broker port, web address, a sounds folder, ALSA's
#   null device), runs the unit's ExecStart inside the root under the unit's own settings as far as
#   a chroot allows (packaging/unit-exec.py: user and groups, umask, read-only system, private /tmp,
#   hidden /home, the system-call filter; a notify socket of the test's own stands in for systemd's)
#   and checks READY=1, WATCHDOG=1, ~/availability online on a mosquitto on loopback outside the
#   root (within 10 s), ~/info's version (when the build has it), the web API answering, sound on
#   the null device, the sounds folder read, ~/time's synced known, `noiseclock doctor --json`
#   (when the build has it);
#   makes alarms, a style and a routine over MQTT, upgrades to the second package while the node
#   runs (confold: the user's edit stays, the new file is left as .dpkg-dist), restarts the node
#   and checks everything is there; rolls back to DEB the same way;
#   a real upgrade (issue 39): purges, installs the previous release's package
#   (packaging/previous-release.sh: built once from a git worktree of that commit, cached), makes
#   alarms, a station, a style, a routine and web-app settings through that node, upgrades to DEB
#   while it runs, checks every alarm, station, setting, style and routine field it had, rolls back
#   to the previous release and checks again, then installs DEB again;
#   remove (state, conffile and user kept), purge (all gone).
# Prints each check, the figures (size, Depends, times) and "package-test: N passed, N failed, N skipped";
# with CI set (CI=true bash .ci/run), a skipped check fails the stage.
set -uo pipefail

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 DEB" >&2
    exit 64
fi
# Mounts (proc, dev, sys, apt's cache) live in a mount namespace of this run: gone when it ends.
if [ -z "${NOISECLOCK_PACKAGE_TEST_NS:-}" ]; then
    NOISECLOCK_PACKAGE_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
deb=$(realpath "$1")
version=$(tr -d ' \n' <"$repo/VERSION")
upgrade_version=$version+pkgtest1
stage_started=$(date +%s.%N)
work=$(mktemp -d /tmp/noiseclock-package-test.XXXXXX)
root=$work/root
node_id=pkgtest
requests=0
skipped=0
passed=0
failed=0
pids=()

cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    for mount in proc dev sys var/cache/apt/archives; do
        mountpoint -q "$root/$mount" && umount -R "$root/$mount"
    done
    [ -n "${KEEP:-}" ] && { echo "package test: kept $work"; return; }
    # Never into a mount left behind (the host's /dev, the apt cache).
    if ! grep -q " $root/" /proc/self/mounts; then rm -rf --one-file-system "$work"; fi
}
trap cleanup EXIT

check() { # check NAME COMMAND...: one line per check, counted.
    local name=$1
    shift
    if "$@" >"$work/check.out" 2>&1; then
        passed=$((passed + 1))
        echo "  ok    $name"
    else
        failed=$((failed + 1))
        echo "  FAIL  $name"
        sed 's/^/        /' "$work/check.out" | tail -20
    fi
}
seconds_since() { awk -v from="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.2f\n", now - from }'; }
# root's PATH on Debian (sudo's secure_path too): /usr/local first.
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }
apt_in_root() {
    # DPkg::Path: apt's PATH for dpkg, with /usr/local/sbin first for the recording systemctl below.
    in_root DEBIAN_FRONTEND=noninteractive apt-get -o APT::Sandbox::User=root -o Dpkg::Use-Pty=0 \
        -o DPkg::Path=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold -y "$@"
}

echo "package test: $(basename "$deb")"
size_kb=$(( $(stat -c %s "$deb") / 1024 ))
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
echo "  size: $size_kb KiB (installed: $(dpkg-deb -f "$deb" Installed-Size) KiB)"
echo "  Depends: $depends"
echo "  Recommends: $recommends"

# --- lintian: errors and warnings fail; what is overridden is listed with its reason in the package.
started=$(date +%s.%N)
lintian_ok() {
    lintian --fail-on error,warning --display-level '>=warning' --show-overrides "$deb" | tee "$work/lintian.txt"
}
check "lintian: no error, no warning without an override" lintian_ok
echo "  lintian: $(seconds_since "$started") s; overridden: $(grep -c '^O:' "$work/lintian.txt" || true)"

# --- the second package: the same binary, a higher version, the shipped configuration changed.
mkdir -p "$work/unpacked" "$work/debs"
dpkg-deb -x "$deb" "$work/unpacked"
CONFFILE_NOTE="package test: this release changed the shipped configuration" \
    "$repo/packaging/build-deb.sh" "$work/unpacked/usr/bin/noiseclock" "$work/debs" "$upgrade_version" >/dev/null ||
    { echo "package test: could not build the upgrade package"; exit 1; }
upgrade_deb=$(ls "$work"/debs/noiseclock_"$upgrade_version"_*.deb)

# --- the clean root, from the cache (made on the first run).
started=$(date +%s.%N)
tarball=$("$repo/packaging/test-root.sh") || { echo "package test: no Debian 12 root"; exit 1; }
mkdir -p "$root"
tar -xf "$tarball" -C "$root"
cache=$(dirname "$tarball")
mount -t proc proc "$root/proc"
# The tarball has /dev's standard nodes (null, zero, urandom, ...); the host's /dev only where not.
[ -c "$root/dev/null" ] || mount --rbind /dev "$root/dev"
mount -t sysfs -o ro sysfs "$root/sys"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cp "$deb" "$upgrade_deb" "$root/tmp/"
# Maintainer scripts act on the service only where systemd runs (/run/systemd/system): that
# directory, and a systemctl first on dpkg's PATH that records what they ask of it (is-enabled
# answers from the enable links `systemctl --root=/ preset` made), to check start, restart and stop.
mkdir -p "$root/run/systemd/system" "$root/usr/local/sbin"
cat >"$root/usr/local/sbin/systemctl" <<'EOF'
#!/bin/sh
echo "$*" >>/run/systemctl-calls.log
case "$*" in
    --version*) echo "systemd 252 (252)" ;;
    *--root=*) exec /usr/bin/systemctl "$@" ;; # offline work on the unit files (deb-systemd-helper's preset)
    *is-enabled*noiseclock.service*)
        if [ -L /etc/systemd/system/multi-user.target.wants/noiseclock.service ]; then echo enabled; else echo disabled; exit 1; fi ;;
    *is-active*) exit 3 ;;
esac
exit 0
EOF
chmod 0755 "$root/usr/local/sbin/systemctl"
asked() { grep -E "(^| )$1 noiseclock.service$" "$root/run/systemctl-calls.log"; }
echo "  root: $(basename "$tarball") unpacked in $(seconds_since "$started") s"

# --- install.
started=$(date +%s.%N)
apt_in_root install "/tmp/$(basename "$deb")" >"$work/install.log" 2>&1
status=$?
echo "  install (apt, Depends from the cache or Debian): $(seconds_since "$started") s"
installed() { in_root dpkg-query -W -f='${Status} ${Version}\n' noiseclock | grep -x "install ok installed $1"; }
check "apt installs the package in the clean root" test "$status" -eq 0
check "dpkg: noiseclock $version installed" installed "$version"
check "postinst printed the web address" grep -E "^NoiseClock's web app: http://[^ ]+/\?token=[A-Za-z0-9_-]+" "$work/install.log"
check "the user noiseclock exists, with a nologin shell" \
    sh -c "chroot '$root' getent passwd noiseclock | grep -E ':/var/lib/noiseclock:/usr/sbin/nologin$'"
groups_of_user() { in_root id -nG noiseclock | tr ' ' '\n' | grep -x "$1"; }
check "the user is in the audio group" groups_of_user audio
check "the user is in the input group" groups_of_user input
check "/var/lib/noiseclock belongs to noiseclock, mode 750" \
    sh -c "chroot '$root' stat -c '%U:%G %a' /var/lib/noiseclock | grep -x 'noiseclock:noiseclock 750'"
check "/etc/noiseclock/noiseclock.yaml is a conffile" \
    sh -c "chroot '$root' dpkg-query -W -f='\${Conffiles}' noiseclock | grep -q ' /etc/noiseclock/noiseclock.yaml '"
check "the unit is enabled (multi-user.target.wants)" \
    test -L "$root/etc/systemd/system/multi-user.target.wants/noiseclock.service"
check "postinst started the service (systemctl start)" asked start
unit=$root/lib/systemd/system/noiseclock.service
check "the unit is installed" test -f "$unit"
check "the sysusers.d file is installed" test -f "$root/usr/lib/sysusers.d/noiseclock.conf"
check "the manual page is installed" test -f "$root/usr/share/man/man1/noiseclock.1.gz"
check "the sound catalog and the web pages are in /usr/share/noiseclock" \
    test -f "$root/usr/share/noiseclock/sounds.json" -a -f "$root/usr/share/noiseclock/web/index.html"
verify_unit() {
    # verify reads the unit from the root, checks ExecStart's binary there and Documentation's
    # man page with man(1), pointed at the root's pages.
    MANPATH=$root/usr/share/man SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --root="$root" noiseclock.service 2>&1 |
        tee "$work/verify.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] && ! grep -qiE 'unknown|invalid|fail|error' "$work/verify.txt"
}
check "systemd-analyze verify: the installed unit" verify_unit
exposure=$(systemd-analyze security --offline=true --root="$root" noiseclock.service 2>/dev/null | grep -o 'Overall exposure level.*')
echo "  systemd-analyze security: ${exposure:-not available}"

# --- what a user edits in the conffile: the node's name, the broker, the web address.
read -r broker_port web_port < <(cd "$repo/scripts" && python3 -c \
    'import loopback_port as l; print(l.free_port(), l.free_port())')
conffile=$root/etc/noiseclock/noiseclock.yaml
# A sounds folder outside /home (ProtectHome hides /home), as its owner would make it; ALSA's null
# device (no sound card in the root).
mkdir -p "$root/srv/noiseclock-sounds"
python3 - "$root/srv/noiseclock-sounds/Package tone.wav" <<'EOF'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(48000)
    out.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / 48000))) for i in range(48000)))
EOF
chmod 0644 "$root/srv/noiseclock-sounds/Package tone.wav"
edit_conffile() {
    sed -i -e "s/^node_id: .*/node_id: $node_id   # edited by the package test/" \
        -e "s/^  port: 1883$/  port: $broker_port/" -e "s/^  host: 0.0.0.0$/  host: 127.0.0.1/" \
        -e "s/^  port: 8080$/  port: $web_port/" -e 's|^  sounds_dir: null|  sounds_dir: /srv/noiseclock-sounds|' \
        -e 's/^  device: default$/  device: "null"/' "$conffile"
}
edit_conffile
edited() { grep -q "^node_id: $node_id   # edited" "$conffile" && grep -q "^  port: $broker_port$" "$conffile" &&
    grep -q "^  port: $web_port$" "$conffile" && grep -q '^  sounds_dir: /srv/noiseclock-sounds' "$conffile" &&
    grep -q '^  device: "null"$' "$conffile"; }
check "the conffile edited (node id, broker $broker_port, web $web_port, sounds_dir, audio.device)" edited

printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$broker_port" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
pids+=($!)
topic=noiseclock/$node_id
sub() { mosquitto_sub -h 127.0.0.1 -p "$broker_port" "$@"; }
broker_up() { for _ in $(seq 100); do sub -t x -C 1 -W 1 -E 2>/dev/null && return 0; sleep 0.05; done; return 1; }
broker_up || { echo "package test: mosquitto did not start on $broker_port"; cat "$work/mosquitto.log"; exit 1; }

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

# --- state made over MQTT: an alarm, a style, a routine.
mqtt_command() { # mqtt_command TOPIC PAYLOAD [MATCH]: publishes, waits for its ok response
    # The response is the one echoing the request_id put into PAYLOAD, or the one containing MATCH.
    requests=$((requests + 1))
    local request=package-test-$$-$requests line
    local payload=${2/\{/\{\"request_id\":\"$request\",}
    local match=${3:-\"request_id\":\"$request\"}
    # A retained marker on a topic subscribed with the response topic: when it arrives, both
    # subscriptions are in place, so the response cannot be missed.
    mosquitto_pub -h 127.0.0.1 -p "$broker_port" -q 1 -r -t "package-test/$request" -m subscribed
    coproc RESPONSES { exec mosquitto_sub -h 127.0.0.1 -p "$broker_port" -q 1 -v -t "package-test/$request" \
        -t "$topic/response" -W 10 2>/dev/null; }
    local responses=$RESPONSES_PID
    while IFS= read -r -u "${RESPONSES[0]}" line; do
        if [[ $line == "package-test/$request subscribed" ]]; then
            mosquitto_pub -h 127.0.0.1 -p "$broker_port" -q 1 -r -t "package-test/$request" -n
            mosquitto_pub -h 127.0.0.1 -p "$broker_port" -q 1 -t "$topic/$1" -m "$payload"
            continue
        fi
        [[ $line == *"$match"* ]] || continue
        kill "$responses" 2>/dev/null; wait "$responses" 2>/dev/null
        printf '%s\n' "$line"
        [[ $line == *'"ok":true'* ]]
        return
    done
    return 1
}
check "alarm/add over MQTT" mqtt_command alarm/add \
    '{"time": "6:45 AM", "label": "Package test", "repeat": "weekdays", "sound": "chime", "volume": 70}'
check "style/set over MQTT" mqtt_command style/set '{"use_24_hour": false, "digit_color": "#f80"}'
check "routine/add over MQTT" mqtt_command routine/add \
    '{"id": "bedtime", "start": "22:30", "end": "06:45", "sound": "brown", "volume": 35}'
# eSpeak NG came with the package's Recommends; the node opens it with dlopen on this first utterance,
# under the filter and MemoryDenyWriteExecute, and reads its voice data through the read-only system.
# (say's response does not echo request_id, a node bug reported with this change: matched by its text.)
said="Package test $$"
check "say over MQTT (eSpeak NG from Recommends, opened on first use)" mqtt_command say "{\"text\": \"$said\"}" \
    "\"text\":\"$said\""
snapshot() { # snapshot NAME: the retained alarms, style and routines, as compared across the upgrade
    {
        sub -t "$topic/alarms" -C 1 -W 5
        sub -t "$topic/style" -C 1 -W 5
        sub -t "$topic/routines" -C 1 -W 5
    } | python3 -c '
import json, sys
alarms, style, routines = (json.loads(line) for line in sys.stdin)
print(json.dumps({
    "alarms": sorted((a["id"], a["label"], a["time"], a["repeat"]) for a in alarms),
    "style": style,
    "routines": sorted((r["id"], r["start"], r["end"], r["sound"]) for r in routines),
}, sort_keys=True))' >"$work/$1.json"
}
snapshot_has_state() {
    snapshot before && grep -q '"Package test"' "$work/before.json" && grep -q '"bedtime"' "$work/before.json" &&
        grep -q '"use_24_hour": false' "$work/before.json"
}
check "~/alarms, ~/style, ~/routines carry what was made" snapshot_has_state
ls "$root/var/lib/noiseclock" >"$work/state-files.txt"
echo "  state files: $(tr '\n' ' ' <"$work/state-files.txt")"

# --- upgrade while the node runs, then the restart systemd would do.
: >"$root/run/systemctl-calls.log"
started=$(date +%s.%N)
apt_in_root install "/tmp/$(basename "$upgrade_deb")" >"$work/upgrade.log" 2>&1
status=$?
echo "  upgrade: $(seconds_since "$started") s"
check "apt upgrades to $upgrade_version over the running node" test "$status" -eq 0
check "dpkg: noiseclock $upgrade_version installed" installed "$upgrade_version"
check "the upgrade restarted the service (systemctl restart)" asked restart
check "the user's edit of the conffile survives the upgrade" edited
check "the new release's conffile is beside it (.dpkg-dist)" \
    grep -q "package test: this release changed" "$conffile.dpkg-dist"
check "the old node stops cleanly (SIGTERM, exit 0)" stop_node
start_node "$work/node2.log"
online=$(wait_online)
check "the upgraded node online within 10 s (${online:-no} s)" test -n "$online"
same_state() { snapshot after && diff "$work/before.json" "$work/after.json"; }
check "alarms, style and routines survive the upgrade" same_state
stop_node

# --- roll back as docs/install.md says (apt install --allow-downgrades ./older.deb).
apt_in_root install --allow-downgrades "/tmp/$(basename "$deb")" >"$work/rollback.log" 2>&1
check "apt rolls back to $version" installed "$version"
check "the user's edit of the conffile survives the rollback" edited
start_node "$work/node3.log"
online=$(wait_online)
check "the rolled-back node online within 10 s (${online:-no} s)" test -n "$online"
check "alarms, style and routines survive the rollback" same_state
stop_node

# --- a real upgrade (issue 39): from the previous release's package (packaging/package-test-previous.sh).
# shellcheck source=packaging/package-test-previous.sh
. "$repo/packaging/package-test-previous.sh"

# --- remove keeps the state, the conffile and the user; purge removes them.
: >"$root/run/systemctl-calls.log"
apt_in_root remove noiseclock >"$work/remove.log" 2>&1
check "remove stopped the service (systemctl stop)" asked stop
check "apt remove" sh -c "! test -e '$root/usr/bin/noiseclock'"
check "remove keeps the state" test -s "$root/var/lib/noiseclock/$(head -1 "$work/state-files.txt")"
check "remove keeps the edited conffile" edited
check "remove keeps the user" in_root getent passwd noiseclock
apt_in_root purge noiseclock >"$work/purge.log" 2>&1
check "purge removes the state" test ! -e "$root/var/lib/noiseclock"
check "purge removes /etc/noiseclock" test ! -e "$root/etc/noiseclock"
check "purge removes the user and its group" \
    sh -c "! chroot '$root' getent passwd noiseclock && ! chroot '$root' getent group noiseclock"
check "dpkg forgets the package" sh -c "! chroot '$root' dpkg-query -W noiseclock 2>/dev/null"

echo "  stage: $(seconds_since "$stage_started") s"
echo "package-test: $passed passed, $failed failed, $skipped skipped"
# In CI a skipped check is a failed one: the build under test has --version, ~/info and doctor,
# so a skip there means they broke (a doctor whose --help fails is skipped, not passed).
if [ -n "${CI:-}" ] && [ "$skipped" -gt 0 ]; then
    echo "✘ package-test: $skipped checks skipped, a failure in CI (CI=$CI)"
    exit 1
fi
[ "$failed" -eq 0 ]
