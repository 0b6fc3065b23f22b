"""The Python node benchmarks' shared start-up (button-latency.py, speech-latency.py): the same as
Benchmarks/lib/nodes.sh for the shell ones. A `Bench` owns a work directory and every process it
starts; `close()` stops them (last started first) and removes the directory.

    bench = Bench("button-latency")
    port = bench.mosquitto()                       # a private mosquitto on a free loopback port
    node = bench.node(binary, extra_yaml, env={})  # the node with the benchmarks' configuration
    ...
    bench.close()
"""
import os, sys, shutil, socket, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from loopback_port import free_port  # noqa: E402


class Bench:
    def __init__(self, name):
        self.work = tempfile.mkdtemp(prefix=f"noiseclock-{name}.")
        self.procs = []
        self.port = None

    def start(self, argv, **options):
        proc = subprocess.Popen(argv, **options)
        self.procs.append(proc)
        return proc

    def mosquitto(self):
        """Starts the broker (Nagle off, as the shell benchmarks' nodes see it) and waits until it listens."""
        self.port = free_port()
        with open(f"{self.work}/mosquitto.conf", "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n")
        self.start(["mosquitto", "-c", f"{self.work}/mosquitto.conf"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self.port
            except OSError:
                time.sleep(0.1)
        raise SystemExit("mosquitto did not start")

    def node(self, binary, extra="", device="null", env=None, node_id="bench"):
        """Starts the node on this bench's broker; `extra` is YAML appended to its configuration."""
        config = f"{self.work}/noiseclock.yaml"
        defaults = f"""node_id: {node_id}
timezone: UTC
state_dir: {self.work}/state
mqtt: {{host: 127.0.0.1, port: {self.port}}}
home_assistant: {{discovery: false}}
audio: {{device: {device}}}
battery: {{path: {self.work}/no-battery}}
web: {{enabled: false}}
"""
        # A top-level key of `extra` replaces the default's line (as nodes.sh's bench_node does).
        given = {line.split(":", 1)[0] for line in extra.splitlines() if line and not line[0].isspace()}
        with open(config, "w") as f:
            f.write("".join(line + "\n" for line in defaults.splitlines() if line.split(":", 1)[0] not in given) + extra)
        environment = dict(os.environ, NOISECLOCK_LOG_LEVEL="warning", NOISECLOCK_RESOURCES=os.path.join(ROOT, "Resources"))
        environment.update(env or {})
        return self.start([binary, "--config", config], env=environment, stdout=subprocess.DEVNULL,
                          stderr=open(f"{self.work}/node.log", "w"))

    def close(self):
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.work, ignore_errors=True)
