"""One person's stuck requests and hostile HTTP input must not take the bot down for everyone.

Through the bot's real endpoint: malformed bodies get a 400 and no traceback; one person
holds at most USER_CONCURRENCY runs and everyone else is still answered (in-process and
Redis job paths); /readyz turns 503 while the agent is wedged or the event loop lags,
/livez stays 200, /healthz follows /readyz.
"""

from __future__ import annotations

import asyncio
import logging
import time

import aiohttp
import pytest
from aiohttp import web

from bot.health import LoopLag, Readiness
from bot.http_server import build_web_app
from bot.jobs import AskJob, Where
from bot.slack_client import build_web_client
from bot.store.state import InMemoryStateStore
from bot.turns import TurnRunner
from tests.support.bot_server import serving_bot
from tests.support.slack_requests import mention, signature

GENEROUS_S = 60


def answered(slack, ts: str) -> bool:
    """The placeholder was replaced by an answer or a refusal (not just a progress label)."""
    thread = slack.thread("C1", ts)
    return bool(thread) and any(words in thread[-1]["text"] for words in ("Here is SQL", "You already have"))


async def until(condition, timeout_s: float = GENEROUS_S) -> None:
    for _ in range(int(timeout_s * 20)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("condition not met in time")


# -- hostile bodies -------------------------------------------------------------------------------

MALFORMED = [
    ("application/json", b'{"type": "event_callback", "event": '),
    ("application/json", b"[1, 2, 3]"),
    ("application/x-www-form-urlencoded", b"payload=%7Bnot-json"),
    ("application/x-www-form-urlencoded", b"payload=%5B1%2C2%5D"),
    ("application/x-www-form-urlencoded", b"{broken"),
    ("application/x-www-form-urlencoded", b"\xff\xfe\xfa"),
    ("text/plain", b"&&&=="),
]


@pytest.mark.parametrize(("content_type", "body"), MALFORMED)
async def test_malformed_bodies_get_400_without_a_traceback(bot, content_type, body, caplog):
    ts = str(int(time.time()))
    headers = {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": signature(bot.send.secret, ts, body.decode("utf-8", "replace")),
    }
    with caplog.at_level(logging.INFO):
        async with bot.send.session.post(bot.send.url, data=body, headers=headers) as response:
            assert response.status == 400, await response.text()
            assert "error" in await response.json()
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    status, _ = await bot.send.event(mention("still answering?", ts="300.1"))
    assert status == 200


async def test_an_unsigned_body_of_the_wrong_shape_is_refused_without_a_traceback(bot, caplog):
    body = b'{"type": "event_callback", "event": "not an object", "team_id": 5, "user": []}'
    with caplog.at_level(logging.INFO):
        async with bot.send.session.post(bot.send.url, data=body, headers={"Content-Type": "application/json"}) as r:
            assert r.status in (400, 401)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


# -- fair sharing -----------------------------------------------------------------------------------


async def test_one_person_holds_at_most_their_share_and_others_are_answered(bot_settings, slack, fake_agent):
    settings = bot_settings.model_copy(update={"user_concurrency": 2, "user_queue_max": 1})
    async with serving_bot(settings, slack, fake_agent) as running:
        await check_fair_sharing(running, fake_agent, slack)


async def test_fair_sharing_holds_on_the_redis_job_queue(bot_settings, slack, fake_agent, redis_url, redis_prefix):
    settings = bot_settings.model_copy(update={"user_concurrency": 2, "user_queue_max": 1, "redis_url": redis_url})
    # A queued request holds its worker while it waits: room for the colleague beside the three.
    options = {"prefix": redis_prefix, "concurrency": 5, "read_block_ms": 100}
    async with serving_bot(settings, slack, fake_agent, redis_options=options) as running:
        await check_fair_sharing(running, fake_agent, slack)


def last_text(slack, ts: str) -> str:
    thread = slack.thread("C1", ts)
    return thread[-1]["text"] if thread else ""


async def check_fair_sharing(running, fake_agent, slack) -> None:
    """Two stuck runs of one person, a third queued with how many are ahead of it, a fourth (past the
    queue of one) refused at once, a colleague answered meanwhile; once unstuck, the queued one too."""
    fake_agent.stuck_users.add("U-stuck")
    try:
        for n in (1, 2):
            await running.send.event(mention(f"stuck question {n}", ts=f"40{n}.1", user="U-stuck"))
        await until(lambda: fake_agent.stuck_runs == 2)

        await running.send.event(mention("one more from the same person", ts="403.1", user="U-stuck"))
        await until(lambda: "Queued, 2 ahead of you" in last_text(slack, "403.1"))
        await running.send.event(mention("and another", ts="405.1", user="U-stuck"))
        await until(lambda: answered(slack, "405.1"))
        assert "You already have 2 requests running and 1 waiting" in last_text(slack, "405.1")
        assert fake_agent.stuck_runs == 2

        await running.send.event(mention("a colleague's question", ts="404.1", user="U-other"))
        await until(lambda: answered(slack, "404.1"))
        assert "Here is SQL" in last_text(slack, "404.1")
        assert not answered(slack, "401.1") and not answered(slack, "402.1") and not answered(slack, "403.1")
    finally:
        fake_agent.unstick.set()
    await until(lambda: all(answered(slack, ts) for ts in ("401.1", "402.1", "403.1")))
    assert "Here is SQL" in last_text(slack, "403.1")


async def test_redis_places_are_shared_and_lapse(redis_client, redis_prefix):
    from bot.store.redis_state import RedisStateStore

    now = [1000.0]
    store = RedisStateStore(redis_client, prefix=redis_prefix, clock=lambda: now[0])
    other_replica = RedisStateStore(redis_client, prefix=redis_prefix, clock=lambda: now[0])
    assert await store.hold("running:U1", "job-a", 2, 60)
    assert await other_replica.hold("running:U1", "job-b", 2, 60)
    assert not await store.hold("running:U1", "job-c", 2, 60)
    assert await store.hold("running:U1", "job-a", 2, 60)  # a re-delivered job keeps its place
    await other_replica.release("running:U1", "job-b")
    assert await store.hold("running:U1", "job-c", 2, 60)
    now[0] += 61  # the holders' workers died: their places lapse
    assert await store.hold("running:U1", "job-d", 2, 60)


# -- health -----------------------------------------------------------------------------------------


async def serve(app: web.Application):
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"


async def statuses(session: aiohttp.ClientSession, url: str) -> dict[str, int]:
    result = {}
    for path in ("/livez", "/readyz", "/healthz"):
        async with session.get(url + path) as response:
            result[path] = response.status
    return result


async def test_readyz_flips_while_wedged_and_while_the_loop_lags(bot, fake_agent):
    readiness = Readiness(agent_health=fake_agent.health, lag=LoopLag(interval_s=0.05), lag_limit_s=0.3, cache_s=0)
    runner, url = await serve(build_web_app(bot.runtime.app, readiness))
    try:
        async with aiohttp.ClientSession() as session:
            assert await statuses(session, url) == {"/livez": 200, "/readyz": 200, "/healthz": 200}

            fake_agent.wedged = True
            assert await statuses(session, url) == {"/livez": 200, "/readyz": 503, "/healthz": 503}
            async with session.get(url + "/readyz") as response:
                assert (await response.json())["not_ready"] == ["wedged"]
            assert readiness.state["wedged"] is True and readiness.state["ready"] is False
            fake_agent.wedged = False
            assert (await statuses(session, url))["/readyz"] == 200

            time.sleep(1.0)  # noqa: ASYNC251 - blocking the event loop on purpose, as CPU work on it would
            await asyncio.sleep(0.1)  # let the lag probe wake up late and record it
            async with session.get(url + "/readyz") as response:
                assert response.status == 503
                body = await response.json()
            assert "loop_lag" in body["not_ready"] and body["loop_lag_s"] > 0.3
            assert readiness.state["loop_lag_seconds"] > 0.3
            for _ in range(GENEROUS_S * 10):  # the lag window slides past the stall
                if (await statuses(session, url))["/readyz"] == 200:
                    break
                await asyncio.sleep(0.1)
            assert (await statuses(session, url))["/readyz"] == 200
    finally:
        await runner.cleanup()


async def test_readyz_right_after_a_stall_says_so_even_from_its_cache(bot, fake_agent):
    """The request that waited behind a stall is answered before the lag probe wakes again, and a
    report checked a moment before said ready: it must still say the loop lagged, and by how much."""
    readiness = Readiness(agent_health=fake_agent.health, lag=LoopLag(interval_s=0.05, window_s=0.4), lag_limit_s=0.3, cache_s=60)
    readiness.start()
    try:
        await asyncio.sleep(0.2)
        assert (await readiness.check())["ready"] is True
        time.sleep(1.0)  # noqa: ASYNC251 - CPU work holding the event loop, as a burst's would
        report = await readiness.check()  # cached, and the probe has not run since the stall
        assert report["ready"] is False and report["not_ready"] == ["loop_lag"]
        assert report["loop_lag_s"] >= 0.9 and readiness.state["loop_lag_seconds"] >= 0.9
        assert readiness.state["ready"] is False
        await asyncio.sleep(0.05 * 10)  # the probe's window slides past the stall
        report = await readiness.check()
        assert report["ready"] is True and report["loop_lag_s"] < 0.3 and "not_ready" not in report
    finally:
        await readiness.close()


async def test_the_lag_probe_measures_late_wake_ups_and_owes_nothing_once_closed():
    lag = LoopLag(interval_s=0.02, window_s=0.06)
    lag.start()
    await asyncio.sleep(0.1)
    assert lag.lag_s < 0.1
    time.sleep(0.3)  # noqa: ASYNC251
    assert lag.lag_s >= 0.25  # owed, before the probe has woken
    await asyncio.sleep(0.01)
    assert lag.lag_s >= 0.25  # measured, once it has
    await lag.close()
    await asyncio.sleep(0.05)
    assert lag.lag_s >= 0.25  # what it last measured; nothing owed grows after close
    assert lag._due is None


async def test_the_default_probe_sees_a_stall_that_begins_while_it_sleeps():
    """What a request arriving during the stall waits: within one probe interval of the stall's length."""
    lag = LoopLag()
    lag.start()
    try:
        await asyncio.sleep(0.12)  # the probe is somewhere in its sleep
        time.sleep(0.3)  # noqa: ASYNC251 - a stall on the loop
        await asyncio.sleep(0.01)
        assert lag.lag_s >= 0.24  # a 250 ms sleeper, woken 0.13 s into the stall, said 0.17
    finally:
        await lag.close()


async def test_readyz_reports_job_slots_stuck_past_their_deadline(bot_settings, fake_agent):
    now = [0.0]
    turns = TurnRunner(fake_agent, build_web_client(bot_settings), InMemoryStateStore(), clock=lambda: now[0])
    fake_agent.stuck_users.add("U-stuck")
    job = AskJob(request_id="r1", session_id="s1", where=Where(channel="C1", thread_ts="600.1", user="U-stuck"))
    running = asyncio.create_task(turns(job))
    try:
        await until(lambda: fake_agent.stuck_runs == 1)
        readiness = Readiness(agent_health=fake_agent.health, jobs_wedged=lambda: turns.overdue(100) >= 1, cache_s=0)
        assert (await readiness.check())["ready"] is True
        now[0] += 101  # the run is past its deadline and still holds its slot
        report = await readiness.check()
        assert report["ready"] is False and report["not_ready"] == ["jobs_wedged"]
    finally:
        fake_agent.unstick.set()
        await asyncio.wait_for(running, GENEROUS_S)
    assert turns.overdue(100) == 0 and (await readiness.check())["ready"] is True


async def test_named_checks_join_the_report():
    problem: list[str | None] = [None]

    async def slack() -> str | None:
        return problem[0]

    readiness = Readiness(agent_health=None, checks={"slack": slack}, cache_s=0)
    assert (await readiness.check())["ready"] is True
    problem[0] = "invalid_auth"
    report = await readiness.check()
    assert report["ready"] is False and report["slack"] == "invalid_auth" and report["not_ready"] == ["slack"]


async def test_readiness_checks_are_cached_and_shared():
    calls = 0

    async def agent_health():
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)
        return {"warehouse": "up", "wedged": False}

    readiness = Readiness(agent_health=agent_health, cache_s=60)
    reports = await asyncio.gather(*(readiness.check() for _ in range(5)))
    await readiness.check()
    assert calls == 1 and all(r["ready"] for r in reports)
