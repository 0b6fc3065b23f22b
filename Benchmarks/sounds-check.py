#!/usr/bin/env python3
"""Reads `noiseclock render ... --seconds 7300 --output -` (S16LE stereo, 48 kHz) on stdin and
checks it against the 2-hour file given as argv[1]: the correlation of one second at 1 h 59 min
with sox's own conversion of the file to 48 kHz, and the largest sample step across the loop
seam (7199.5 s: the file less its 0.5 s crossfade) against the steady sound's largest step."""
import array
import subprocess
import sys

RATE = 48000
AT = 7140 * RATE          # 1 h 59 min
SEAM = int(7199.5 * RATE)  # where the second pass begins
WINDOW = RATE

def left(raw):
    samples = array.array("h")
    samples.frombytes(raw)
    return samples[0::2]

out = sys.stdin.buffer
frame = 4
def skip_to(position, current):
    remaining = (position - current) * frame
    while remaining > 0:
        chunk = out.read(min(remaining, 1 << 22))
        if not chunk:
            raise SystemExit("render ended early")
        remaining -= len(chunk)
    return position

position = skip_to(AT, 0)
ours = left(out.read(WINDOW * frame))
position += WINDOW
steady_start = position
steady = left(out.read((SEAM - RATE - position) * frame))  # up to a second before the seam
position = SEAM - RATE
seam = left(out.read(2 * RATE * frame))
out.read()

reference_raw = subprocess.run(
    ["sox", sys.argv[1], "-t", "raw", "-e", "signed", "-b", "16", "-r", str(RATE), "-", "rate", "-v", "trim", "7140", "1"],
    check=True, capture_output=True).stdout
reference = left(reference_raw)
n = min(len(ours), len(reference))
ma = sum(ours[:n]) / n
mb = sum(reference[:n]) / n
sab = sum((ours[i] - ma) * (reference[i] - mb) for i in range(n))
saa = sum((ours[i] - ma) ** 2 for i in range(n))
sbb = sum((reference[i] - mb) ** 2 for i in range(n))
corr = sab / (saa * sbb) ** 0.5

def largest_step(x):
    return max(abs(x[i] - x[i - 1]) for i in range(1, len(x)))

print("%-52s %.5f (target >= 0.99)" % ("render 7300 s: correlation with the file at 1 h 59 min", corr))
print("%-52s %d vs %d steady (16-bit steps)" % ("render 7300 s: largest step across the seam", largest_step(seam), largest_step(steady)))
