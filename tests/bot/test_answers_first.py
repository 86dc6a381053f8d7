"""A person answering the bot's own question (Run, Cancel, a choice, a reply in words) is served ahead of
queued new questions: in the run slots and in their own queue past their cap (on the Redis job queue:
tests/durability/test_job_queue.py). Among themselves answers still take turns, and they still count
under each person's cap."""

from __future__ import annotations

import asyncio

from bot.jobs import AskJob, Job, ResumeJob, Where
from bot.jobs.fair import FairSlots
from bot.slack_client import build_web_client
from bot.store.state import InMemoryStateStore
from bot.turns import TurnRunner


def question(n: int, user: str, channel: str = "C1") -> AskJob:
    return AskJob(request_id=f"r{n}", session_id=f"s{n}", text=f"question {n}",
                  where=Where(channel=channel, thread_ts=f"80{n}.1", user=user))


def run_click(n: int, user: str, channel: str = "C1") -> ResumeJob:
    return ResumeJob(request_id=f"r{n}", session_id=f"s{n}", choice="run",
                     where=Where(channel=channel, thread_ts=f"80{n}.1", user=user))


async def until(condition, tries: int = 400) -> None:
    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met")


def test_only_answers_to_the_bots_questions_go_first():
    assert run_click(1, "U1").answers_bot
    assert AskJob(request_id="r", text="yes run it", where=Where(channel="C1", user="U1"), in_reply=True).answers_bot
    assert not question(1, "U1").answers_bot


async def test_a_freed_slot_goes_to_the_answers_in_turn_before_any_queued_question():
    slots = FairSlots(1)
    started: list[str] = []
    names = ("busy", "a1", "b1", "a2", "c-run", "c-run2", "d-run")
    release = {name: asyncio.Event() for name in names}

    async def run(name: str, person: str, answers_bot: bool = False) -> None:
        async with slots.slot(person, "C1", answers_bot=answers_bot):
            started.append(name)
            await release[name].wait()

    tasks = [asyncio.create_task(run("busy", "X"))]
    await asyncio.sleep(0)
    # Arrival order: three new questions, then C clicks twice and D once.
    for name, person, answers_bot in (("a1", "A", False), ("b1", "B", False), ("a2", "A", False),
                                      ("c-run", "C", True), ("c-run2", "C", True), ("d-run", "D", True)):
        tasks.append(asyncio.create_task(run(name, person, answers_bot)))
        await asyncio.sleep(0)
    assert slots.waiting("C") == 2 and slots.waiting("A") == 2
    order = ["busy", "c-run", "d-run", "c-run2", "a1", "b1", "a2"]
    for name in order:
        release[name].set()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    assert started == order


async def test_a_cancelled_answer_leaves_the_slot_to_the_questions():
    slots = FairSlots(1)
    hold = asyncio.Event()
    started: list[str] = []

    async def run(person: str, answers_bot: bool = False) -> None:
        async with slots.slot(person, answers_bot=answers_bot):
            started.append(person)
            await hold.wait()

    first = asyncio.create_task(run("A"))
    await asyncio.sleep(0)
    stays = asyncio.create_task(run("B"))
    await asyncio.sleep(0)
    gone = asyncio.create_task(run("C", answers_bot=True))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.gather(gone, return_exceptions=True)
    assert slots.waiting("C") == 0
    hold.set()
    await asyncio.gather(first, stays)
    assert started == ["A", "B"]


async def submit_in_turn(turns: TurnRunner, jobs: list[Job], waiting) -> list[asyncio.Task[None]]:
    """Each job submitted once the one before waits (`waiting(job)`), so their arrival order is known."""
    tasks = []
    for job in jobs:
        tasks.append(asyncio.create_task(turns(job)))
        await until(lambda job=job: waiting(job))
    return tasks


async def test_a_run_click_takes_the_next_run_slot_before_queued_questions(bot_settings, fake_agent):
    turns = TurnRunner(fake_agent, build_web_client(bot_settings), InMemoryStateStore(), max_concurrent_runs=1)
    fake_agent.stuck_users.add("U-hold")
    running = [asyncio.create_task(turns(question(0, "U-hold")))]
    await until(lambda: fake_agent.stuck_runs == 1)
    queued = [question(1, "UA"), question(2, "UB"), run_click(3, "UC")]
    running += await submit_in_turn(turns, queued, lambda job: turns._run_slots.waiting(job.where.user) == 1)
    fake_agent.unstick.set()
    await asyncio.wait_for(asyncio.gather(*running), 30)
    assert [(kind, session) for kind, session, _ in fake_agent.calls] == [
        ("ask", "s0"), ("resume", "s3"), ("ask", "s1"), ("ask", "s2")]


async def test_past_their_cap_a_persons_run_click_goes_before_their_queued_questions(bot_settings, fake_agent):
    turns = TurnRunner(fake_agent, build_web_client(bot_settings), InMemoryStateStore(), user_concurrency=1,
                       user_queue_max=5)
    fake_agent.stuck_users.add("U1")
    running = [asyncio.create_task(turns(question(0, "U1")))]
    await until(lambda: fake_agent.stuck_runs == 1)
    queued = [question(1, "U1"), question(2, "U1"), run_click(3, "U1"), run_click(4, "U1")]
    running += await submit_in_turn(turns, queued, lambda job: job in turns._queued.get("running:U1", []))
    assert [job.job_id for job in turns._queued["running:U1"]] == [job.job_id for job in (queued[2], queued[3],
                                                                                          queued[0], queued[1])]
    fake_agent.unstick.set()
    await asyncio.wait_for(asyncio.gather(*running), 30)
    assert [(kind, session) for kind, session, _ in fake_agent.calls] == [
        ("ask", "s0"), ("resume", "s3"), ("resume", "s4"), ("ask", "s1"), ("ask", "s2")]

