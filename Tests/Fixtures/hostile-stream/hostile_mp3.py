"""MP3 for format_server.py: the tone files' frames looped (at their rates, or a new rate every frame),
and ICY metadata blocks between them."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


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
