"""No number of people at once stops the bot answering, and /readyz tells the truth when it is stuck.

Issue 25, finding 0: six people pasting harmless SQL at the same moment left every thread of the
event loop's pool waiting on the loop for a dry run that itself needed a thread of that pool; from
then on nobody was answered while /readyz said 200. Here twice as many people as the largest pool
(threads, CPU workers, warehouse slots) paste SQL at once through the bot's real endpoint, with the
real offline agent, and every one of them must be offered the Run button.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import threading

import aiohttp
import pytest

from agent.api import Assistant
from agent.budget.cpu import CpuPool
from agent.budget.progress import Progress
from agent.tools import steps
from bot.health import Readiness, ThreadPoolProbe
from bot.render import actions
from tests.support.bot_server import serving_bot
from tests.support.runaway import spin
from tests.support.slack_requests import find_button, mention

GENEROUS_S = 90
# What /readyz calls stuck rather than busy: none of it may show while a burst is being answered.
STUCK = {"threads", "cpu", "wedged", "jobs_wedged"}


def _default_threads() -> int:
    """The size of the pool asyncio gives a loop by default on this machine."""
    with concurrent.futures.ThreadPoolExecutor() as pool:
        return pool._max_workers


@pytest.fixture(scope="module")
async def real_agent(settings):
    assistant = Assistant.from_settings(settings)
    yield assistant
    await assistant.aclose()


async def test_twice_every_pool_of_people_pasting_sql_at_once_are_all_answered(bot_settings, slack, real_agent):
    people = 2 * max(_default_threads(), bot_settings.cpu_workers, bot_settings.warehouse_slots)
    settings = bot_settings.model_copy(update={"user_rate_limit_per_minute": 0, "max_execute_second": GENEROUS_S})
    async with serving_bot(settings, slack, real_agent) as running:
        reports: list[dict] = []
        watching = asyncio.create_task(_watch_readyz(running.url, reports))
        await asyncio.gather(*(
            running.send.event(mention(f"run this: SELECT {n} AS n FROM airlines", ts=f"70{n:02d}.1", user=f"U-paste-{n}"))
            for n in range(people)
        ))
        await asyncio.wait_for(running.drain(), GENEROUS_S * 2)
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
        unanswered = [n for n in range(people) if not _offered_run(slack, f"70{n:02d}.1")]
        assert not unanswered, f"{len(unanswered)} of {people} were never offered Run"
        # /readyz answered all along, and never called a pool stuck that was only busy
        assert reports, "/readyz never answered while the burst lasted"
        stuck = [r["not_ready"] for r in reports if STUCK & set(r.get("not_ready", []))]
        assert not stuck, stuck
        assert await _ready_again(running.url), "/readyz did not turn ready once everyone was answered"

        # and the bot still answers the next person as usual
        await running.send.event(mention("run this: SELECT 42 AS n FROM airlines", ts="7100.1", user="U-after"))
        await asyncio.wait_for(running.drain(), GENEROUS_S)
        assert _offered_run(slack, "7100.1")


async def _watch_readyz(url: str, reports: list[dict]) -> None:
    async with aiohttp.ClientSession() as session:
        while True:
            async with session.get(url + "/readyz") as response:
                reports.append(await response.json())
            await asyncio.sleep(0.25)


async def _ready_again(url: str) -> bool:
    async with aiohttp.ClientSession() as session:
        for _ in range(GENEROUS_S * 4):
            async with session.get(url + "/readyz") as response:
                if response.status == 200:
                    return True
            await asyncio.sleep(0.25)
    return False


def _offered_run(slack, ts: str) -> bool:
    thread = slack.thread("C1", ts)
    return bool(thread) and find_button(thread[-1], actions.RUN) is not None


async def test_readyz_says_threads_when_the_thread_pool_takes_no_work():
    release = threading.Event()
    loop = asyncio.get_running_loop()
    # every thread of a small pool held by work that never comes back (until the test lets it go)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    loop.set_default_executor(pool)
    probe = ThreadPoolProbe(budget_s=0.5)
    readiness = Readiness(agent_health=None, checks={"threads": probe.problem}, cache_s=0)
    try:
        assert (await readiness.check())["ready"] is True
        stuck = [loop.run_in_executor(None, release.wait) for _ in range(2)]
        assert (await readiness.check())["ready"] is True  # busy for now, within the budget
        await asyncio.sleep(0.6)
        report = await readiness.check()
        assert report["ready"] is False and report["not_ready"] == ["threads"]
        assert "no work" in report["threads"]
        release.set()
        await asyncio.gather(*stuck)
        for _ in range(50):
            if (await readiness.check())["ready"]:
                break
            await asyncio.sleep(0.05)
        assert (await readiness.check())["ready"] is True
    finally:
        release.set()
        loop.set_default_executor(concurrent.futures.ThreadPoolExecutor())
        pool.shutdown(wait=True)


async def test_readyz_says_cpu_when_steps_wait_and_none_finishes(real_agent):
    """Steps wait for the CPU workers and none finishes for longer than a step may last: stuck, not busy.
    The pool's clock is the test's, so "longer" needs no waiting; the step itself really waits in a worker."""
    now = [0.0]
    pool = CpuPool(1, budget_s=GENEROUS_S, preload=steps.PRELOAD, progress=Progress(clock=lambda: now[0]))
    assistant = Assistant(dataclasses.replace(real_agent.context, cpu=pool))
    readiness = Readiness(agent_health=assistant.health, cache_s=0)
    step = asyncio.create_task(pool.run("Reading the SQL", spin, 5.0))
    try:
        assert "cpu" not in (await readiness.check()).get("not_ready", [])
        now[0] = 10 * GENEROUS_S
        report = await readiness.check()
        assert "cpu" in report["not_ready"] and "finished no step" in report["cpu"]
        await asyncio.wait_for(step, GENEROUS_S)  # the step ends: the pool moved again
        report = await readiness.check()
        assert report["cpu"] == "up" and "cpu" not in report.get("not_ready", [])
    finally:
        step.cancel()
        await asyncio.gather(step, return_exceptions=True)
        pool.close()
