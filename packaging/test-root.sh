#!/usr/bin/env bash
# Prints the path of a clean Debian 12 root as a tarball, made by mmdebstrap from Debian's
# packages (the apt sources this machine uses) on the first run and kept for the next ones.
#   packaging/test-root.sh
# The root: minbase (Essential packages and apt) and systemd, as on a Debian 12 machine, not
# started; none of the node's libraries, so the package's Depends bring them. The cache
# (NOISECLOCK_TEST_ROOT_CACHE, default /var/cache/noiseclock-test-root) also keeps apt's
# downloads in archives/ (the package test binds it into the root), so a second run downloads
# nothing. A new recipe (this file's mmdebstrap line) or a week's age makes a new tarball; old ones
# are removed.
set -euo pipefail

cache=${NOISECLOCK_TEST_ROOT_CACHE:-/var/cache/noiseclock-test-root}
suite=bookworm
# Kept: apt's package lists (an install from the cache needs no apt-get update, so no network).
options=(--variant=minbase --include=systemd --components=main --aptopt='Acquire::Languages "none"' --skip=cleanup/apt/lists)
key=$(printf '%s\n' "$suite" "${options[@]}" | sha256sum | cut -c1-12)
tarball=$cache/$suite-$key.tar
mkdir -p "$cache/archives/partial"

# A week old at most: its package lists name the versions apt fetches for Depends, and Debian's
# mirrors drop a version soon after its point or security update.
if [ -s "$tarball" ] && [ -n "$(find "$tarball" -mtime +7)" ]; then
    echo "test-root: $tarball is more than a week old: making it again" >&2
    rm -f "$tarball"
fi
if [ ! -s "$tarball" ]; then
    # This machine's apt sources (deb822 or one-line), passed to mmdebstrap as files.
    sources=()
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -s "$file" ] && grep -qE '^[[:space:]]*(deb|Types:)' "$file" && sources+=("$file")
    done
    [ ${#sources[@]} -gt 0 ] || { echo "test-root: no apt sources on this machine" >&2; exit 1; }
    rm -f "$cache"/"$suite"-*.tar
    started=$(date +%s)
    echo "test-root: making the Debian 12 root (mmdebstrap ${options[*]})" >&2
    # mmdebstrap tells a tarball from a directory by the name's ending: .tar
    partial=$cache/partial-$key.tar
    if ! mmdebstrap --quiet "${options[@]}" "$suite" "$partial" "${sources[@]}" </dev/null >&2; then
        rm -f "$partial"
        echo "test-root: mmdebstrap failed" >&2
        exit 1
    fi
    mv "$partial" "$tarball"
    echo "test-root: made $tarball ($(du -m "$tarball" | cut -f1) MB) in $(( $(date +%s) - started )) s" >&2
fi
echo "$tarball"
