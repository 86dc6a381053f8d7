"""Agent runs are shared round-robin by channel and by person: a burst from one person, or from one
busy channel, never starves the others."""

from __future__ import annotations

import asyncio

from bot.jobs import AskJob, Where
from bot.jobs.fair import FairSlots
from bot.slack_client import build_web_client
from bot.store.state import InMemoryStateStore
from bot.turns import TurnRunner


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


async def test_channels_take_turns_then_people_within_each():
    """A channel where three people wait does not hold the slot three turns running while one
    person in another channel waits."""
    slots = FairSlots(1)
    started: list[str] = []
    release = {name: asyncio.Event() for name in ("busy", "p1", "p2", "p3", "p1b", "q1", "q2")}

    async def run(channel: str, person: str, name: str) -> None:
        async with slots.slot(person, channel):
            started.append(name)
            await release[name].wait()

    tasks = [asyncio.create_task(run("CX", "X", "busy"))]
    await asyncio.sleep(0)
    arrivals = (("CBUSY", "P1", "p1"), ("CBUSY", "P2", "p2"), ("CBUSY", "P3", "p3"), ("CBUSY", "P1", "p1b"),
                ("CQUIET", "Q", "q1"), ("CQUIET", "Q", "q2"))
    for channel, person, name in arrivals:
        tasks.append(asyncio.create_task(run(channel, person, name)))
        await asyncio.sleep(0)
    assert slots.waiting("P1") == 2 and slots.waiting("P1", "CBUSY") == 2 and slots.waiting("P1", "CQUIET") == 0
    order = ["busy", "p1", "q1", "p2", "q2", "p3", "p1b"]
    for name in order:
        release[name].set()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    assert started == order


async def test_a_cancelled_waiter_leaves_its_channels_turn_to_the_others():
    slots = FairSlots(1)
    hold = asyncio.Event()
    started: list[str] = []

    async def run(channel: str, person: str) -> None:
        async with slots.slot(person, channel):
            started.append(person)
            await hold.wait()

    first = asyncio.create_task(run("C1", "A"))
    await asyncio.sleep(0)
    gone = asyncio.create_task(run("C2", "B"))
    await asyncio.sleep(0)
    stays = asyncio.create_task(run("C3", "C"))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.gather(gone, return_exceptions=True)
    assert slots.waiting("B") == 0
    hold.set()
    await asyncio.gather(first, stays)
    assert started == ["A", "C"]


async def test_the_bots_runs_take_turns_by_channel_then_person(bot_settings, slack, fake_agent):
    """Through the turn runner: with one run at a time, a quiet channel's question goes right after
    the busy channel's first, not behind all of its people's."""
    turns = TurnRunner(fake_agent, build_web_client(bot_settings), InMemoryStateStore(), max_concurrent_runs=1)
    fake_agent.stuck_users.add("U-hold")

    def job(n: int, channel: str, user: str) -> AskJob:
        return AskJob(request_id=f"r{n}", session_id=f"s{n}", text=f"question {n}",
                      where=Where(channel=channel, thread_ts=f"70{n}.1", user=user))

    running = [asyncio.create_task(turns(job(0, "CHOLD", "U-hold")))]
    for _ in range(200):
        if fake_agent.stuck_runs == 1:
            break
        await asyncio.sleep(0.01)
    assert fake_agent.stuck_runs == 1
    for n, (channel, user) in enumerate((("CBUSY", "UA"), ("CBUSY", "UB"), ("CBUSY", "UC"), ("CQUIET", "UQ")), 1):
        running.append(asyncio.create_task(turns(job(n, channel, user))))
        for _ in range(200):  # each waits for the slot before the next arrives
            if turns._run_slots.waiting(user) == 1:
                break
            await asyncio.sleep(0.01)
    fake_agent.unstick.set()
    await asyncio.wait_for(asyncio.gather(*running), 30)
    assert [ctx.user for ctx in fake_agent.contexts] == ["U-hold", "UA", "UQ", "UB", "UC"]
