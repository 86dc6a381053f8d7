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
import threading

import pytest

from bot.health import Readiness, ThreadPoolProbe
from bot.render import actions
from tests.support.bot_server import serving_bot
from tests.support.slack_requests import find_button, mention

GENEROUS_S = 90


def _default_threads() -> int:
    """The size of the pool asyncio gives a loop by default on this machine."""
    with concurrent.futures.ThreadPoolExecutor() as pool:
        return pool._max_workers


@pytest.fixture(scope="module")
async def real_agent(settings):
    from agent.api import Assistant

    assistant = Assistant.from_settings(settings)
    yield assistant
    await assistant.aclose()


async def test_twice_every_pool_of_people_pasting_sql_at_once_are_all_answered(bot_settings, slack, real_agent):
    people = 2 * max(_default_threads(), bot_settings.cpu_workers, bot_settings.warehouse_slots)
    settings = bot_settings.model_copy(update={"user_rate_limit_per_minute": 0, "max_execute_second": GENEROUS_S})
    async with serving_bot(settings, slack, real_agent) as running:
        await asyncio.gather(*(
            running.send.event(mention(f"run this: SELECT {n} AS n FROM airlines", ts=f"70{n:02d}.1", user=f"U-paste-{n}"))
            for n in range(people)
        ))
        await asyncio.wait_for(running.drain(), GENEROUS_S * 2)
        unanswered = [n for n in range(people) if not _offered_run(slack, f"70{n:02d}.1")]
        assert not unanswered, f"{len(unanswered)} of {people} were never offered Run"

        # and the bot still answers the next person as usual
        await running.send.event(mention("run this: SELECT 42 AS n FROM airlines", ts="7100.1", user="U-after"))
        await asyncio.wait_for(running.drain(), GENEROUS_S)
        assert _offered_run(slack, "7100.1")


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
