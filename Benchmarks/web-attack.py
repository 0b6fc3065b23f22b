#!/usr/bin/env python3
"""The web server under attack from one address (issue 18), against any server that speaks the
node's API: the node itself, or Benchmarks/mhd-server.c. Prints one line per figure and a last
line of raw numbers ("attack ...").

  web-attack.py PORT TOKEN PID [SECONDS]

1. 100-socket slow-loris + 64 half-sent requests from 127.0.0.2 (each slot reopened a second
   after the server closes it) while 127.0.0.1 probes /healthz and /api/state every 40 ms:
   share served, share within 200 ms, p50/p99/max, the server's CPU.
2. Headers dribbled a byte at a time on 4 connections from 127.0.0.3 for SECONDS: server CPU.
3. 16 event streams (4 addresses x 4) for SECONDS: server CPU, RSS and PSS.
"""
import os
import socket
import sys
import threading
import time

PORT, TOKEN, PID = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
SECONDS = float(sys.argv[4]) if len(sys.argv) > 4 else 20
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds():
    with open(f"/proc/{PID}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_mb():
    values = {}
    with open(f"/proc/{PID}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if parts[0] in ("Rss:", "Pss:"):
                values[parts[0][:-1]] = int(parts[1]) / 1024
    return values["Rss"], values["Pss"]


def connect(source, timeout=10.0):
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.connect(("127.0.0.1", PORT))
    return s


def request(path, headers=""):
    s = connect("127.0.0.1")
    try:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\n{headers}\r\n".encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        return int(data.split(b" ", 2)[1]) if data else 0
    finally:
        s.close()


class Attacker(threading.Thread):
    def __init__(self, source, slowloris, half_sent):
        super().__init__(daemon=True)
        self.source, self.slowloris, self.count = source, slowloris, slowloris + half_sent
        self.stopping = False
        self.opened = self.answered = 0

    def run(self):
        sockets = [None] * self.count
        opened_at = [0.0] * self.count
        while not self.stopping:
            for i in range(self.count):
                s = sockets[i]
                if s is not None:
                    try:
                        data = s.recv(512, socket.MSG_DONTWAIT)
                        self.answered += 1 if data else 0
                        s.close()
                        sockets[i] = None
                    except BlockingIOError:
                        if i < self.slowloris:
                            try:
                                s.send(f"X-Slow-{i}: 1\r\n".encode())
                            except OSError:
                                s.close()
                                sockets[i] = None
                    except OSError:
                        s.close()
                        sockets[i] = None
                elif time.monotonic() - opened_at[i] >= 1:
                    try:
                        s = connect(self.source, 1)
                        head = ("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n" if i < self.slowloris
                                else "POST /api/alarm/add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\nX-Half: ")
                        s.send(head.encode())
                        sockets[i] = s
                        self.opened += 1
                    except OSError:
                        pass
                    opened_at[i] = time.monotonic()
            time.sleep(0.2)
        for s in sockets:
            if s is not None:
                s.close()


def exhaustion():
    attacker = Attacker("127.0.0.2", 100, 64)
    attacker.start()
    time.sleep(1)
    cpu0 = cpu_seconds()
    latencies, failed = [], 0
    end = time.monotonic() + SECONDS
    index = 0
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            status = request("/healthz") if index % 2 == 0 else request("/api/state", f"Authorization: Bearer {TOKEN}\r\n")
        except OSError:
            status = 0
        latencies.append((time.monotonic() - start) * 1000)
        failed += status != 200
        index += 1
        time.sleep(0.04)
    cpu = cpu_seconds() - cpu0
    attacker.stopping = True
    attacker.join()
    latencies.sort()
    n = len(latencies)
    within = 100 * sum(1 for v in latencies if v <= 200) / n
    served = 100 * (n - failed) / n
    p50, p99, worst = latencies[n // 2], latencies[min(n - 1, n * 99 // 100)], latencies[-1]
    print(f"slow-loris 100 + half-sent 64 from 127.0.0.2: {n} probes from 127.0.0.1, {served:.1f} % served, "
          f"{within:.1f} % within 200 ms, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms; "
          f"attacker opened {attacker.opened}; server CPU {cpu:.2f} s in {SECONDS:.0f} s")
    return served, within, p50, p99, worst, cpu


def dribble():
    stopping = [False]
    head = f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: {'y' * 16000}\r\n\r\n".encode()

    def one():
        while not stopping[0]:
            try:
                s = connect("127.0.0.3", 1)
                for byte in head:
                    if stopping[0]:
                        break
                    s.send(bytes([byte]))
                    time.sleep(0.0005)
                s.close()
            except OSError:
                time.sleep(0.01)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(4)]
    cpu0 = cpu_seconds()
    for t in threads:
        t.start()
    time.sleep(SECONDS)
    cpu = cpu_seconds() - cpu0
    stopping[0] = True
    for t in threads:
        t.join()
    print(f"headers dribbled a byte at a time, 4 connections: server CPU {cpu:.2f} s in {SECONDS:.0f} s")
    return cpu


def streams():
    held = []
    for i in range(16):
        s = connect(f"127.0.0.{40 + i // 4}")
        s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode())
        held.append(s)
    stopping = [False]

    def drain():
        while not stopping[0]:
            for s in held:
                try:
                    s.recv(65536, socket.MSG_DONTWAIT)
                except (BlockingIOError, OSError):
                    pass
            time.sleep(0.1)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    time.sleep(2)
    cpu0 = cpu_seconds()
    time.sleep(SECONDS)
    cpu = cpu_seconds() - cpu0
    rss, pss = memory_mb()
    stopping[0] = True
    reader.join()
    for s in held:
        s.close()
    print(f"16 event streams, one event a second each: server CPU {100 * cpu / SECONDS:.2f} % of a core, RSS {rss:.1f} MB, PSS {pss:.1f} MB")
    return cpu, rss, pss


idle_rss, idle_pss = memory_mb()
print(f"idle: RSS {idle_rss:.1f} MB, PSS {idle_pss:.1f} MB")
served, within, p50, p99, worst, attack_cpu = exhaustion()
time.sleep(6)  # the attacker's last slots run out
dribble_cpu = dribble()
time.sleep(6)
stream_cpu, stream_rss, stream_pss = streams()
print(f"attack idle_rss {idle_rss:.1f} idle_pss {idle_pss:.1f} served {served:.1f} within_200ms {within:.1f} "
      f"p50 {p50:.1f} p99 {p99:.1f} max {worst:.1f} attack_cpu {attack_cpu:.2f} dribble_cpu {dribble_cpu:.2f} "
      f"streams_cpu {stream_cpu:.2f} streams_rss {stream_rss:.1f} streams_pss {stream_pss:.1f}")
