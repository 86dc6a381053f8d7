"""The CPU pool is sized to the machine: one worker per CPU the process may use, no more than its
container's quota allows, and CPU_WORKERS still decides when it is set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent.budget import machine
from agent.settings import load_settings


@pytest.fixture
def cpus(monkeypatch):
    """Pretend the process may run on `n` CPUs."""

    def pin(n: int) -> None:
        monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(n)), raising=False)

    return pin


def cgroup_v2(tmp_path: Path, cpu_max: str) -> Path:
    (tmp_path / "cpu.max").write_text(cpu_max + "\n")
    return tmp_path


def cgroup_v1(tmp_path: Path, quota_us: int, period_us: int = 100_000) -> Path:
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text(f"{quota_us}\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text(f"{period_us}\n")
    return tmp_path


def test_the_cpus_the_process_may_run_on_without_a_quota(cpus, tmp_path):
    cpus(6)
    assert machine.usable_cpus(tmp_path) == 6  # no cgroup files: no quota
    assert machine.usable_cpus(cgroup_v2(tmp_path, "max 100000")) == 6


@pytest.mark.parametrize(("cpu_max", "expected"), [("200000 100000", 2), ("150000 100000", 2), ("50000 100000", 1)])
def test_a_containers_cpu_quota_caps_them(cpus, tmp_path, cpu_max, expected):
    cpus(16)
    assert machine.usable_cpus(cgroup_v2(tmp_path, cpu_max)) == expected


def test_a_cgroup_v1_quota_too_and_minus_one_is_none(cpus, tmp_path):
    cpus(8)
    assert machine.usable_cpus(cgroup_v1(tmp_path, 300_000)) == 3
    other = tmp_path / "unlimited"
    other.mkdir()
    assert machine.usable_cpus(cgroup_v1(other, -1)) == 8


def test_a_quota_above_the_affinity_leaves_the_affinity(cpus, tmp_path):
    cpus(2)
    assert machine.usable_cpus(cgroup_v2(tmp_path, "800000 100000")) == 2


def test_cpu_workers_default_to_the_usable_cpus_and_the_setting_wins(cpus, tmp_path, monkeypatch):
    cpus(8)
    monkeypatch.setattr(machine, "CGROUP", cgroup_v2(tmp_path, "500000 100000"))
    monkeypatch.delenv("CPU_WORKERS", raising=False)
    assert load_settings(_env_file=None).cpu_workers == 5
    assert load_settings(_env_file=None, cpu_workers=3).cpu_workers == 3
