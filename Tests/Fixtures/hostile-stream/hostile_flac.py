"""Native FLAC for format_server.py, made here: 4096-sample frames of a 440 Hz tone in verbatim
subframes, at any rate a header can say (CRC-8 and CRC-16 computed)."""
import math
import struct


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
