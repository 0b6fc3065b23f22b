"""The real parts the browser tests drive: a mosquitto on a free loopback port, the real
noiseclock node (web app on, token access, a test clock it reads from a file), MQTT helpers
built on mosquitto_pub/mosquitto_sub, and one headless Chromium through chromedriver."""
import json
import os
import sys
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from loopback_port import free_port  # noqa: E402


def wait_port(port, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


class Broker:
    def __init__(self, directory):
        self.port = free_port()
        conf = os.path.join(directory, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        binary = next(p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto") if os.path.exists(p))
        self.log = open(os.path.join(directory, "mosquitto.log"), "w")
        self.process = subprocess.Popen([binary, "-c", conf], stdout=self.log, stderr=subprocess.STDOUT)
        if not wait_port(self.port):
            raise RuntimeError(f"mosquitto did not start on port {self.port}")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Subscription:
    """mosquitto_sub on one topic, in the background: every message with its arrival time."""

    def __init__(self, port, topic):
        self.topic = topic
        self.messages = []  # (monotonic time, payload)
        self.cond = threading.Condition()
        # A probe topic of its own, in the same SUBSCRIBE: once a probe comes back, the topic is
        # subscribed too, so nothing published after the constructor returns is missed (a
        # non-retained message published before mosquitto_sub had subscribed was lost).
        self.probe = f"noiseclock-test/probe/{uuid.uuid4().hex}"
        self.subscribed = threading.Event()
        self.process = subprocess.Popen(
            ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-t", self.probe, "-q", "1", "-v"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 10
        while not self.subscribed.is_set():
            if time.monotonic() > deadline:
                raise RuntimeError(f"mosquitto_sub did not subscribe to {topic} within 10 s")
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", self.probe, "-m", "probe"],
                           check=True)
            self.subscribed.wait(0.2)

    def _read(self):
        for line in self.process.stdout:
            topic, _, payload = line.rstrip("\n").partition(" ")
            if topic == self.probe:
                self.subscribed.set()
                continue
            with self.cond:
                self.messages.append((time.monotonic(), payload))
                self.cond.notify_all()

    def wait(self, predicate=lambda payload: True, timeout=10.0, after=0):
        """The first message (from index `after`) whose payload satisfies predicate: (index, payload)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            index = after
            while True:
                while index < len(self.messages):
                    payload = self.messages[index][1]
                    if predicate(payload):
                        return index, payload
                    index += 1
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching message on {self.topic} within {timeout} s; "
                                         f"last: {self.messages[-1][1] if self.messages else 'none'}")
                self.cond.wait(left)

    def json(self, predicate=lambda j: True, timeout=10.0, after=0):
        def match(payload):
            try:
                return predicate(json.loads(payload))
            except ValueError:
                return False
        index, payload = self.wait(match, timeout, after)
        return index, json.loads(payload)

    def count(self):
        with self.cond:
            return len(self.messages)

    def stop(self):
        # Bounded: a mosquitto_sub once hung in its own SIGTERM handler and held a browser part for
        # 25 minutes; its messages are read already, so a kill loses nothing.
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Node:
    def __init__(self, binary, directory, broker_port, node_id="webtest", locale="en", timezone="UTC", yaml_extra="",
                 audio_device="null_noiseclock_test"):
        """audio_device: by default one that does not exist (the node has no sound card); `null`, ALSA's
        null device, opens and takes the sound, for a node that must speak."""
        self.binary = binary
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self.node_id = node_id
        self.base = f"noiseclock/{self.node_id}"
        self.broker_port = broker_port
        self.web_port = free_port()
        self.state_dir = os.path.join(directory, "state")
        clock_dir = os.path.join(directory, "clock")
        os.makedirs(clock_dir)
        self.clock_file = os.path.join(clock_dir, "offset-ms")
        self.offset_ms = 0
        self.config = os.path.join(directory, "noiseclock.yaml")
        with open(self.config, "w") as f:
            f.write(f"""node_id: {self.node_id}
timezone: {timezone}
locale: {locale}
state_dir: {self.state_dir}
mqtt:
  host: 127.0.0.1
  port: {broker_port}
  keepalive_seconds: 5
home_assistant:
  discovery: false
audio:
  device: "{audio_device}"
battery:
  path: {os.path.join(directory, 'power_supply')}
web:
  enabled: true
  host: 127.0.0.1
  port: {self.web_port}
  auth: token
stream:
  allow_local_addresses: true
{yaml_extra}""")
        self.log_path = os.path.join(directory, "node.log")
        self.log = open(self.log_path, "w")
        self.environment = {}  # more for the node's environment (ALSA_CONFIG_PATH)

    def start(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("NOISECLOCK_")}
        env["NOISECLOCK_RESOURCES"] = os.path.join(ROOT, "Resources")
        env["NOISECLOCK_TEST_CLOCK_FILE"] = self.clock_file
        env["NOISECLOCK_TEST_SEED"] = os.environ.get("NOISECLOCK_TEST_SEED", "20261125")  # the same node every run
        env["NOISECLOCK_LOG_LEVEL"] = "debug"
        env.update(self.environment)
        self.process = subprocess.Popen([self.binary, "--config", self.config], env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        if not wait_port(self.web_port, 20):
            raise RuntimeError(f"the node's web app did not listen on {self.web_port}:\n{self.read_log()[-3000:]}")
        token_file = os.path.join(self.state_dir, "web_token")
        deadline = time.monotonic() + 10
        while not os.path.exists(token_file) and time.monotonic() < deadline:
            time.sleep(0.02)
        with open(token_file) as f:
            self.token = f.read().strip()
        self.url = f"http://127.0.0.1:{self.web_port}"

    def read_log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def clock_changes(self):
        return self.read_log().count("system clock changed")

    def set_clock(self, epoch_seconds, timeout=20.0):
        """Moves the node's clock so that it reads epoch_seconds now; returns once the node took it."""
        before = self.clock_changes()
        self.offset_ms = int(round((epoch_seconds - time.time()) * 1000))
        tmp = os.path.join(os.path.dirname(self.clock_file), ".offset-ms.tmp")
        with open(tmp, "w") as f:
            f.write(f"{self.offset_ms}\n")
        os.rename(tmp, self.clock_file)
        deadline = time.monotonic() + timeout
        while self.clock_changes() <= before:
            if time.monotonic() > deadline:
                raise AssertionError("the node did not take the new clock")
            time.sleep(0.01)

    def now(self):
        return time.time() + self.offset_ms / 1000

    def publish(self, suffix, payload):
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(self.broker_port), "-q", "1",
                        "-t", f"{self.base}/{suffix}", "-m", payload], check=True)

    def subscribe(self, suffix):
        sub = Subscription(self.broker_port, f"{self.base}/{suffix}")
        return sub

    def retained(self, suffix, timeout=5.0):
        """The retained payload of a topic now (mosquitto_sub -C 1)."""
        out = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.broker_port), "-t",
                              f"{self.base}/{suffix}", "-C", "1", "-W", str(int(timeout))],
                             capture_output=True, text=True)
        return out.stdout.strip()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class CapturePCMs:
    """Playback PCMs of the tests' own ALSA configuration (the node's ALSA_CONFIG_PATH): ALSA's
    `file` plugin writing raw S16LE stereo frames at 48 kHz into a file per PCM that the test reads
    back, each listed by ALSA's hints with a description as a sound card is."""
    RATE = 48000

    def __init__(self, directory, devices):
        """devices: {name: description}."""
        self.devices = dict(devices)
        self.directory = directory
        self.config_path = os.path.join(directory, "asoundrc")
        with open(self.config_path, "w") as f:
            for name, description in self.devices.items():
                f.write(f'pcm.{name} {{\n type file\n slave.pcm null\n file "{self.path(name)}"\n format raw\n'
                        f' hint {{ show on description "{description}" }}\n}}\n')
        self.environment = {"ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + self.config_path}

    def path(self, name):
        return os.path.join(self.directory, f"{name}.raw")

    def left(self, name):
        """The left channel written to PCM name so far, as floats in -1..1."""
        import array
        samples = array.array("h")
        if os.path.exists(self.path(name)):
            with open(self.path(name), "rb") as f:
                data = f.read()
            samples.frombytes(data[:len(data) // 4 * 4])
            if sys.byteorder != "little":
                samples.byteswap()
        return [v / 32768 for v in samples[0::2]]

    def tone_at(self, name, hz, window=0.05):
        """Where (s from the file's start) the tone hz is loudest on PCM name, and its amplitude
        there (0 when nothing was written): each 50 ms window's Goertzel filter at hz."""
        import math
        left = self.left(name)
        size = int(self.RATE * window)
        coefficient = 2 * math.cos(2 * math.pi * hz / self.RATE)
        best, best_at = 0.0, 0.0
        for start in range(0, len(left) - size + 1, size):
            s1 = s2 = 0.0
            for value in left[start:start + size]:
                s1, s2 = value + coefficient * s1 - s2, s1
            amplitude = 2 * math.sqrt(max(0.0, s1 * s1 + s2 * s2 - coefficient * s1 * s2)) / size
            if amplitude > best:
                best, best_at = amplitude, start / self.RATE
        return best_at, best


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-dev-shm-usage",
                "--disable-extensions", "--no-first-run", "--force-device-scale-factor=1", "--lang=en-US",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    # Every page counts its requests in flight (window.__ncFetching), so a test can wait until the
    # parts a page fetches after its state (device lists) are drawn: web_page.settled().
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FETCH_TRACKER})
    return driver


FETCH_TRACKER = """
(() => {
  const original = window.fetch.bind(window);
  window.__ncFetching = 0;
  window.fetch = (...args) => {
    window.__ncFetching += 1;
    return original(...args).finally(() => { window.__ncFetching -= 1; });
  };
})();
"""


def set_viewport(driver, width, height):
    """Makes the page's own viewport width x height (the window adds its frame)."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
