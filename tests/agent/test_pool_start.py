"""Starting the CPU workers (the forkserver imports the SQL layer, the word data and matplotlib first)
holds neither the caller of `warm` (the bot's start, so /readyz) nor the event loop of a step that
arrives meanwhile; that step waits for the workers and then runs in one."""

from __future__ import annotations

import asyncio
import threading

import pytest

from agent.budget import cpu
from agent.budget.cpu import CpuPool
from agent.budget.progress import Progress
from agent.tools import steps

GENEROUS_S = 60
HELD_S = 10  # a start that holds its caller would hold the test this long, then be found out


def _square(value: int) -> int:
    return value * value


async def test_warm_returns_at_once_and_a_step_waits_for_the_workers_off_the_loop(monkeypatch):
    release = threading.Event()
    real_ensure = CpuPool._ensure
    waits: list[bool] = []  # per start: released by the test (True), or the caller was held until the timeout

    def slow_start(self: CpuPool):
        waits.append(release.wait(HELD_S))  # the forkserver still importing
        return real_ensure(self)

    monkeypatch.setattr(cpu.CpuPool, "_ensure", slow_start)
    now = [0.0]
    progress = Progress(clock=lambda: now[0])
    pool = CpuPool(1, budget_s=GENEROUS_S, preload=steps.PRELOAD, progress=progress)
    try:
        pool.warm()  # returns although the workers cannot start yet
        step = asyncio.create_task(pool.run("Reading the SQL", _square, 7))
        for _ in range(5):  # the loop goes on (a start on it would hold it until the release)
            await asyncio.sleep(0)
        assert not step.done()
        now[0] = 100.0
        assert progress.stalled_s == 100.0  # the wait for the workers counts as a step in flight
        release.set()
        assert await asyncio.wait_for(step, GENEROUS_S) == 49
        assert progress.stalled_s == 0.0
        assert waits and all(waits)
    finally:
        release.set()
        pool.close()


def test_a_start_that_fails_leaves_no_workers_starting(monkeypatch, tmp_path):
    """A bad policy file stops start-up before the workers start; a failure after them stops them, so no
    worker is forked while the process exits (its own traceback would follow the one-line error)."""
    from agent.api import Assistant
    from agent.errors import AssistantError
    from agent.settings import load_settings

    warmed: list[CpuPool] = []
    closed: list[CpuPool] = []
    monkeypatch.setattr(cpu.CpuPool, "warm", lambda self: warmed.append(self))
    monkeypatch.setattr(cpu.CpuPool, "close", lambda self: closed.append(self))
    policy = tmp_path / "policy.yaml"
    policy.write_text("version: 1\ncontact: '#data'\ndefualt: deny\n")
    monkeypatch.setenv("POLICY_PATH", str(policy))
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    with pytest.raises(AssistantError, match="defualt"):
        Assistant.from_settings(load_settings())
    assert warmed == []

    monkeypatch.delenv("POLICY_PATH")

    def refuse(settings):
        raise OSError("no room for the sessions")

    monkeypatch.setattr("agent.bootstrap.build_checkpointer", refuse)
    with pytest.raises(OSError, match="no room"):
        Assistant.from_settings(load_settings())
    assert len(warmed) == 1 and closed == warmed
