"""The pi-budget run's parts on the broker (Benchmarks/pi-budget.py): every message timestamped, a
publisher, the Icecast station, the Zigbee2MQTT lamp stand-in, Home Assistant's commands timed, and
what the topics say of a ring and of the underruns."""
import json
import subprocess
import threading
import time

from nodes import ROOT


class Topics:
    """Every message on the broker, timestamped by mosquitto_sub (%U: seconds of the epoch, to the ns)."""

    def __init__(self, bench, port, topics):
        self.lock = threading.Condition()
        self.seen = []  # (seconds, topic, payload)
        args = ["mosquitto_sub", "-p", str(port), "-q", "1", "-F", "%U %t %p"]
        for t in topics:
            args += ["-t", t]
        self.proc = bench.start(args, stdout=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            stamp, topic, payload = (line.rstrip("\n").split(" ", 2) + ["", ""])[:3]
            with self.lock:
                self.seen.append((float(stamp), topic, payload))
                self.lock.notify_all()

    def wait(self, match, after, timeout):
        """The first (seconds, topic, payload) after `after` with match(topic, payload), or None."""
        deadline = time.time() + timeout
        with self.lock:
            while True:
                for seen in self.seen:
                    if seen[0] >= after and match(seen[1], seen[2]):
                        return seen
                left = deadline - time.time()
                if left <= 0:
                    return None
                self.lock.wait(left)


class Publisher:
    """One `mosquitto_pub -l` per topic: a line written is published at once, no connect each time."""

    def __init__(self, bench, port):
        self.bench, self.port, self.procs = bench, port, {}

    def __call__(self, topic, payload):
        if payload == "":  # `-l` sends no blank line: an empty message is a process of its own
            at = time.time()
            subprocess.run(["mosquitto_pub", "-p", str(self.port), "-q", "1", "-n", "-t", topic], check=True)
            return at
        if topic not in self.procs:
            self.procs[topic] = self.bench.start(["mosquitto_pub", "-p", str(self.port), "-q", "1", "-l", "-t", topic],
                                                 stdin=subprocess.PIPE, text=True, bufsize=1)
        at = time.time()
        self.procs[topic].stdin.write(payload + "\n")
        self.procs[topic].stdin.flush()
        return at


def icecast(bench):
    """A real Icecast 2 fed MP3 and HE-AAC by FFmpeg (Benchmarks/lib/icecast.sh); its port."""
    script = f"""set -e; cd {ROOT}; . Benchmarks/lib/nodes.sh; . Benchmarks/lib/icecast.sh
work={bench.work}; pids=()
bench_icecast
bench_icecast_source /mp3 -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3
ffmpeg -nostdin -loglevel error -re -stream_loop -1 -i Tests/Fixtures/he-aac/he-aac-v1-pink-64k.aac -c:a copy \\
    -content_type audio/aacp -f adts "icecast://source:srcpw@127.0.0.1:$ice/heaac" &
echo $ice; wait"""
    proc = bench.start(["bash", "-c", script], stdout=subprocess.PIPE, text=True, start_new_session=True)
    port = int(proc.stdout.readline())
    bench.killpg.append(proc)
    return port


def lamp_bridge(topics, publish, stop):
    """Zigbee2MQTT's answer to `<lamp>/set` (and `/get`): the device's state on `<lamp>`."""
    state = {"state": "OFF", "brightness": 0, "color_temp": 370}
    handled = 0
    while not stop.is_set():
        with topics.lock:
            pending = [s for s in topics.seen if s[1].startswith("zigbee2mqtt/pi_lamp/")][handled:]
        for _, topic, payload in pending:
            handled += 1
            try:
                asked = json.loads(payload or "{}")
            except ValueError:
                continue
            if topic.endswith("/set"):
                state.update({k: v for k, v in asked.items() if k in ("state", "brightness", "color_temp")})
            publish("zigbee2mqtt/pi_lamp", json.dumps(state))
        with topics.lock:
            topics.lock.wait(0.2)


class Commander:
    """Home Assistant's side: a command every second with its request_id, the ~/response timed."""

    def __init__(self, topics, publish, root):
        self.topics, self.publish, self.root = topics, publish, root
        self.done = threading.Event()
        self.samples = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self.done.set()
        self.thread.join()

    def latencies(self):
        return list(self.samples)

    def _run(self):
        n = 0
        while not self.done.wait(1.0):
            n += 1
            rid = f"pi-{n}"
            sent = self.publish(f"{self.root}/noise/volume/set", json.dumps({"volume": 38 + n % 5, "request_id": rid}))
            seen = self.topics.wait(lambda t, p: t == f"{self.root}/response" and f'"{rid}"' in p, sent, 5)
            self.samples.append((seen[0] - sent) * 1000 if seen else 5000.0)


def ring(topics, root, alarm, minute):
    """Seconds from the alarm's minute (real time) to its `sounding` event; None when none came."""
    seen = topics.wait(lambda t, p: t == f"{root}/alarm/event" and '"sounding"' in p and f'"id":"{alarm}"' in p,
                       minute - 5, max(0, minute - time.time()) + 10)
    return None if seen is None else seen[0] - minute


def underruns(topics, root):
    """The last ~/audio's counter (retained: the first comes with the subscription)."""
    if topics.wait(lambda t, p: t == f"{root}/audio" and '"underruns"' in p, 0, 15) is None:
        return None
    with topics.lock:
        last = [s for s in topics.seen if s[1] == f"{root}/audio"][-1]
    return json.loads(last[2]).get("underruns")
