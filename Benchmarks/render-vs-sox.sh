#!/usr/bin/env bash
# CPU seconds per hour of 48 kHz stereo S16 audio: `noiseclock render` against sox, side by
# side in one run, printed as ratios (target: <= 0.5 for every colour). Then CPU and RSS of the
# audio engine playing noise in real time into an ALSA file PCM for PLAY_SECONDS (default 60).
#
# Usage: Benchmarks/render-vs-sox.sh [path/to/release/noiseclock]
# (default: swift build -c release, then its noiseclock). SECONDS_OF_AUDIO=3600 by default;
# RENDER_ONLY=1 skips the real-time part.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-}
if [ -z "$BIN" ]; then
    swift build -c release --product noiseclock >/dev/null
    BIN="$(swift build -c release --show-bin-path)/noiseclock"
fi
AUDIO=${SECONDS_OF_AUDIO:-3600}
PLAY=${PLAY_SECONDS:-60}
export NOISECLOCK_RESOURCES="$PWD/Resources"

# user+system CPU seconds of a command, its output discarded.
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk 'NF == 2 {printf "%.2f", $1 + $2}'; }

printf '%-6s %14s %14s %8s   (CPU s per %s s of audio)\n' colour noiseclock sox ratio "$AUDIO"
for colour in white pink brown; do
    ours=$(cpu "$BIN" render "$colour" --seconds "$AUDIO" --output -)
    theirs=$(cpu sox -c 2 -n -r 48000 -b 16 -t raw /dev/null synth "$AUDIO" "${colour}noise")
    # A render that did nothing (or a time that read nothing) is a failure, not a ratio of 0.
    awk -v a="$ours" -v b="$theirs" 'BEGIN { exit !(a > 0 && b > 0) }' ||
        { echo "render $colour: measured nothing (noiseclock '$ours' s, sox '$theirs' s)" >&2; exit 1; }
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
    printf '%-6s %14s %14s %8s\n' "$colour" "$ours" "$theirs" "$ratio"
done

[ -n "${RENDER_ONLY:-}" ] && exit 0   # Benchmarks/run.sh measures real time on the node itself

# Real time: the engine into a file PCM (which never blocks, so this also checks the pacing).
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/asoundrc" <<CONF
pcm.bench { type file slave.pcm null file "$dir/out.raw" format raw }
CONF
export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$dir/asoundrc"
for colour in brown pink; do
    read -r user sys rss wall < <(/usr/bin/time -f '%U %S %M %e' "$BIN" play "$colour" --device bench --seconds "$PLAY" 2>&1 >/dev/null | tail -1)
    bytes=$(stat -c %s "$dir/out.raw")
    awk -v c="$colour" -v u="$user" -v s="$sys" -v r="$rss" -v w="$wall" -v b="$bytes" -v p="$PLAY" 'BEGIN {
        printf "real time %-5s: %.2f CPU s over %.1f s wall (%.2f%% of one core), max RSS %.1f MB, audio written %.2f s (%.3fx real time)\n",
            c, u + s, w, 100 * (u + s) / w, r / 1024, b / 192000, (b / 192000) / p }'
    rm -f "$dir/out.raw"
done
