"""How many CPUs this process may really use: what sizes the CPU pool (`CPU_WORKERS`' default).

`os.cpu_count()` counts the host's cores. A process may be pinned to fewer (`taskset`, a
cpuset) and a container is usually given a CPU quota (cgroup `cpu.max`, Docker's `--cpus`,
Kubernetes' CPU limit) well below the host's count: a pool sized to the host would start more
workers than the process can run at once, each holding its memory, all of them throttled.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")


def usable_cpus(cgroup: Path | None = None) -> int:
    """The CPUs this process may run on, at most its cgroup's CPU quota (rounded up), at least 1.
    `cgroup`: where the cgroup file system is mounted (in a container, the container's own)."""
    counts = [_affinity()]
    quota = cgroup_cpu_quota(CGROUP if cgroup is None else cgroup)
    if quota is not None:
        counts.append(math.ceil(quota))
    return max(1, min(counts))


def _affinity() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def cgroup_cpu_quota(cgroup: Path = CGROUP) -> float | None:
    """CPUs' worth of time per period the cgroup allows (cgroup v2 `cpu.max`, else v1's CFS quota);
    None when there is no limit or nothing says."""
    try:
        quota, period = (cgroup / "cpu.max").read_text().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        quota_us = int((cgroup / "cpu" / "cpu.cfs_quota_us").read_text())
        period_us = int((cgroup / "cpu" / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return quota_us / period_us if quota_us > 0 and period_us > 0 else None
