"""Ogg Vorbis for format_server.py: tone.ogg's audio pages looped, its identification header patched
to any rate (page CRCs fixed)."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


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
