#!/usr/bin/env bash
# Writes the state files of one past commit exactly as its own encoders wrote them: that commit's
# NoiseClockCore (pure Swift, no C) compiled with HistoryDriver.swift.txt into one executable,
# fed the commands of commands-RELEASE.tsv ("seconds<TAB>topic<TAB>payload", the instant in
# seconds since the epoch), printing each feature's `persistent` document as the node's
# StateStore serialises it. About 1-4 minutes of swiftc per commit on a loaded 2-core machine.
#   Tests/Fixtures/state-history/generator/generate.sh v1.1 a4d7c3a
set -eu
release=$1 commit=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive "$commit" Sources/NoiseClockCore | tar -x -C "$work"
files='emit("alarms.json", core.alarms.persistent); emit("style.json", core.style.persistent); emit("noise.json", core.noise.persistent)'
if git -C "$repo" cat-file -e "$commit:Sources/NoiseClockCore/Routine" 2>/dev/null; then
    files="$files"'; emit("routines.json", core.routines.persistent); emit("timers.json", core.timers.persistent)'
    files="$files"'; emit("mixes.json", core.mixes.persistent)'
fi
sed "s/FEATURES/$files/" "$here/HistoryDriver.swift.txt" > "$work/driver.swift"
swiftc -swift-version 6 -parse-as-library -module-name NoiseClockCore $(find "$work/Sources" -name '*.swift') "$work/driver.swift" \
    -o "$work/driver"
out="$here/../$release-$(git -C "$repo" rev-parse --short=7 "$commit")"
mkdir -p "$out"
"$work/driver" < "$here/commands-$release.tsv" 2> "$work/responses.txt" | awk -v d="$out" '/^=== /{f=d"/"$2; next} {print > f}'
if grep -q "REFUSED\|failure(" "$work/responses.txt"; then
    echo "a command was refused:" >&2
    grep "REFUSED\|failure(" "$work/responses.txt" >&2
    exit 1
fi
echo "wrote $out"
