"""Acks before agent work (bot/jobs/ack_first.py): a job submitted while requests are being acked is
held until they are out, and a steady stream of requests cannot hold it past the gate's max wait."""

from __future__ import annotations

import asyncio

from bot.jobs.ack_first import AckFirst
from bot.jobs.memory import InProcessJobRunner
from bot.jobs.model import AskJob, Where


def _job(n: int) -> AskJob:
    return AskJob(request_id=f"r{n}", session_id="s", where=Where(channel="C1", thread_ts="1.0", user="U1"), text="q")


async def test_a_job_starts_once_the_acks_in_flight_are_out():
    gate, started = AckFirst(quiet_s=0.01, max_wait_s=5), []

    async def handler(job: AskJob) -> None:
        started.append(job.request_id)

    runner = InProcessJobRunner(handler, gate=gate)
    with gate.acknowledging():  # a request being acked
        await runner.submit(_job(1))
        await runner.submit(_job(2))
        await asyncio.sleep(0.03)
        assert started == [] and runner.depth() == 2  # held, and counted as waiting
    await runner.drain()
    assert started == ["r1", "r2"]  # in the order they came


async def test_a_steady_stream_of_requests_opens_the_gate_after_its_max_wait():
    gate, started = AckFirst(quiet_s=0.05, max_wait_s=0.1), []

    async def handler(job: AskJob) -> None:
        started.append(asyncio.get_running_loop().time())

    runner = InProcessJobRunner(handler, gate=gate)
    loop = asyncio.get_running_loop()
    begun = loop.time()
    with gate.acknowledging():
        await runner.submit(_job(1))
    for _ in range(20):  # a request every 20 ms: never 50 ms quiet
        with gate.acknowledging():
            await asyncio.sleep(0.02)
        if started:
            break
    assert started and started[0] - begun < 0.3
    await runner.drain()


async def test_without_requests_a_job_starts_at_once():
    gate, started = AckFirst(), asyncio.Event()

    async def handler(job: AskJob) -> None:
        started.set()

    runner = InProcessJobRunner(handler, gate=gate)
    await runner.submit(_job(1))
    await asyncio.wait_for(started.wait(), 1)
    await runner.drain()
