#!/usr/bin/env python3
"""A hostile station server on loopback for the stream tests (issue 37: the stream's content).

    format_server.py PORT [STALL_PORT]

Serves, each as a live stream that never ends (unless said), as fast as the socket takes:
  /ogg            Ogg Vorbis, 44.1 kHz mono (tone.ogg's audio pages looped): plays
  /ogg-rate1      the same, its identification header patched to 1 Hz (page CRC fixed)
  /flac           native FLAC, 44.1 kHz mono, 4096-sample frames (made here, verbatim subframes)
  /flac-rates     frames whose headers say 8000, 44100, 22050, 655350, 11025, 96000, 1 Hz in turn
  /flac-changes   frames changing between in-bound rates every frame (8000, 44100, 22050, 96000)
  /flac-once      44.1 kHz for 3 s, then 22.05 kHz for good: one change, allowed
  /mp3            MP3, 44.1 kHz mono (tone-44100.mp3's frames looped)
  /mp3-rates      MP3 frames at 44100, 32000, 22050, 48000 Hz in turn, a new rate every frame
  /icy-flood      icy-metaint: 1, a 4080-byte block with a new StreamTitle after each MP3 byte
  /icy-titles     icy-metaint: 256, a new StreamTitle ("Title <n>") after each block, MP3 audio
  /length-short   Content-Length: 100, then MP3 until the client goes (the client reads 100)
  /length-long    Content-Length: 10000000, 2000 bytes of MP3, then the connection closes
  /stats          JSON: requests per path so far, and connections the stall port took
STALL_PORT (optional): accepts TCP connections, reads what comes (a TLS ClientHello) and never
answers: a TLS server that stalls mid-handshake.
Made for the tests only: no file outside this folder is read.
"""
import json
import signal
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from hostile_flac import BLOCK, flac_stream
from hostile_mp3 import icy_stream, mp3_stream
from hostile_ogg import ogg_stream

counts = {}
counts_lock = threading.Lock()


def count(key):
    with counts_lock:
        counts[key] = counts.get(key, 0) + 1


# --- HTTP --------------------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def head(self, content_type, extra=()):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()

    def pour(self, chunks, limit=None):
        sent = 0
        try:
            for chunk in chunks:
                if limit is not None:
                    chunk = chunk[:limit - sent]
                self.wfile.write(chunk)
                sent += len(chunk)
                if limit is not None and sent >= limit:
                    return
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/stats":
            with counts_lock:
                body = json.dumps(counts).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        count(path)
        if path == "/ogg":
            self.head("audio/ogg")
            self.pour(ogg_stream(None))
        elif path == "/ogg-rate1":
            self.head("audio/ogg")
            self.pour(ogg_stream(1))
        elif path == "/flac":
            self.head("audio/flac")
            self.pour(flac_stream([44100]))
        elif path == "/flac-rates":
            self.head("audio/flac")
            self.pour(flac_stream([8000, 44100, 22050, 655350, 11025, 96000, 1]))
        elif path == "/flac-changes":
            self.head("audio/flac")
            self.pour(flac_stream([8000, 44100, 22050, 96000]))
        elif path == "/flac-once":
            self.head("audio/flac")
            self.pour(flac_stream([44100, 22050], switch_after=3 * 44100 // BLOCK + 1))
        elif path == "/mp3":
            self.head("audio/mpeg")
            self.pour(mp3_stream(["tone-44100.mp3"]))
        elif path == "/mp3-rates":
            self.head("audio/mpeg")
            self.pour(mp3_stream(["tone-44100.mp3", "tone-32000.mp3", "tone-22050.mp3", "tone-48000.mp3"]))
        elif path == "/icy-flood":
            self.head("audio/mpeg", [("icy-metaint", "1")])
            self.pour(icy_stream(mp3_stream(["tone-44100.mp3"]), 1, "flood"))
        elif path == "/icy-titles":
            self.head("audio/mpeg", [("icy-metaint", "256")])
            self.pour(icy_stream(mp3_stream(["tone-44100.mp3"]), 256, "each"))
        elif path == "/length-short":
            self.head("audio/mpeg", [("Content-Length", "100")])
            self.pour(mp3_stream(["tone-44100.mp3"]))
        elif path == "/length-long":
            self.head("audio/mpeg", [("Content-Length", "10000000")])
            self.pour(mp3_stream(["tone-44100.mp3"]), limit=2000)
        else:
            self.send_error(404)


def stall(port):
    """Accepts, reads the ClientHello, never answers (each connection held until its client goes)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)

    def hold(connection):
        try:
            while connection.recv(4096):
                pass
        except OSError:
            pass
        connection.close()

    while True:
        connection, _ = listener.accept()
        count("stall")
        threading.Thread(target=hold, args=(connection,), daemon=True).start()


def main():
    # A test runner's process may start this with SIGTERM blocked: its stop() is SIGTERM.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    port = int(sys.argv[1])
    if len(sys.argv) > 2:
        threading.Thread(target=stall, args=(int(sys.argv[2]),), daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
