"""Agent runs are shared round-robin by person: a burst from one person never starves the others."""

from __future__ import annotations

import asyncio

from bot.jobs.fair import FairSlots


async def test_a_freed_slot_goes_to_the_next_person_in_turn_not_the_next_arrival():
    slots = FairSlots(1)
    started: list[str] = []
    release = {name: asyncio.Event() for name in ("busy", "a1", "a2", "a3", "b1", "c1")}

    async def run(person: str, name: str) -> None:
        async with slots.slot(person):
            started.append(name)
            await release[name].wait()

    tasks = [asyncio.create_task(run("X", "busy"))]
    await asyncio.sleep(0)
    # Arrival order: A's three questions, then B's, then C's.
    for person, name in (("A", "a1"), ("A", "a2"), ("A", "a3"), ("B", "b1"), ("C", "c1")):
        tasks.append(asyncio.create_task(run(person, name)))
        await asyncio.sleep(0)
    assert slots.waiting("A") == 3
    for name in ("busy", "a1", "b1", "c1", "a2", "a3"):
        release[name].set()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    assert started == ["busy", "a1", "b1", "c1", "a2", "a3"]


async def test_a_cancelled_waiter_gives_up_its_place_and_no_slot_is_lost():
    slots = FairSlots(1)
    hold = asyncio.Event()

    async def run(person: str) -> None:
        async with slots.slot(person):
            await hold.wait()

    first = asyncio.create_task(run("A"))
    await asyncio.sleep(0)
    waiter = asyncio.create_task(run("B"))
    await asyncio.sleep(0)
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    assert slots.waiting("B") == 0
    hold.set()
    await first
    await asyncio.wait_for(run("C"), 1)  # the slot is free again
