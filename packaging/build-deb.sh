#!/usr/bin/env bash
# Builds noiseclock_<version>_<arch>.deb from a built node (`make deb`).
#   packaging/build-deb.sh BIN OUTDIR [VERSION]
# BIN: the node built with `swift build -c release --static-swift-stdlib` (checked: no libswift*,
# Foundation or Dispatch left to load); VERSION: the file VERSION unless given (the package test
# builds a second, higher one). CONFFILE_NOTE=text appends a comment line to the shipped
# configuration (the package test's "new release changed the conffile" case).
# Lays the binary, Resources/, the installed configuration, the manual page and the docs out
# beside a copy of packaging/debian/ with a changelog made from CHANGELOG.md, then
# `dpkg-buildpackage -b` (debhelper: dh_shlibdeps computes Depends, dh_installsystemd and
# dh_installsysusers write the maintainer scripts' service and user parts).
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 BIN OUTDIR [VERSION]" >&2
    exit 64
fi
bin=$1
outdir=$2
root=$(cd "$(dirname "$0")/.." && pwd)
version=${3:-$(tr -d ' \n' <"$root/VERSION")}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([+~][a-z0-9.]+)?$ ]] || { echo "build-deb: bad version '$version'" >&2; exit 2; }
[ -x "$bin" ] || { echo "build-deb: $bin is not an executable (make deb builds it)" >&2; exit 1; }

# The Swift runtime must be inside the binary: where the package goes there is no toolchain.
if ldd "$bin" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime' >&2; then
    echo "build-deb: $bin loads Swift libraries (build it with --static-swift-stdlib)" >&2
    exit 1
fi

arch=$(dpkg --print-architecture)
work=$root/.build-deb-package
src=$work/noiseclock-$version
rm -rf "$work"
mkdir -p "$src/share" "$outdir"

cp -r "$root/packaging/debian" "$src/debian"
cp "$root/config/noiseclock.service" "$src/debian/noiseclock.service"
maintainer=$(sed -n 's/^Maintainer: //p' "$src/debian/control")
epoch=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
"$root/packaging/changelog.py" "$version" "$root/CHANGELOG.md" "$epoch" "$maintainer" >"$src/debian/changelog"

install -m 0755 "$bin" "$src/noiseclock"
cp "$root/Resources/sounds.json" "$src/share/"
cp -r "$root/Resources/web" "$src/share/web"
"$root/packaging/installed-config.sh" "$root/config/noiseclock.yaml" >"$src/noiseclock.yaml"
if [ -n "${CONFFILE_NOTE:-}" ]; then
    printf '\n# %s\n' "$CONFFILE_NOTE" >>"$src/noiseclock.yaml"
fi
sed "s/@VERSION@/$version/" "$root/packaging/noiseclock.1" >"$src/noiseclock.1"
mkdir -p "$src/docs"
cp "$root/README.md" "$src/"
cp "$root/docs/configuration.md" "$root/docs/doctor.md" "$root/docs/install.md" "$root/docs/mqtt-api.md" "$src/docs/"

export SOURCE_DATE_EPOCH=$epoch
if ! (cd "$src" && dpkg-buildpackage -b -us -uc --no-sign) >"$work/build.log" 2>&1; then
    tail -30 "$work/build.log" >&2
    echo "build-deb: dpkg-buildpackage failed (log: $work/build.log)" >&2
    exit 1
fi
deb=noiseclock_${version}_${arch}.deb
mv "$work/$deb" "$outdir/$deb"
echo "$outdir/$deb"
