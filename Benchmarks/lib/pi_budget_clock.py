"""The pi-budget run's test clock (Benchmarks/pi-budget.py): offsets to an alarm's minute, forward jumps,
the clock file written, real time from the node's, and a percentile."""
import os
import time

DAY = 86400


def offset_to(hhmm, lead):
    """The test clock's offset (ms) that puts the node `lead` seconds before the next HH:MM (UTC)."""
    now = time.time()
    h, m = map(int, hhmm.split(":"))
    target = (int(now) // DAY) * DAY + h * 3600 + m * 60
    while target - lead <= now + 1:
        target += DAY
    return int((target - lead - now) * 1000)


def jump(clock, offset_ms, current_ms):
    """Moves the node's clock forward only (a backwards step would ring an alarm again)."""
    offset_ms = int(max(offset_ms, current_ms))
    write_clock(clock, offset_ms)
    return offset_ms


def write_clock(path, offset_ms):
    with open(path + ".tmp", "w") as f:
        f.write(f"{int(offset_ms)} synced\n")
    os.rename(path + ".tmp", path)


def real_time_of(hhmm, offset_ms):
    """The real time at which the node's clock (real + offset) next reads HH:MM:00."""
    node_now = time.time() + offset_ms / 1000
    h, m = map(int, hhmm.split(":"))
    target = (int(node_now) // DAY) * DAY + h * 3600 + m * 60
    while target < node_now - 30:
        target += DAY
    return target - offset_ms / 1000


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
