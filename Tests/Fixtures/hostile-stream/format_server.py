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
import math
import os
import signal
import socket
import struct
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
counts = {}
counts_lock = threading.Lock()


def count(key):
    with counts_lock:
        counts[key] = counts.get(key, 0) + 1


# --- Ogg ---------------------------------------------------------------------------------------

def ogg_crc_table():
    table = []
    for i in range(256):
        r = i << 24
        for _ in range(8):
            r = ((r << 1) ^ 0x04C11DB7) if r & 0x80000000 else (r << 1)
        table.append(r & 0xFFFFFFFF)
    return table


OGG_CRC = ogg_crc_table()


def ogg_crc(data):
    crc = 0
    for byte in data:
        crc = ((crc << 8) & 0xFFFFFFFF) ^ OGG_CRC[((crc >> 24) & 0xFF) ^ byte]
    return crc


def ogg_pages(data):
    pages, offset = [], 0
    while offset + 27 <= len(data) and data[offset:offset + 4] == b"OggS":
        segments = data[offset + 26]
        lacing = data[offset + 27:offset + 27 + segments]
        size = 27 + segments + sum(lacing)
        pages.append(bytearray(data[offset:offset + size]))
        offset += size
    return pages


def ogg_seal(page, sequence):
    """Page sequence number `sequence`, CRC recomputed."""
    page[18:22] = struct.pack("<I", sequence)
    page[22:26] = b"\0\0\0\0"
    page[22:26] = struct.pack("<I", ogg_crc(bytes(page)))
    return bytes(page)


def ogg_stream(rate):
    pages = ogg_pages(open(os.path.join(HERE, "tone.ogg"), "rb").read())
    headers, audio = pages[:2], pages[2:-1]
    first = headers[0]
    body = 27 + first[26]
    # The identification packet: "\x01vorbis", version (4), channels (1), rate (4, little-endian).
    assert first[body:body + 7] == b"\x01vorbis"
    if rate is not None:
        first[body + 12:body + 16] = struct.pack("<I", rate)
    sequence = 0
    out = []
    for page in headers:
        out.append(ogg_seal(page, sequence))
        sequence += 1
    yield b"".join(out)
    while True:
        for page in audio:
            page[5] = 0  # no end-of-stream flag in a live loop
            yield ogg_seal(page, sequence)
            sequence += 1


# --- FLAC, made here ---------------------------------------------------------------------------

def crc8(data):
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def crc16(data):
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def utf8_number(n):
    if n < 0x80:
        return bytes([n])
    if n < 0x800:
        return bytes([0xC0 | (n >> 6), 0x80 | (n & 0x3F)])
    if n < 0x10000:
        return bytes([0xE0 | (n >> 12), 0x80 | ((n >> 6) & 0x3F), 0x80 | (n & 0x3F)])
    return bytes([0xF0 | (n >> 18), 0x80 | ((n >> 12) & 0x3F), 0x80 | ((n >> 6) & 0x3F), 0x80 | (n & 0x3F)])


BLOCK = 4096
TONE = b"".join(struct.pack(">h", int(4096 * math.sin(2 * math.pi * 440 * i / 44100))) for i in range(BLOCK))
FLAC_RATE_CODES = {88200: 1, 176400: 2, 192000: 3, 8000: 4, 16000: 5, 22050: 6, 24000: 7, 32000: 8, 44100: 9, 48000: 10, 96000: 11}


def flac_frame(number, rate, phase):
    """One frame: 4096 samples of a 440 Hz tone (amplitude 1/8, restarted each frame), mono, 16 bits, a verbatim
    subframe; its header says `rate` (a code where FLAC has one, else 16 bits of Hz or of tens of Hz)."""
    extra = b""
    if rate in FLAC_RATE_CODES:
        code = FLAC_RATE_CODES[rate]
    elif rate <= 0xFFFF:
        code, extra = 0xD, struct.pack(">H", rate)
    else:
        code, extra = 0xE, struct.pack(">H", rate // 10)
    # Block size code 7: 8 bits of (size - 1) follow (4096 - 1 does not fit: code 7 is 8 bits, so 0xC = 4096).
    header = bytes([0xFF, 0xF8, (0xC << 4) | code, (0x0 << 4) | (0x4 << 1)]) + utf8_number(number) + extra
    header += bytes([crc8(header)])
    # Subframe: pad bit 0, type VERBATIM (000001), no wasted bits: 0b00000010.
    frame = header + bytes([0x02]) + TONE
    return frame + struct.pack(">H", crc16(frame)), phase


def flac_stream(rates, switch_after=None):
    """`rates` in turn, one a frame; or (switch_after frames) the first rate, then the second for good."""
    info = struct.pack(">HH", BLOCK, BLOCK) + b"\0\0\0\0\0\0"
    # 20 bits rate 44100, 3 bits channels-1 (0), 5 bits bps-1 (15), 36 bits total samples (0).
    packed = (44100 << 44) | (0 << 41) | (15 << 36)
    info += packed.to_bytes(8, "big") + b"\0" * 16
    yield b"fLaC" + bytes([0x80]) + len(info).to_bytes(3, "big") + info
    number, phase = 0, 0.0
    while True:
        if switch_after is None:
            rate = rates[number % len(rates)]
        else:
            rate = rates[0] if number < switch_after else rates[1]
        frame, phase = flac_frame(number, rate, phase)
        yield frame
        number += 1


# --- MP3 ---------------------------------------------------------------------------------------

MP3_BITRATES = {1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
                2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]}
MP3_RATES = {3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000]}


def mp3_frames(name):
    data = open(os.path.join(HERE, name), "rb").read()
    frames, offset = [], 0
    while offset + 4 <= len(data):
        if data[offset] != 0xFF or data[offset + 1] & 0xE0 != 0xE0:
            offset += 1
            continue
        version = (data[offset + 1] >> 3) & 3
        bitrate = MP3_BITRATES[1 if version == 3 else 2][data[offset + 2] >> 4] * 1000
        rate = MP3_RATES[version][(data[offset + 2] >> 2) & 3]
        padding = (data[offset + 2] >> 1) & 1
        length = (144 if version == 3 else 72) * bitrate // rate + padding
        if length <= 4:
            offset += 1
            continue
        frames.append(data[offset:offset + length])
        offset += length
    return frames[2:-2]  # the encoder's priming and end left out


def mp3_stream(names):
    lists = [mp3_frames(name) for name in names]
    index = 0
    while True:
        source = lists[index % len(lists)]
        yield source[(index // len(lists)) % len(source)]
        index += 1


def icy_stream(audio, interval, title_every_block):
    """`audio`'s bytes with a metadata block after every `interval` of them: a new title each time."""
    pending, number = b"", 0
    for chunk in audio:
        pending += chunk
        out = bytearray()
        while len(pending) >= interval:
            out += pending[:interval]
            pending = pending[interval:]
            number += 1
            text = ("StreamTitle='Title %d';" % number).encode()
            if title_every_block == "flood":
                block = text + b"\0" * (4080 - len(text))
            else:
                block = text + b"\0" * ((16 - len(text) % 16) % 16)
            out += bytes([len(block) // 16]) + block
        if out:
            yield bytes(out)


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
