# Sourced by packaging/package-test.sh (its functions and variables): lintian, the second package for
# the upgrade, the clean Debian 12 root, the install and its checks (user, groups, state directory,
# conffile, unit), the conffile edited as a user would, and the test's mosquitto on loopback.
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
