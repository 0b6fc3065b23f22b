#!/usr/bin/env python3
"""Button press to first audible speech sample: a press-only button bound to `speak_time` is
pressed (a key-down written into the FIFO the node reads as an input device) and the node's
output, an ALSA `file` PCM of this script's own configuration, is watched for the first
non-silent sample after the press. The first utterance loads eSpeak NG; later ones do not.
Also the node's RSS when idle, before it has spoken and after, and alarm `speak_time`: from
`alarm/test` of a silent (`sound: none`) `speak_time` alarm to the first audible sample, which
is the voice saying the time and the label (the command's `mosquitto_pub` start included).

    Benchmarks/speech-latency.py [path/to/noiseclock] [later presses]   (defaults: release build, 10)

Last lines: `speech latency, first: X ms`, `speech latency, later: median X ms, worst Y ms (N)`,
`idle RSS before speaking: X MB, after: Y MB`, `speak_time, ring to first audible speech: median X
ms, worst Y ms (N)` (left out by a node that does not know `speak_time`).
"""
import os, struct, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from nodes import ROOT, Bench  # noqa: E402

binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/noiseclock")
later = int(sys.argv[2]) if len(sys.argv) > 2 else 10
bench = Bench("speech-latency")
work = bench.work


def record(code, value, kind=1):
    return struct.pack("<qqHHi", 0, 0, kind, code, value)


def rss_mb(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Rss:"):
                return int(line.split()[1]) / 1024
    return 0.0


try:
    port = bench.mosquitto()
    capture = f"{work}/out.raw"
    with open(f"{work}/asoundrc", "w") as f:
        f.write(f'pcm.bench {{\n type file\n slave.pcm null\n file "{capture}"\n format raw\n}}\n')
    os.mkfifo(f"{work}/key")
    buttons = f"""buttons:
  - id: talk
    input: {{device: {work}/key, key: KEY_ENTER}}
    press: speak_time
    double: none
    hold: none
"""
    node = bench.node(binary, buttons, device="bench",
                      env={"ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + f"{work}/asoundrc"})
    key = os.open(f"{work}/key", os.O_WRONLY)  # blocks until the node has the FIFO open
    time.sleep(3)  # settle: connected, idle
    idle_before = rss_mb(node.pid)

    def size():
        try:
            return os.path.getsize(capture)
        except OSError:
            return 0

    def first_sound(offset, started):
        deadline = started + 10
        with open(capture, "ab"):  # there before the node first opens the device
            pass
        while time.monotonic() < deadline:
            with open(capture, "rb") as f:
                f.seek(offset)
                data = f.read()
            whole = len(data) // 4 * 4
            samples = struct.unpack("<%dh" % (whole // 2), data[:whole])
            for sample in samples:
                if abs(sample) > 64:  # −54 dBFS: speech, not a ramp's first step
                    return (time.monotonic() - started) * 1000
            offset += whole
            time.sleep(0.0005)
        raise SystemExit("no sound within 10 s")

    def press():
        offset = size() // 4 * 4
        started = time.monotonic()
        os.write(key, record(28, 1) + record(0, 0, 0) + record(28, 0) + record(0, 0, 0))
        return first_sound(offset, started)

    def command(suffix, payload):
        answer = subprocess.run(["mosquitto_rr", "-p", str(port), "-t", f"noiseclock/bench/{suffix}", "-e", "bench/reply",
                                 "-m", payload, "-W", "5"], capture_output=True, text=True)
        return answer.stdout

    first = press()
    times = []
    for _ in range(later):
        time.sleep(3.5)  # the utterance over (and the device still open: the engine closes after 5 s idle)
        times.append(press())
    time.sleep(8)  # idle again: the device closed
    idle_after = rss_mb(node.pid)
    rings = []
    if '"ok":true' in command("alarm/add", '{"id": "wake", "time": "03:00", "sound": "none", "label": "Work", "speak_time": true}'):
        for _ in range(5):
            offset = size() // 4 * 4
            started = time.monotonic()
            subprocess.run(["mosquitto_pub", "-p", str(port), "-t", "noiseclock/bench/alarm/test", "-m", "wake"])
            rings.append(first_sound(offset, started))
            time.sleep(3)
            command("alarm/dismiss", "")
            time.sleep(0.5)
        rings.sort()
    times.sort()
    print(f"speech latency, first: {first:.0f} ms")
    print(f"speech latency, later: median {times[len(times) // 2]:.0f} ms, worst {times[-1]:.0f} ms ({len(times)})")
    print(f"idle RSS before speaking: {idle_before:.1f} MB, after: {idle_after:.1f} MB")
    if rings:
        print(f"speak_time, ring to first audible speech: median {rings[len(rings) // 2]:.0f} ms, worst {rings[-1]:.0f} ms ({len(rings)})")
finally:
    bench.close()
