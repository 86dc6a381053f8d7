"""The in-process store, the job runner and progress throttling, each on its own."""

from __future__ import annotations

import asyncio

from bot.delivery import ThreadDelivery
from bot.jobs import AskJob, Where
from bot.jobs.memory import InProcessJobRunner
from bot.store.state import Feedback, InMemoryStateStore
from slack_sdk.web.async_client import AsyncWebClient


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


async def test_claim_once_until_ttl_passes():
    clock = Clock()
    store = InMemoryStateStore(clock=clock)
    assert await store.claim("k", 10) and not await store.claim("k", 10)
    clock.now += 11
    assert await store.claim("k", 10)


async def test_rate_counter_resets_each_window_and_feedback_replaces_a_vote():
    clock = Clock()
    store = InMemoryStateStore(clock=clock)
    assert [await store.count_hit("u", 60) for _ in range(3)] == [1, 2, 3]
    clock.now += 60
    assert await store.count_hit("u", 60) == 1
    for vote in ("up", "down"):
        await store.record_feedback(Feedback(session_id="s", message_ts="1", channel="C", user="U", vote=vote))
    assert [f.vote for f in store.feedback.values()] == ["down"]


async def test_without_redis_only_the_latest_votes_are_kept():
    store = InMemoryStateStore(max_feedback=3)
    for ts in ("1", "2", "3", "4"):
        await store.record_feedback(Feedback(session_id="s", message_ts=ts, channel="C", user="U", vote="up"))
    await store.record_feedback(Feedback(session_id="s", message_ts="2", channel="C", user="U", vote="down"))
    await store.record_feedback(Feedback(session_id="s", message_ts="5", channel="C", user="U", vote="up"))
    assert [(f.message_ts, f.vote) for f in store.feedback.values()] == [("4", "up"), ("2", "down"), ("5", "up")]


async def test_saved_jobs_expire():
    clock = Clock()
    store = InMemoryStateStore(clock=clock)
    await store.save_job("j", "{}", 5)
    assert await store.load_job("j") == "{}"
    clock.now += 6
    assert await store.load_job("j") is None


async def test_a_threads_session_is_forgotten_once_idle_and_each_use_renews_it():
    """As the Redis store's thread key, whose TTL slides with use (SESSION_IDLE_TTL_S)."""
    clock = Clock()
    store = InMemoryStateStore(clock=clock, session_ttl_s=60)
    await store.bind_session("C:1", "s1")
    await store.bind_session("C:2", "s2")
    clock.now += 50
    assert await store.session_for("C:1") == "s1"  # used: idle from now
    clock.now += 50
    assert await store.session_for("C:1") == "s1"
    assert await store.session_for("C:2") is None  # idle 100 s
    clock.now += 61
    assert await store.session_for("C:1") is None
    assert store.threads == 0


async def test_past_the_cap_the_least_recently_used_thread_is_forgotten():
    clock = Clock()
    store = InMemoryStateStore(clock=clock, max_threads=2)
    await store.bind_session("C:a", "sa")
    await store.bind_session("C:b", "sb")
    assert await store.session_for("C:a") == "sa"  # a used again: b is the least recent
    await store.bind_session("C:c", "sc")
    assert store.threads == 2
    assert await store.session_for("C:b") is None
    assert await store.session_for("C:a") == "sa" and await store.session_for("C:c") == "sc"


async def test_the_store_stays_bounded_over_many_threads_and_failed_jobs():
    clock = Clock()
    store = InMemoryStateStore(clock=clock, max_threads=50)
    for n in range(5_000):
        await store.bind_session(f"C:{n}", f"s{n}")
        await store.save_job(f"job-{n}", "{}", 5)  # a failed answer's retry copy
        clock.now += 1
    assert store.threads == 50
    assert len(store._jobs) <= 1_000


async def test_the_runtime_bounds_its_store_by_the_sessions_settings(bot_settings, fake_agent):
    from bot.runtime import build_runtime

    settings = bot_settings.model_copy(update={"session_idle_ttl_s": 120, "memory_sessions_max": 7, "redis_url": None})
    runtime = build_runtime(settings, fake_agent)
    try:
        assert isinstance(runtime.store, InMemoryStateStore)
        assert runtime.store.session_ttl_s == 120 and runtime.store.max_threads == 7
    finally:
        await runtime.close()


async def test_drain_waits_for_jobs_submitted_while_draining_and_survives_a_crash():
    done = []
    runner: InProcessJobRunner

    async def handler(job: AskJob):
        await asyncio.sleep(0)
        if job.text == "boom":
            raise RuntimeError("crash")
        if job.text == "first":
            await runner.submit(job.model_copy(update={"text": "second"}))
        done.append(job.text)

    runner = InProcessJobRunner(handler)
    where = Where(channel="C", thread_ts="1", user="U")
    await runner.submit(AskJob(request_id="r", where=where, text="boom"))
    await runner.submit(AskJob(request_id="r", where=where, text="first"))
    await runner.drain()
    assert done == ["first", "second"]


class RecordingClient(AsyncWebClient):
    def __init__(self):
        super().__init__(token="x")
        self.sent = []

    async def chat_postMessage(self, **kwargs):
        self.sent.append(("post", kwargs["text"]))
        return {"ts": "9.9"}

    async def chat_update(self, **kwargs):
        self.sent.append(("update", kwargs["text"]))
        return {"ts": kwargs["ts"]}


async def test_progress_updates_are_throttled_to_one_per_interval():
    clock, client = Clock(), RecordingClient()
    delivery = ThreadDelivery(client, "C", "1.1", clock=clock, min_interval_s=1.0)
    await delivery.start("Working on it…")
    await delivery.progress("Finding tables…")  # same instant: skipped
    clock.now += 1.5
    await delivery.progress("Writing SQL…")
    await delivery.progress("Running the query…")  # too soon again
    clock.now += 1.5
    await delivery.progress("Writing SQL…")  # unchanged label: skipped
    assert client.sent == [("post", "Working on it…"), ("update", "Writing SQL…")]
