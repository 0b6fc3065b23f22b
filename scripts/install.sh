#!/usr/bin/env bash
# Installs NoiseClock as a systemd service (`make install`).
#   scripts/install.sh BIN PREFIX
# BIN: the built noiseclock binary; PREFIX: usually /usr/local.
# Installs the binary, the sound catalog and docs under PREFIX, the config in /etc/noiseclock/
# (only if absent), state in /var/lib/noiseclock owned by the system user `noiseclock` (group
# `audio` as well), and the unit in /etc/systemd/system/; enables and (re)starts it when systemd runs.
# DESTDIR=/some/root installs into that tree instead (for packaging): no user, no systemctl.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 BIN PREFIX" >&2
    exit 64
fi
bin=$1
prefix=$2
root=$(cd "$(dirname "$0")/.." && pwd)
destdir=${DESTDIR:-}
confdir=/etc/noiseclock
statedir=/var/lib/noiseclock
unitdir=/etc/systemd/system
user=noiseclock

[ -x "$bin" ] || { echo "install: $bin is not an executable; run make install" >&2; exit 1; }

sudo=""
if [ "$(id -u)" -ne 0 ] && [ -z "$destdir" ]; then
    command -v sudo >/dev/null || { echo "install: run as root (sudo is not available)" >&2; exit 1; }
    sudo=sudo
fi
run() { $sudo "$@"; }

# The system user first: the config and state directories are handed to it.
if [ -z "$destdir" ]; then
    # audio: ALSA; input: the buttons' /dev/input/event* (read and grabbed).
    for group in audio input; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    if ! getent passwd "$user" >/dev/null; then
        echo "install: creating system user $user (groups: $user, audio, input)"
        run useradd --system --user-group --groups audio,input --home-dir "$statedir" --no-create-home \
            --shell /usr/sbin/nologin --comment "NoiseClock node" "$user"
    else
        for group in audio input; do
            id -nG "$user" | tr ' ' '\n' | grep -qx "$group" || run usermod --append --groups "$group" "$user"
        done
    fi
    owner=(-o "$user" -g "$user")
    config_owner=(-o root -g "$user")
else
    owner=()
    config_owner=()
fi

run install -D -m 0755 "$bin" "$destdir$prefix/bin/noiseclock"
echo "install: $prefix/bin/noiseclock"
if [ -f "$root/Resources/sounds.json" ]; then
    run install -D -m 0644 "$root/Resources/sounds.json" "$destdir$prefix/share/noiseclock/sounds.json"
    echo "install: $prefix/share/noiseclock/sounds.json"
fi
# The web app's pages, beside the catalog (the node looks for web/ next to sounds.json).
for page in "$root"/Resources/web/*; do
    [ -f "$page" ] || continue
    run install -D -m 0644 "$page" "$destdir$prefix/share/noiseclock/web/$(basename "$page")"
done
[ -d "$root/Resources/web" ] && echo "install: $prefix/share/noiseclock/web/"
# The manual page the unit's Documentation= names.
tmp_man=$(mktemp)
sed "s/@VERSION@/$(tr -d ' \n' <"$root/VERSION")/" "$root/packaging/noiseclock.1" >"$tmp_man"
run install -D -m 0644 "$tmp_man" "$destdir$prefix/share/man/man1/noiseclock.1"
rm -f "$tmp_man"
if [ -f "$root/docs/configuration.md" ]; then
    run install -D -m 0644 "$root/docs/configuration.md" "$destdir$prefix/share/doc/noiseclock/configuration.md"
fi

run install -d -m 0750 "${config_owner[@]}" "$destdir$confdir"
if [ -e "$destdir$confdir/noiseclock.yaml" ]; then
    echo "install: keeping the existing $confdir/noiseclock.yaml"
else
    # The installed copy keeps state in /var/lib and names the node after the host (as the package's).
    tmp=$(mktemp)
    trap 'rm -f "$tmp"' EXIT
    "$root/packaging/installed-config.sh" "$root/config/noiseclock.yaml" >"$tmp"
    run install -m 0640 "${config_owner[@]}" "$tmp" "$destdir$confdir/noiseclock.yaml"
    echo "install: $confdir/noiseclock.yaml (edit it, then: systemctl restart noiseclock)"
fi

run install -d -m 0750 "${owner[@]}" "$destdir$statedir"

tmp_unit=$(mktemp)
sed -e "s#/usr/bin/noiseclock#$prefix/bin/noiseclock#" \
    -e "s#/usr/share/doc/noiseclock#$prefix/share/doc/noiseclock#" \
    "$root/config/noiseclock.service" >"$tmp_unit"
run install -D -m 0644 "$tmp_unit" "$destdir$unitdir/noiseclock.service"
rm -f "$tmp_unit"
echo "install: $unitdir/noiseclock.service"

if [ -n "$destdir" ]; then
    echo "install: installed into $destdir (no user created, systemd untouched)"
elif [ -d /run/systemd/system ]; then
    run systemctl daemon-reload
    run systemctl enable noiseclock.service
    run systemctl restart noiseclock.service
    echo "install: noiseclock is running; logs: journalctl -u noiseclock -f"
else
    echo "install: systemd is not running here; the service was not enabled."
    echo "         Start it by hand: $prefix/bin/noiseclock --config $confdir/noiseclock.yaml"
fi
