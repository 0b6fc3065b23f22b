"""A CPU quota on chosen processes alone: a cgroup's cpu controller (the Python side of nodes.sh's
bench_throttle). v1 at /sys/fs/cgroup/cpu, as this project's build machine has; v2 when
/sys/fs/cgroup/cgroup.controllers exists (the unified hierarchy: `cpu.max`). Needs root.

    quota = CgroupQuota(3.0)   # 3 % of one core, per 100 ms period
    quota.add(pid)             # the process and every thread it has or makes
    quota.close()              # the group removed once its processes are gone or moved out
"""
import os
import time

V2_ROOT = "/sys/fs/cgroup"
V1_ROOT = "/sys/fs/cgroup/cpu"


class CgroupQuota:
    def __init__(self, percent, period_ms=100):
        period = period_ms * 1000
        quota = int(percent * period / 100)
        if quota < 1000:
            raise SystemExit(f"quota {percent} % of a core: under the kernel's 1 ms per period")
        self.v2 = os.path.exists(f"{V2_ROOT}/cgroup.controllers")
        root = V2_ROOT if self.v2 else V1_ROOT
        if not os.access(root, os.W_OK):
            raise SystemExit(f"cannot make a cgroup in {root} (a quota needs root)")
        self.path = f"{root}/noiseclock-pi-budget.{os.getpid()}.{time.monotonic_ns()}"
        if self.v2:
            with open(f"{V2_ROOT}/cgroup.subtree_control") as f:
                if "cpu" not in f.read().split():
                    self._write(f"{V2_ROOT}/cgroup.subtree_control", "+cpu")
        os.mkdir(self.path)
        if self.v2:
            self._write(f"{self.path}/cpu.max", f"{quota} {period}")
        else:
            self._write(f"{self.path}/cpu.cfs_period_us", str(period))
            self._write(f"{self.path}/cpu.cfs_quota_us", str(quota))
            # The audio thread is SCHED_FIFO as root: a group without real-time runtime refuses
            # it (EINVAL), and a CFS quota does not cap it, so it gets the same share of that.
            self._write(f"{self.path}/cpu.rt_period_us", str(period))
            self._write(f"{self.path}/cpu.rt_runtime_us", str(quota))
        self.percent = percent

    @staticmethod
    def _write(path, value):
        with open(path, "w") as f:
            f.write(value)

    def add(self, pid):
        self._write(f"{self.path}/cgroup.procs", str(pid))

    def close(self):
        for _ in range(50):
            try:
                os.rmdir(self.path)
                return
            except OSError:
                time.sleep(0.1)
