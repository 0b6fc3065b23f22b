#!/usr/bin/env bash
# `noiseclock render` of white, pink and brown noise against sox synthesising the same, in
# instructions counted by `valgrind --tool=callgrind`: the same count run after run, however busy
# the machine (CPU seconds on a shared 2-core machine move by 20 % from one minute to the next).
# Each command runs twice, for SHORT and for SHORT + AUDIO seconds of 48 kHz stereo S16 audio
# (defaults 5 and 30); the difference is the cost of AUDIO seconds of sound alone, without the
# process's start (the Swift runtime, the sound library), as CPU seconds per audio hour were.
#
#   Benchmarks/render-instructions.sh path/to/release/noiseclock
#
# Prints, per colour: `render_ir COLOUR noiseclock N sox M` (instructions per AUDIO seconds).
# Fails when a count is missing or not positive.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/render-instructions.sh path/to/noiseclock}")
SHORT=${SHORT:-5}
AUDIO=${AUDIO_SECONDS:-30}
export NOISECLOCK_RESOURCES="$PWD/Resources"
work=$(mktemp -d /tmp/noiseclock-render-ir.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 (Debian 12) gives up on the DWARF 5 of Swift 6.3's debug information: a copy
# without it runs the same instructions.
strip --strip-debug -o "$work/noiseclock" "$BIN"
BIN="$work/noiseclock"

ir() {  # command...: the instructions callgrind counted in it (all its threads)
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" >/dev/null 2>"$work/valgrind.err" ||
        { echo "under callgrind, $* failed:" >&2; tail -5 "$work/valgrind.err" >&2; exit 1; }
    awk '/Collected :/ { print $NF }' "$work/valgrind.err"
}
marginal() {  # name, then a command with SECONDS in it: instructions of AUDIO seconds of it
    local name=$1 short long
    shift
    short=$(ir "${@//SECONDS/$SHORT}")
    long=$(ir "${@//SECONDS/$((SHORT + AUDIO))}")
    [ "${short:-0}" -gt 0 ] && [ "${long:-0}" -gt "$short" ] ||
        { echo "$name: measured nothing (${short:-none} then ${long:-none} instructions)" >&2; exit 1; }
    echo $((long - short))
}

for colour in white pink brown; do
    ours=$(marginal "noiseclock render $colour" "$BIN" render "$colour" --seconds SECONDS --output -)
    theirs=$(marginal "sox ${colour}noise" sox -c 2 -n -r 48000 -b 16 -t raw - synth SECONDS "${colour}noise")
    echo "render_ir $colour noiseclock $ours sox $theirs"
done
