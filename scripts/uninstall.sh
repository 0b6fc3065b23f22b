#!/usr/bin/env bash
# Removes what scripts/install.sh installed (`make uninstall`).
#   scripts/uninstall.sh PREFIX
# Keeps /etc/noiseclock, /var/lib/noiseclock and the noiseclock user unless PURGE=1.
# DESTDIR=/some/root removes from that tree instead.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 PREFIX" >&2
    exit 64
fi
prefix=$1
destdir=${DESTDIR:-}
purge=${PURGE:-0}
confdir=/etc/noiseclock
statedir=/var/lib/noiseclock
unit=/etc/systemd/system/noiseclock.service
user=noiseclock

sudo=""
if [ "$(id -u)" -ne 0 ] && [ -z "$destdir" ]; then
    command -v sudo >/dev/null || { echo "uninstall: run as root (sudo is not available)" >&2; exit 1; }
    sudo=sudo
fi
run() { $sudo "$@"; }

if [ -z "$destdir" ] && [ -d /run/systemd/system ] && [ -e "$unit" ]; then
    run systemctl disable --now noiseclock.service || true
fi
run rm -f "$destdir$unit"
if [ -z "$destdir" ] && [ -d /run/systemd/system ]; then
    run systemctl daemon-reload
    run systemctl reset-failed noiseclock.service 2>/dev/null || true
fi

run rm -f "$destdir$prefix/bin/noiseclock"
run rm -rf "$destdir$prefix/share/noiseclock" "$destdir$prefix/share/doc/noiseclock"
run rm -f "$destdir$prefix/share/man/man1/noiseclock.1"
echo "uninstall: removed the binary, shared files and the unit"

if [ "$purge" = 1 ]; then
    run rm -rf "$destdir$confdir" "$destdir$statedir"
    if [ -z "$destdir" ] && getent passwd "$user" >/dev/null; then
        run userdel "$user"
        getent group "$user" >/dev/null && run groupdel "$user" || true
    fi
    echo "uninstall: purged $confdir, $statedir and the $user user"
else
    echo "uninstall: kept $confdir and $statedir (PURGE=1 removes them and the $user user)"
fi
