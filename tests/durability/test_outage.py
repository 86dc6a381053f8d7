"""Redis stopped and started under a running replica (a private redis-server, no persistence):
/healthz degrades and recovers, people are told while it is down, the job in flight when it
went away is finished once it is back, and the replica takes new work again by itself."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from tests.support.slack_requests import mention

from bot.outage import UNAVAILABLE
from bot.turns import SERVICE_STALLED
from tests.durability.conftest import PrivateRedis
from tests.durability.replicas import (
    GatedSlack,
    Hold,
    bot_messages,
    is_final,
    replicas_running,
    wait_until,
)

pytestmark = pytest.mark.subprocess


@pytest.fixture
async def outage_setup(warehouse, settings, tmp_path):
    redis_server = await PrivateRedis(tmp_path).start()
    slack = await GatedSlack().start()
    session = aiohttp.ClientSession()
    try:  # whatever fails, nothing this fixture started outlives it
        async with replicas_running(["solo"], slack_api_url=slack.api_url, redis_url=redis_server.url,
                                    data_dir=settings.data_dir, cwd=tmp_path, session=session) as (replica,):
            yield redis_server, slack, replica
            stderr = await replica.stop()
            assert replica.process.returncode == 0
            assert b"Traceback" not in stderr, stderr.decode()[-3000:]
    finally:
        redis_server.stop()
        await slack.close()
        await session.close()


async def wait_health(replica, status: int) -> dict:
    async def check():
        code, body = await replica.health()
        return body if code == status else None

    for _ in range(300):
        if body := await check():
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"/healthz never answered {status}")


async def test_redis_outage_degrades_tells_people_and_recovers_without_losing_work(outage_setup):
    redis_server, slack, replica = outage_setup
    assert {"ok": True, "redis": "up", "warehouse": "up"}.items() <= (await wait_health(replica, 200)).items()

    # A question in flight when Redis goes away: its placeholder reaches Slack only once Redis is down.
    hold = Hold(method="chat.postMessage", channel="CO", apply_after_release=True)
    slack.holds.append(hold)
    assert (await replica.send.event(mention("average arrival delay by origin", ts="500.1", channel="CO")))[0] == 200
    await asyncio.wait_for(hold.arrived.wait(), 60)
    redis_server.stop()
    down = await wait_health(replica, 503)
    assert {"ok": False, "redis": "down", "warehouse": "up"}.items() <= down.items() and down["not_ready"] == ["redis"]
    hold.release.set()

    # A new question while Redis is down: acknowledged, and the person is told at once (once).
    status, _ = await replica.send.event(mention("flights by carrier", ts="501.1", channel="C2"))
    assert status == 200
    await replica.send.event(
        {**mention("flights by carrier", ts="501.1", channel="C2"), "type": "message", "channel_type": "channel"}
    )
    told = await wait_until(lambda: [c for c in slack.calls_to("chat.postEphemeral") if c.params["channel"] == "C2"])
    assert len(told) == 1 and told[0].params["text"] == UNAVAILABLE and told[0].params["user"] == "U1"
    status, body = await replica.send.command("/fixsql", "SELEC 1")
    assert status == 200 and UNAVAILABLE in body

    # The held question shows that it waits rather than failing.
    await wait_until(lambda: any(m["text"] == SERVICE_STALLED for m in bot_messages(slack, "CO", "500.1")))

    await redis_server.start()  # back, and empty (no persistence)
    assert {"ok": True, "redis": "up", "warehouse": "up"}.items() <= (await wait_health(replica, 200)).items()
    answer = await wait_until(
        lambda: (msgs := bot_messages(slack, "CO", "500.1")) and is_final(msgs[-1]) and msgs, tries=600
    )
    assert len(answer) == 1, [m["text"] for m in answer]  # the placeholder itself became the answer

    # New work flows again: the consumer group was recreated by itself.
    assert (await replica.send.event(mention("average arrival delay by origin", ts="502.1", channel="C3")))[0] == 200
    (later,) = await wait_until(lambda: (msgs := bot_messages(slack, "C3", "502.1")) and is_final(msgs[-1]) and msgs)
    assert is_final(later)
