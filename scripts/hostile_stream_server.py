#!/usr/bin/env python3
"""A hostile stream server on loopback (issue 37): playlists and segments as an attacker writes
them, for the stream tests (Tests/NoiseClockAudioTests/Radio/HostileStreamTests.swift, the node's
HostileStationNodeTests) and Benchmarks/hostile-streams.sh.

usage: hostile_stream_server.py PORT LOG [MB_PER_SECOND]
The endless segments go at MB_PER_SECOND (default 20, the issue's; the tests take 4, so as not to
starve the stream stage's other tests on two cores). Every request's path is appended to LOG ("<monotonic seconds> <path>"), so a test counts them.

  /seq-overflow.m3u8   EXT-X-MEDIA-SEQUENCE 2^63-1 and two segments (the sequence overflows)
  /seq-negative.m3u8   EXT-X-MEDIA-SEQUENCE -2^63
  /td-inf.m3u8, /td-1e300.m3u8, /td-nan.m3u8   that target duration, no segments
  /tone.aac            4 s of a 440 Hz tone, ADTS (made by FFmpeg at start)
  /endless-noise.m3u8  a live playlist whose segments are the tone, then random bytes at MB_PER_SECOND, never ending
  /endless-audio.m3u8  a live playlist whose segments are the tone looped at MB_PER_SECOND, never ending
  /self.m3u            an m3u naming itself;  /self-master.m3u8  an HLS master whose variant is itself
  /chain/N.m3u         an m3u naming /chain/N+1.m3u (never ending, never repeating)
  /redirect/N          a 302 to /redirect/N+1
  /big.m3u8            a playlist body of 1.1 MiB
  /notfound.m3u8       a live playlist naming new segments at every request, each a 404
"""
import http.server
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

PORT = int(sys.argv[1])
LOG = sys.argv[2]
RATE = int(float(sys.argv[3]) if len(sys.argv) > 3 else 20) * 1024 * 1024
lock = threading.Lock()
counters = {}


def make_tone():
    handle, path = tempfile.mkstemp(suffix=".aac")
    os.close(handle)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
                    "-t", "4", "-c:a", "aac", "-b:a", "64k", "-f", "adts", path], check=True)
    with open(path, "rb") as file:
        data = file.read()
    os.unlink(path)
    return data


TONE = make_tone()


def count(name):
    with lock:
        counters[name] = counters.get(name, 0) + 1
        return counters[name]


def media(sequence, segments, duration="2", target="2"):
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{target}", f"#EXT-X-MEDIA-SEQUENCE:{sequence}"]
    for uri in segments:
        lines += [f"#EXTINF:{duration},", uri]
    return "\n".join(lines) + "\n"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def reply(self, body, content_type, status=200):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def playlist(self, body):
        self.reply(body, "application/vnd.apple.mpegurl")

    def endless(self, first, rest):
        """`first` once, then `rest()` chunks, paced at RATE, until the client goes."""
        self.send_response(200)
        self.send_header("Content-Type", "audio/aac")
        self.end_headers()
        start = time.monotonic()
        sent = 0
        try:
            self.wfile.write(first)
            sent += len(first)
            while True:
                chunk = rest()
                self.wfile.write(chunk)
                sent += len(chunk)
                ahead = sent / RATE - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        path = self.path
        with lock, open(LOG, "a") as log:
            log.write(f"{time.monotonic():.3f} {path}\n")
        base = f"http://127.0.0.1:{PORT}"
        live = int(time.monotonic() / 2)
        if path == "/seq-overflow.m3u8":
            self.playlist(media(9223372036854775807, ["tone.aac", "tone.aac"]))
        elif path == "/seq-negative.m3u8":
            self.playlist(media(-9223372036854775808, ["tone.aac", "tone.aac"]))
        elif path.startswith("/td-"):
            self.playlist(f"#EXTM3U\n#EXT-X-TARGETDURATION:{path[4:].split('.m3u8')[0]}\n#EXT-X-MEDIA-SEQUENCE:0\n")
        elif path == "/tone.aac":
            self.reply(TONE, "audio/aac")
        elif path == "/endless-noise.m3u8":
            self.playlist(media(live, [f"endless-noise.aac?{live + n}" for n in range(3)]))
        elif path.startswith("/endless-noise.aac"):
            noise = random.Random(37)
            self.endless(TONE, lambda: noise.randbytes(65536))
        elif path == "/endless-audio.m3u8":
            self.playlist(media(live, [f"endless-audio.aac?{live + n}" for n in range(3)]))
        elif path.startswith("/endless-audio.aac"):
            self.endless(TONE, lambda: TONE)
        elif path == "/self.m3u":
            self.reply(f"{base}/self.m3u\n", "audio/x-mpegurl")
        elif path == "/self-master.m3u8":
            self.playlist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\nself-master.m3u8\n")
        elif path.startswith("/chain/"):
            number = int(path[7:].split(".")[0])
            self.reply(f"{base}/chain/{number + 1}.m3u\n", "audio/x-mpegurl")
        elif path.startswith("/redirect/"):
            self.send_response(302)
            self.send_header("Location", f"/redirect/{int(path[10:]) + 1}")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/big.m3u8":
            padding = "#" + "x" * 1023 + "\n"
            self.playlist("#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + padding * 1100 + "#EXTINF:2,\ntone.aac\n")
        elif path == "/notfound.m3u8":
            sequence = count("notfound")
            self.playlist(media(sequence, [f"missing/{sequence + n}.aac" for n in range(3)]))
        else:
            self.reply("not found", "text/plain", 404)


http.server.ThreadingHTTPServer.daemon_threads = True
http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
