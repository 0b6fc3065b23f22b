#!/usr/bin/env bash
# Issue 29's "a 10-hour stream holds memory flat", with real time compressed by a fast source
# (printed, not asserted): `noiseclock render URL` (the node's own station player, decoders,
# levelling and ring, offline: it waits for the station instead of playing silence, so it runs
# as fast as the source and the CPU allow) renders HOURS (default 10) of a station that a server
# of the benchmark's own sends as fast as it is read: an endless Icecast-style MP3 stream (128 kb/s
# pink noise, one minute FFmpeg encoded, repeated frame for frame) with ICY metadata every 16,000
# bytes and a new title each minute of audio. The render process's RSS is read every 2 s against
# the audio hours it has written so far (/proc's wchar: 192,000 bytes an audio second).
#     Benchmarks/radio-soak.sh path/to/release/noiseclock
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: Benchmarks/radio-soak.sh path/to/noiseclock}")
HOURS=${HOURS:-10}
work=$(mktemp -d "${TMPDIR:-/tmp}/noiseclock-radio-soak.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
ffmpeg -nostdin -loglevel error -f lavfi -i "anoisesrc=color=pink:sample_rate=44100:amplitude=0.25:seed=29:duration=60" -ac 2 \
    -c:a libmp3lame -b:a 128k -write_xing 0 -id3v2_version 0 -f mp3 "$work/minute.mp3"
cat >"$work/serve.py" <<'PY'
import http.server, socketserver, sys
minute = open(sys.argv[2], 'rb').read()
METAINT = 16000
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.0'
    def log_message(self, *args): pass
    def do_GET(self):
        self.send_response(200)
        self.send_header('Content-Type', 'audio/mpeg')
        self.send_header('icy-metaint', str(METAINT))
        self.end_headers()
        position, loop, pending = 0, 0, b''
        try:
            while True:
                loop += 1
                title = ("StreamTitle='Soak - minute %d';" % loop).encode()
                block = bytes([(len(title) + 15) // 16]) + title.ljust(((len(title) + 15) // 16) * 16, b'\0')
                data, sent_title = pending + minute, False
                out = bytearray()
                while len(data) >= METAINT - position:
                    take = METAINT - position
                    out += data[:take]
                    out += block if not sent_title else b'\0'
                    sent_title = True
                    data, position = data[take:], 0
                out += data
                position += len(data)
                pending = b''
                self.wfile.write(out)
        except (BrokenPipeError, ConnectionResetError):
            pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
Server(('127.0.0.1', int(sys.argv[1])), Handler).serve_forever()
PY
port=$(python3 -c 'import sys; sys.path.insert(0, "scripts"); from loopback_port import free_port; print(free_port())')
python3 "$work/serve.py" "$port" "$work/minute.mp3" &
pids+=($!)
for _ in $(seq 50); do curl -s -m 1 -o /dev/null -r 0-0 "http://127.0.0.1:$port/" && break; sleep 0.1; done
seconds=$((HOURS * 3600))
started=$(date +%s.%N)
"$BIN" render "http://127.0.0.1:$port/soak.mp3" --seconds "$seconds" --volume 40 --output - >/dev/null 2>"$work/render.err" &
render=$!
pids+=($render)
: >"$work/samples"
while kill -0 "$render" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$render/status" 2>/dev/null || true)
    written=$(awk '/^wchar:/ { print $2 }' "/proc/$render/io" 2>/dev/null || true)
    [ -n "$rss" ] && [ -n "$written" ] && echo "$(awk -v w="$written" 'BEGIN { printf "%.4f", w / 192000 / 3600 }') $rss" >>"$work/samples"
    sleep 2
done
wait "$render" || { echo "render failed after $(tail -1 "$work/samples" | cut -d" " -f1) audio hours:" >&2; cat "$work/render.err" >&2; exit 1; }
elapsed=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
echo "rendered $HOURS audio hours of the station in $elapsed s ($(awk -v h="$HOURS" -v e="$elapsed" 'BEGIN { printf "%.0f", h * 3600 / e }')x real time)"
awk '{ hour = int($1); if (!(hour in first)) first[hour] = $2; last[hour] = $2; if ($2 > max) max = $2; n++ }
    END {
        for (h = 0; h in first; h++) printf "audio hour %d: RSS %d kB at its start, %d kB at its end\n", h, first[h], last[h]
        printf "largest RSS %d kB over %d samples\n", max, n
    }' "$work/samples"
awk '$1 >= 1 { if (!a) a = $2; b = $2 } END { printf "from audio hour 1 to the end: %+d kB\n", b - a }' "$work/samples"
