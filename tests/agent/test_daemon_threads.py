"""Blocking calls reuse the daemon thread an earlier call ended on (starting one costs the event loop
a wait for it to run); a call still running, abandoned or not, keeps its thread to itself."""

from __future__ import annotations

import asyncio
import threading

import pytest

from agent.budget import slots as slots_module
from agent.budget.slots import BlockingSlots, off_slot
from agent.budget.threads import DaemonThreads
from agent.errors import QueryTimeoutError


async def until_idle(threads: DaemonThreads, n: int) -> None:
    """Poll until `n` threads wait for work (a thread counts itself idle just after its work returns)."""
    for _ in range(10_000):
        if threads.idle >= n:
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"{threads.idle} idle threads, expected {n}")


@pytest.fixture
def threads(monkeypatch):
    kept = DaemonThreads()
    monkeypatch.setattr(slots_module, "_threads", kept)
    return kept


async def test_calls_one_after_another_run_on_one_thread(threads):
    slots = BlockingSlots(2)
    first = await slots.call(threading.get_ident, budget_s=5)
    await until_idle(threads, 1)
    second = await slots.call(threading.get_ident, budget_s=5)
    await until_idle(threads, 1)
    third = await off_slot(threading.get_ident, budget_s=5)
    assert first == second == third
    assert threading.current_thread().ident not in (first, second)


async def test_a_call_still_running_keeps_its_thread(threads):
    slots = BlockingSlots(3)
    release, held = threading.Event(), []

    def runaway() -> None:
        held.append(threading.get_ident())
        release.wait(10)

    try:
        with pytest.raises(QueryTimeoutError):
            await slots.call(runaway, budget_s=0.05)  # abandoned, and still running
        assert await slots.call(threading.get_ident, budget_s=5) != held[0]
    finally:
        release.set()


async def test_off_slot_work_on_a_former_slot_thread_is_not_on_a_slot(threads):
    slots = BlockingSlots(2)
    await slots.call(lambda: None, budget_s=5)
    await until_idle(threads, 1)
    # Work on a slot runs nested blocking calls in place; work outside the slots must not.
    assert await off_slot(lambda: getattr(slots_module._on_slot, "active", False), budget_s=5) is False
