#!/usr/bin/env bash
# Writes the radio targets' seed corpora (Fuzz/corpus/<target>): hand-written heads and
# playlists, the HLS test fixtures' playlists, and short samples FFmpeg encodes here (0.2 s of a
# 440 Hz tone at low rates, a few KB each) plus the first 4 KB of the HE-AAC fixtures
# (Tests/Fixtures/he-aac). Run once by hand when a format is added: the output is committed (about
# 55 KB), so `make fuzz` needs no FFmpeg. Each player seed starts with the target's control bytes
# (Fuzz/README: type, ICY interval, split).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tone() { ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:duration=${2:-0.2}:sample_rate=${3:-8000}" -ac 1 "${@:4}" "$work/$1"; }
tone tone.mp3 0.2 8000 -c:a libmp3lame -b:a 8k
tone tone-stereo.mp3 0.1 22050 -ac 2 -c:a libmp3lame -b:a 32k
tone tone.aac 0.2 8000 -c:a aac -b:a 8k -f adts
tone tone.ogg 0.2 8000 -c:a libvorbis -q:a 0
tone tone.opus 0.2 8000 -c:a libopus -b:a 6k -f ogg
tone tone-flac.ogg 0.05 8000 -c:a flac -f ogg
tone tone.flac 0.05 8000 -c:a flac -f flac
tone tone-aac.ts 0.2 8000 -c:a aac -b:a 8k -f mpegts -mpegts_flags +resend_headers
tone tone-mp3.ts 0.1 8000 -c:a libmp3lame -b:a 8k -f mpegts
exec python3 - "$work" <<'PY'
import os, sys, pathlib
work = pathlib.Path(sys.argv[1])
corpus = pathlib.Path("corpus")
def seeds(target, items):
    folder = corpus / target
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in items.items():
        (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())
def sample(name, limit=8192): return (work / name).read_bytes()[:limit]
def without_padding(flac):
    """A native FLAC file without its PADDING blocks (FFmpeg writes 8 KB of them)."""
    out, at, blocks = bytearray(flac[:4]), 4, []
    while True:
        kind, size = flac[at] & 0x7F, int.from_bytes(flac[at + 1:at + 4], "big")
        if kind != 1: blocks.append(bytearray(flac[at:at + 4 + size]))
        last, at = flac[at] & 0x80, at + 4 + size
        if last: break
    for block in blocks: block[0] &= 0x7F
    blocks[-1][0] |= 0x80
    return bytes(out + b"".join(blocks) + flac[at:])
def interleave(audio, interval, title):
    """`audio` as an Icecast body with a metadata block (`title`) after every `interval` bytes."""
    meta = ("StreamTitle='%s';" % title).encode()
    meta += b"\0" * (-len(meta) % 16)
    chunks = [audio[i:i + interval] for i in range(0, len(audio), interval)]
    return b"".join(chunk + bytes([len(meta) // 16]) + meta for chunk in chunks)
def icy_body(interval, titles):
    body = b""
    for index, title in enumerate(titles):
        body += bytes((index * 7 + i) % 251 for i in range(interval))
        meta = b"" if title is None else ("StreamTitle='%s';" % title).encode()
        meta += b"\0" * (-len(meta) % 16)
        body += bytes([len(meta) // 16]) + meta
    return body

seeds("stream-head", {
    "icecast": b"HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\nicy-metaint: 16\r\nicy-br: 128,128\r\nicy-name: Test FM\r\n\r\n"
        + icy_body(16, ["Miles Davis - So What", None, ""]),
    "shoutcast": b"ICY 200 OK\r\ncontent-type: audio/aacp\r\nicy-metaint:32\r\n\r\n" + icy_body(32, ["Caf\xe9".encode("latin-1").decode("latin-1")]),
    "redirect": b"HTTP/1.1 302 Found\r\nLocation: /live\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: audio/ogg\r\n\r\nOggS",
    "error": b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n<html>",
    "http2": b"HTTP/2 200\r\ncontent-type: audio/flac; charset=binary\r\n\r\nfLaC",
})
seeds("icy", {
    "titles": b"\x10\x00" + icy_body(16, ["Artist - Title", "It's a 'quote'", None, "\x01\x02ctrl"]),
    "pieces": b"\x08\x03" + icy_body(8, ["a" * 300, "\u00e9t\u00e9"]),
    "none": b"\x00\x00" + bytes(range(64)),
    "absurd": b"\xfc\x01" + icy_body(4, ["x"]),
})
seeds("playlist", {
    "m3u": b"\x01#EXTM3U\r\n#EXTINF:-1,Radio\r\nhttp://radio.example:8000/live.mp3\r\n",
    "m3u-plain": b"\x00\xef\xbb\xbfhttps://radio.example/stream\n",
    "pls": b"\x02[playlist]\nNumberOfEntries=2\nFile2=http://b.example/\nFile1=https://a.example/live\nTitle1=A\nVersion=2\n",
    "hls": b"\x03#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n",
    "html": b"\x05<!DOCTYPE html><title>404</title>",
    "bad-urls": b"\x01#EXTM3U\nfile:///etc/passwd\nhttp://\nhttp://radio.example/\x00x\n",
})
hls = {
    "live": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:41\n#EXTINF:2.000000,\nlive41.ts\n"
            "#EXTINF:1.960000,Miles Davis - So What\nlive42.ts\n",
    "ended": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.aac\n#EXT-X-ENDLIST\n",
    "master": '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5,mp4a.40.2"\nlow/index.m3u8\n'
              '#EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"\n//cdn.example/high/index.m3u8\n',
    "absolute": "#EXTM3U\r\n#EXT-X-TARGETDURATION:10\r\n#EXT-X-MEDIA-SEQUENCE:-3\r\n#EXTINF:10,\r\n/abs/seg.ts?x=1\r\n"
                "#EXTINF:9.5,\r\nhttps://other.example/seg2.ts\r\n",
}
seeds("hls", {name: bytes([index]) + text.encode() for index, (name, text) in enumerate(hls.items())})
vorbis_comment = (7).to_bytes(4, "little") + b"ffmpeg!" + (2).to_bytes(4, "little")
for entry in [b"ARTIST=Miles Davis", b"TITLE=So What\x7f\xc2\x85"]:
    vorbis_comment += len(entry).to_bytes(4, "little") + entry
seeds("framing", {
    "ts-aac": b"\x00" + sample("tone-aac.ts", 188 * 20),
    "ts-mp3": b"\x07" + sample("tone-mp3.ts", 188 * 20),
    "adts": b"\x00" + sample("tone.aac", 2048),
    "vorbis-comment": b"\x00" + vorbis_comment,
})
# Player: type (0 none, 1 mpeg, 2 aacp, 3 ogg, 4 flac, 5 octet-stream, 6 html, 7 m3u, 8 HLS segment), metaint / 16, split.
player = {
    "mp3": (1, 0, 0, "tone.mp3"), "mp3-sniffed": (0, 0, 5, "tone-stereo.mp3"), "aac": (2, 0, 9, "tone.aac"),
    "vorbis": (3, 0, 0, "tone.ogg"), "opus": (3, 0, 3, "tone.opus"), "ogg-flac": (0, 0, 0, "tone-flac.ogg"),
    "flac": (4, 0, 0, "tone.flac"), "ts-aac": (8, 0, 0, "tone-aac.ts"), "ts-mp3": (8, 0, 2, "tone-mp3.ts"),
    "packed-aac": (8, 0, 0, "tone.aac"),
}
items = {name: bytes([t, m, s]) + sample(file) for name, (t, m, s, file) in player.items()}
items["flac"] = bytes([4, 0, 0]) + without_padding((work / "tone.flac").read_bytes())[:8192]
items["mp3-icy"] = bytes([1, 64, 7]) + interleave(sample("tone.mp3", 4096), 64 * 16, "Artist - Title")
for path in sorted(pathlib.Path("../Tests/Fixtures/he-aac").glob("*.aac")):
    items[path.stem] = bytes([2, 0, 0]) + path.read_bytes()[:4096]
seeds("player", items)
PY
