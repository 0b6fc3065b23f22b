"""A CPU quota on chosen processes alone: a cgroup's cpu controller (the Python side of nodes.sh's
bench_throttle). v1 at /sys/fs/cgroup/cpu, as this project's build machine has; v2 when
/sys/fs/cgroup/cgroup.controllers exists (the unified hierarchy: `cpu.max`, which leaves
real-time threads out). Needs root.

    quota = CgroupQuota(3.0)   # 3 % of one core, per 100 ms period (longer below 1 %)
    quota.add(pid)             # the process and every thread it has or makes
    quota.close()              # the group removed once its processes are gone or moved out
"""
import os
import time

V2_ROOT = "/sys/fs/cgroup"
V1_ROOT = "/sys/fs/cgroup/cpu"


class CgroupQuota:
    def __init__(self, percent, period_ms=100):
        # The kernel takes at least 1 ms per period and periods up to 1 s: a small quota gets a
        # longer period (0.3 % of a core: 1 ms every 333 ms).
        period = max(period_ms * 1000, int(100_000 / percent + 0.999)) if percent > 0 else 0
        quota = int(percent * period / 100)
        if not 1000 <= quota or period > 1_000_000:
            raise SystemExit(f"quota {percent} % of a core: under the kernel's 1 ms per second")
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
            # No real-time runtime: the node's SCHED_FIFO request for its audio thread is refused
            # (EINVAL) and the thread runs as any other, inside the quota. With real-time
            # runtime the quota would bound it separately and the process could use twice the
            # quota in all; a budget is the whole process's.
            self._write(f"{self.path}/cpu.rt_runtime_us", "0")
        self.percent = percent

    @staticmethod
    def _write(path, value):
        with open(path, "w") as f:
            f.write(value)

    def add(self, pid):
        if not self.v2:
            # A group without real-time runtime takes no SCHED_FIFO thread: the process's are made
            # ordinary first (SCHED_OTHER), as they would be had they been refused at the start.
            for task in os.listdir(f"/proc/{pid}/task"):
                try:
                    if os.sched_getscheduler(int(task)) != os.SCHED_OTHER:
                        os.sched_setscheduler(int(task), os.SCHED_OTHER, os.sched_param(0))
                except ProcessLookupError:
                    pass
        self._write(f"{self.path}/cgroup.procs", str(pid))

    def close(self):
        for _ in range(50):
            try:
                os.rmdir(self.path)
                return
            except OSError:
                time.sleep(0.1)
