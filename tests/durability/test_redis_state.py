"""RedisStateStore against the real Redis: the StateStore contract, shared by two store objects
(two replicas), every key with a TTL."""

from __future__ import annotations

import pytest

from bot.store.redis_state import RedisStateStore
from bot.store.state import Feedback


@pytest.fixture
def stores(redis_client, prefix):
    return RedisStateStore(redis_client, prefix=prefix), RedisStateStore(redis_client, prefix=prefix)


async def _ttls(redis_client, prefix) -> dict[bytes, int]:
    return {key: await redis_client.ttl(key) async for key in redis_client.scan_iter(match=f"{prefix}*")}


async def test_a_delivery_is_claimed_by_one_replica_only(stores, redis_client, prefix):
    a, b = stores
    assert await a.claim("msg:C1:1.1", 60) is True
    assert await b.claim("msg:C1:1.1", 60) is False
    assert await b.claim("msg:C1:1.2", 60) is True
    ttls = await _ttls(redis_client, prefix)
    assert ttls and all(0 < ttl <= 60 for ttl in ttls.values())


async def test_thread_session_and_an_answer_claim_are_shared_and_taken_once(stores):
    a, b = stores
    assert await b.session_for("C1:5.5") is None
    await a.bind_session("C1:5.5", "slack-C1-5.5")
    assert await b.session_for("C1:5.5") == "slack-C1-5.5"
    # the first answer to a pending question claims it on one replica; the other replica's is refused
    assert await b.claim("answer:slack-C1-5.5:q1", 60) is True
    assert await a.claim("answer:slack-C1-5.5:q1", 60) is False


async def test_rate_limit_counts_hits_from_every_replica_in_one_window(stores):
    a, b = stores
    counts = [await (a if i % 2 else b).count_hit("rate:U1", 60) for i in range(5)]
    assert counts == [1, 2, 3, 4, 5]
    assert await a.count_hit("rate:U2", 60) == 1


async def test_a_window_ends(redis_client, prefix):
    now = [1000.0]
    store = RedisStateStore(redis_client, prefix=prefix, clock=lambda: now[0])
    assert [await store.count_hit("rate:U1", 60) for _ in range(3)] == [1, 2, 3]
    now[0] += 60
    assert await store.count_hit("rate:U1", 60) == 1


async def test_feedback_keeps_the_latest_vote_per_person(stores, redis_client, prefix):
    a, b = stores
    vote = Feedback(session_id="s", message_ts="7.7", channel="C1", user="U1", vote="up")
    await a.record_feedback(vote)
    await b.record_feedback(vote.model_copy(update={"vote": "down"}))
    await b.record_feedback(vote.model_copy(update={"user": "U2"}))
    votes = sorted((f.user, f.vote) for f in await a.feedback_for("C1", "7.7"))
    assert votes == [("U1", "down"), ("U2", "up")]
    assert all(ttl > 0 for ttl in (await _ttls(redis_client, prefix)).values())


async def test_a_failed_job_can_be_retried_from_another_replica(stores):
    a, b = stores
    await a.save_job("job1", '{"x": 1}', 60)
    assert await b.load_job("job1") == '{"x": 1}'
    assert await b.load_job("nope") is None
