"""Two real `python -m bot` replicas (HTTP mode) sharing one Redis (a private redis-server) and
one Slack stand-in: a retry landing on the other replica, a confirmation clicked on the other
replica, and a replica killed with SIGKILL in the middle of a turn."""

from __future__ import annotations

import asyncio
import json
import signal

import aiohttp
import pytest
from redis.asyncio import Redis
from tests.support.slack_requests import click, find_button, mention

from tests.durability.replicas import (
    GatedSlack,
    Hold,
    bot_messages,
    is_final,
    start_replica,
    wait_until,
)

pytestmark = pytest.mark.subprocess

JOBS_STREAM = "sda:bot:jobs"


@pytest.fixture(scope="module")
async def gated_slack():
    standin = await GatedSlack().start()
    yield standin
    await standin.close()


@pytest.fixture(scope="module")
async def replicas(private_redis, gated_slack, warehouse, settings, tmp_path_factory):
    session = aiohttp.ClientSession()
    cwd = tmp_path_factory.mktemp("replicas")
    pair = [
        await start_replica(name, slack_api_url=gated_slack.api_url, redis_url=private_redis.url,
                            data_dir=settings.data_dir, cwd=cwd, session=session)
        for name in ("a", "b")
    ]
    await asyncio.gather(*(replica.wait_ready() for replica in pair))
    yield pair
    for replica in pair:
        stderr = await replica.stop()
        assert b"Traceback" not in stderr or replica.process.returncode == -signal.SIGKILL, stderr.decode()[-3000:]
    await session.close()


@pytest.fixture
async def shared_redis(private_redis):
    client = Redis.from_url(private_redis.url)
    yield client
    await client.aclose()


async def settled(shared_redis) -> None:
    """Every accepted job is finished: the stream holds only unfinished work."""
    for _ in range(600):
        if await shared_redis.xlen(JOBS_STREAM) == 0:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("jobs still queued")


async def test_the_same_event_on_both_replicas_gets_one_answer(replicas, gated_slack, shared_redis):
    a, b = replicas
    event = mention("average arrival delay by origin", ts="100.1")
    statuses = await asyncio.gather(
        a.send.event(event, event_id="EvSame"),
        b.send.event(event, event_id="EvSame", retry_num=1),
        b.send.event({**event, "type": "message", "channel_type": "channel"}, event_id="EvSameAsMessage"),
    )
    assert [status for status, _ in statuses] == [200, 200, 200]
    await wait_until(lambda: (msgs := bot_messages(gated_slack, "C1", "100.1")) and is_final(msgs[-1]))
    await settled(shared_redis)
    (answer,) = bot_messages(gated_slack, "C1", "100.1")
    assert is_final(answer)


async def test_a_confirmation_clicked_on_replica_b_resumes_the_session_asked_on_replica_a(
    replicas, gated_slack, shared_redis
):
    a, b = replicas
    assert (await a.send.event(mention("average arrival delay by origin", ts="200.1")))[0] == 200
    question = await wait_until(
        lambda: next((m for m in bot_messages(gated_slack, "C1", "200.1") if find_button(m, "confirm_run")), None)
    )
    run = find_button(question, "confirm_run")
    assert (await b.send.interaction(click("confirm_run", run["value"], message=question, label="Run")))[0] == 200

    def result():
        messages = bot_messages(gated_slack, "C1", "200.1")
        return len(messages) >= 2 and is_final(messages[-1]) and messages[-1]

    answer = await wait_until(result)
    await settled(shared_redis)
    assert not find_button(answer, "retry"), answer["text"]  # an answer, not an error
    assert "origin" in json.dumps(answer["blocks"]).lower()  # the query's result, grouped by origin
    resumes = [c for c in gated_slack.calls_to("chat.postMessage") if c.params.get("text") == "Running it…"]
    assert len(resumes) == 1


async def test_a_replica_killed_mid_turn_still_gets_its_question_answered_once(replicas, gated_slack, shared_redis):
    a, b = replicas
    hold = Hold(method="chat.update", channel="CK")
    gated_slack.holds.append(hold)
    assert (await a.send.event(mention("number of flights by carrier", ts="300.1", channel="CK")))[0] == 200
    await asyncio.wait_for(hold.arrived.wait(), 60)
    victim, survivor = (a, b) if hold.held_by == a.token else (b, a)
    assert hold.held_by == victim.token
    victim.process.send_signal(signal.SIGKILL)
    await victim.process.wait()
    hold.release.set()  # the dead replica's update never lands

    await wait_until(lambda: (msgs := bot_messages(gated_slack, "CK", "300.1")) and is_final(msgs[-1]), tries=900)
    await settled(shared_redis)
    (answer,) = bot_messages(gated_slack, "CK", "300.1")  # the placeholder, updated by the survivor
    assert is_final(answer) and not find_button(answer, "retry")
    assert (await survivor.health())[0] == 200
