#!/usr/bin/env bash
# A newcomer's `make test` as an ordinary user with sudo (issue 39, item 6; docs/testing.md,
# "A newcomer's make test as an ordinary user"). Run as root on a Debian 12 machine:
#   scripts/newcomer-as-user.sh [USER]
# Makes USER (default ncnewcomer) with a home and passwordless sudo (/etc/sudoers.d), clones the
# commit under test into that home (from a bundle of HEAD: what the newcomer would clone), and runs
# as that user, in a login shell, what CI runs up to `make test`: `CI=true bash .ci/run` with
# CI_UNTIL=test (make lint, then make test; the Makefile installs what is missing through sudo);
# `NEWCOMER_UNTIL=all` runs every stage (the package and perf stages through sudo: Makefile, AS_ROOT).
# Prints the run's own stage lines and its exit status; the user and its clone are kept for a look
# (`userdel -r USER` and /etc/sudoers.d/90-USER take them away).
set -euo pipefail

user=${1:-ncnewcomer}
repo=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "newcomer-as-user: run as root (it makes a user)" >&2; exit 64; }
command -v sudo >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sudo >/dev/null
id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
sudoers=/etc/sudoers.d/90-$user
echo "$user ALL=(ALL) NOPASSWD:ALL" >"$sudoers.new"
chmod 0440 "$sudoers.new"
visudo -cqf "$sudoers.new"
mv "$sudoers.new" "$sudoers"
home=$(getent passwd "$user" | cut -d: -f6)
bundle=$(mktemp /tmp/noiseclock-newcomer.XXXXXX)
trap 'rm -f "$bundle"' EXIT
git -C "$repo" bundle create "$bundle" HEAD 2>/dev/null
chmod 0644 "$bundle"
# A machine whose git fetches GitHub from a local mirror (url.<dir>.insteadOf in /etc/gitconfig)
# owned by root: git refuses another user's clone of it ("dubious ownership") unless told it is safe.
# Not the project's: a newcomer fetching from GitHub needs nothing of the kind.
git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | sed -E 's/^url\.(.*)\.insteadof .*/\1/' | sort -u |
    while read -r mirror; do
        [ -d "$mirror" ] || continue
        find "$mirror" -maxdepth 3 -name '*.git' -type d | while read -r bare; do
            # grep reads the whole list (-q would stop at the first match: git's "Broken pipe").
            runuser -u "$user" -- git config --global --get-all safe.directory | grep -xF "$bare" >/dev/null ||
                runuser -u "$user" -- git config --global --add safe.directory "$bare"
        done
    done
runuser -u "$user" -- rm -rf "$home/noiseclock"
runuser -u "$user" -- git -c advice.detachedHead=false clone -q "$bundle" "$home/noiseclock"
echo "newcomer-as-user: $user (uid $(id -u "$user"), home $(stat -c %a "$home")), $(git -C "$repo" rev-parse --short HEAD) cloned into $home/noiseclock"
started=$(date +%s)
set +e
until=${NEWCOMER_UNTIL:-test}
[ "$until" = all ] && until=""
runuser -l "$user" -c "cd ~/noiseclock && CI=true CI_UNTIL=$until bash .ci/run" 2>&1 | tee "$home/newcomer.log"
status=${PIPESTATUS[0]}
set -e
echo "newcomer-as-user: CI up to ${until:-its last stage} as $user: exit $status in $(($(date +%s) - started)) s (log: $home/newcomer.log)"
exit "$status"
