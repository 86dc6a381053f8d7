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


async def test_saved_jobs_expire():
    clock = Clock()
    store = InMemoryStateStore(clock=clock)
    await store.save_job("j", "{}", 5)
    assert await store.load_job("j") == "{}"
    clock.now += 6
    assert await store.load_job("j") is None


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
