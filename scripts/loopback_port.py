"""A loopback port no other test or bench will be handed while this one starts its listener.

bind(0) finds a port free only until someone else asks: parallel suites and their clients' outgoing
connections draw from the same ephemeral range. So the port comes from below that range, and each
one is claimed with a lock file this process holds until it exits, shared with the Swift tests
(PortReservations in Tests/NoiseClockTestSupport): no other suite takes it."""
import fcntl
import os
import socket
import threading

LOW, SPAN = 20_000, 12_000  # up to 31 999, below Linux's ephemeral range (32 768 - 60 999)
LOCK_DIRECTORY = "/tmp/noiseclock-port-locks"
_lock = threading.Lock()
_next = [LOW + (os.getpid() * 379 + 6_000) % SPAN]  # apart from the Swift suites' starting points
_held = []  # open lock files: released when this process exits


def free_port():
    with _lock:
        os.makedirs(LOCK_DIRECTORY, mode=0o777, exist_ok=True)
        # Shared by every user's runs, whatever the umask (another user's folder is left as it is).
        try:
            os.chmod(LOCK_DIRECTORY, 0o1777)
        except OSError:
            pass
        for _ in range(SPAN):
            port = _next[0]
            _next[0] = LOW + (port - LOW + 1) % SPAN
            held = _claim(port)
            if held is None:
                continue
            if _unbound(port):
                _held.append(held)
                return port
            held.close()
    raise RuntimeError(f"no free loopback port in {LOW}..{LOW + SPAN - 1}")


def _claim(port):
    path = os.path.join(LOCK_DIRECTORY, str(port))
    try:
        f = open(path, "a")
        try:
            os.chmod(path, 0o666)
        except OSError:
            pass
    except OSError:
        # Another user's lock file (0644 under its umask): flock needs no write access.
        try:
            f = open(path, "r")
        except OSError:
            return None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return f
    except OSError:
        f.close()
        return None


def _unbound(port):
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
