#!/usr/bin/env bash
# The package of the previous release, for the package test's upgrade (issue 39; docs/testing.md,
# "A real upgrade"). Prints the path of its .deb, building it once: a `git worktree` of
# PREVIOUS_COMMIT, built and packed by that commit's own `make deb` and packaging/build-deb.sh,
# given the version VERSION~git.COMMIT (below this release's, so the test's install of this one is
# an upgrade). Cached in CACHE (the package test's cache of the Debian root): CI builds it once.
#   packaging/previous-release.sh
# No release was ever tagged: the previous release is 7a512ff, the last commit before the last
# change to what a state file may hold (18496b0: web.enabled no longer settable from the web app,
# so settings.json written before it may carry it; 3959892 reads such a file and backup). It is
# also the commit issue 39 was read against. NOISECLOCK_PREVIOUS_COMMIT overrides it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse --short=7 "${NOISECLOCK_PREVIOUS_COMMIT:-7a512ff}^{commit}")
cache=${NOISECLOCK_PREVIOUS_CACHE:-/var/cache/noiseclock-test-root/previous}
arch=$(dpkg --print-architecture)
version=$(git -C "$repo" show "$commit:VERSION" | tr -d ' \n')~git.$commit
deb=$cache/noiseclock_${version}_$arch.deb
if [ -s "$deb" ]; then
    echo "$deb"
    exit 0
fi

mkdir -p "$cache"
source=$cache/src-$commit
# A worktree left by an interrupted build is taken away first.
git -C "$repo" worktree remove --force "$source" 2>/dev/null || rm -rf "$source"
git -C "$repo" worktree prune
git -C "$repo" worktree add --detach "$source" "$commit" >&2
trap 'git -C "$repo" worktree remove --force "$source" >/dev/null 2>&1 || true' EXIT
started=$(date +%s)
echo "previous-release: building $commit's package (once; cached in $cache)" >&2
make -C "$source" --no-print-directory deb >&2
bin=$(cd "$source" && swift build -c release --static-swift-stdlib --scratch-path .build-deb --show-bin-path)/noiseclock
"$source/packaging/build-deb.sh" "$bin" "$cache/out-$commit" "$version" >&2
mv "$cache/out-$commit/noiseclock_${version}_$arch.deb" "$deb.part"
mv "$deb.part" "$deb"
rm -rf "$cache/out-$commit"
echo "previous-release: $(basename "$deb") built in $(($(date +%s) - started)) s" >&2
echo "$deb"
