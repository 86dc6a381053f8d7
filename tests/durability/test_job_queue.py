"""The Redis Streams job queue with in-process workers (separate consumers on the real Redis):
one answer per job across workers, bounded concurrency, graceful shutdown that finishes or
hands back running jobs, and a re-run that completes the first run's reply instead of adding one."""

from __future__ import annotations

import asyncio

import pytest
from tests.support.fakes import FakeAgent

from bot.store import ledger
from bot.store.ledger import pack_reply
from tests.durability.workers import ask, make_worker


@pytest.fixture
async def workers(main_redis_url, prefix, slack):
    made = []

    def make(agent, **options):
        worker = make_worker(main_redis_url, prefix, agent, slack, **options)
        made.append(worker)
        return worker

    yield make
    for worker in made:
        await worker.close()


async def wait_for(condition, *, tries: int = 400, pause: float = 0.05) -> None:
    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(pause)
    raise AssertionError("condition not met")


def bot_messages(slack, channel: str, thread_ts: str) -> list[dict]:
    return [m for m in slack.thread(channel, thread_ts) if m.get("bot_id")]


class CountingAgent(FakeAgent):
    """Records how many runs overlap."""

    running: int = 0
    most: int = 0

    async def _events(self, session_id, reply, ctx):
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            async for event in super()._events(session_id, reply, ctx):
                yield event
        finally:
            self.running -= 1


async def test_every_job_is_answered_once_across_two_workers_with_bounded_concurrency(workers, slack):
    agent = CountingAgent(delay_s=0.2)
    a, b = workers(agent, concurrency=2), workers(agent, concurrency=2)
    await a.queue.start()
    await b.queue.start()
    for i in range(8):
        await (a if i % 2 else b).queue.submit(ask(f"question {i}", f"10.{i}"))
    await a.queue.drain()
    assert sorted(text for kind, _, text in agent.calls) == sorted(f"question {i}" for i in range(8))
    for i in range(8):
        (answer,) = bot_messages(slack, "C1", f"10.{i}")
        assert f"question {i}" in answer["text"] and "Working on it" not in answer["text"]
    assert 2 <= agent.most <= 4  # both workers busy, neither above its bound


async def test_shutdown_finishes_a_running_job_within_the_grace_period(workers, slack, redis_client):
    agent = FakeAgent(delay_s=0.5)
    a = workers(agent)
    await a.queue.start()
    await a.queue.submit(ask("slow one", "20.1"))
    await wait_for(lambda: agent.calls)
    await a.queue.shutdown(grace_s=30)
    (answer,) = bot_messages(slack, "C1", "20.1")
    assert "slow one" in answer["text"]
    assert await redis_client.xlen(a.queue.stream) == 0  # acknowledged and gone


async def test_a_job_handed_back_at_shutdown_is_finished_by_another_worker_in_the_same_message(workers, slack):
    agent = FakeAgent(delay_s=3600)  # the first run never ends by itself
    a = workers(agent, lease_s=0.4)
    b = workers(agent, lease_s=0.4)
    await a.queue.start()
    await a.queue.submit(ask("handed back", "30.1"))
    await wait_for(lambda: agent.calls)
    (placeholder,) = bot_messages(slack, "C1", "30.1")
    assert "handed back" not in placeholder["text"]  # still a progress label
    agent.delay_s = 0
    await b.queue.start()
    await a.queue.shutdown(grace_s=0)  # past the grace period: cancelled, un-acked, handed back
    await b.queue.drain()
    assert [kind for kind, _, _ in agent.calls] == ["ask", "ask"]
    (answer,) = bot_messages(slack, "C1", "30.1")
    assert answer["ts"] == placeholder["ts"] and "handed back" in answer["text"]


async def test_a_rerun_after_the_reply_was_computed_delivers_it_without_asking_the_agent_again(workers, slack):
    agent = FakeAgent()
    worker = workers(agent)
    job = ask("already answered", "40.1")
    placeholder = (await worker.turns.client.chat_postMessage(channel="C1", thread_ts="40.1", text="Working on it…"))
    from agent.supervisor.reply import AgentReply

    computed = AgentReply(session_id=job.session_id, text="The computed answer.")
    ledger_ = worker.turns.ledger
    await ledger_.note(job.job_id, ledger.THREAD, b"40.1")
    await ledger_.note(job.job_id, ledger.PLACEHOLDER, placeholder["ts"].encode())
    await ledger_.note(job.job_id, ledger.REPLY, pack_reply(computed))
    await worker.queue.start()
    await worker.queue.submit(job)
    await worker.queue.drain()
    assert agent.calls == []
    (answer,) = bot_messages(slack, "C1", "40.1")
    assert answer["ts"] == placeholder["ts"] and answer["text"].startswith("The computed answer")
    await worker.queue.submit(job)  # a late duplicate of a finished job changes nothing
    await worker.queue.drain()
    assert bot_messages(slack, "C1", "40.1") == [answer] and agent.calls == []
