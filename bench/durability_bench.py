"""Durable jobs bench: throughput of one replica and the time to take over a dead worker's job.

1. Messages per second one replica (one RedisJobQueue + TurnRunner, posting to the Slack
   stand-in) sustains when every agent call takes 1 s (a scripted agent): jobs run
   concurrently, so the rate follows the worker's concurrency, not 1 per second.
2. Time from a worker's SIGKILL (a real subprocess holding the job) to the reply posted by
   another worker, for two lease lengths.

Uses the Redis on 127.0.0.1:6379 under a fresh key prefix, removed afterwards.
Run: python bench/durability_bench.py (--smoke: 0.1 s calls, two small loads, one takeover)
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: benches reuse tests/support

from redis.asyncio import Redis
from slack_sdk.web.async_client import AsyncWebClient
from tests.support.slack_standin import SlackStandIn

from agent.api import AgentReply, ChatContext, Progress
from bot.jobs import AskJob, Where
from bot.redis_health import RedisHealth
from bot.jobs.redis_streams import GROUP, RedisJobQueue
from bot.store.redis_ledger import RedisLedger
from bot.store.redis_state import RedisStateStore
from bot.turns import TurnRunner

REDIS_URL = "redis://127.0.0.1:6379/0"
LLM_SECONDS = 1.0


class ScriptedAgent:
    """One LLM call per turn, each taking `seconds`; the rest of bot/agent_port.py answered trivially."""

    def __init__(self, seconds: float = LLM_SECONDS):
        self.seconds = seconds

    async def _turn(self, session_id: str, text: str, ctx: ChatContext):
        yield Progress(step="invoke_common_agent", status="started", label="Thinking…")
        await asyncio.sleep(self.seconds)
        yield AgentReply(session_id=session_id, text=f"Answer to {text}", request_id=ctx.request_id, llm_calls=1)

    def ask(self, session_id, text, ctx):
        return self._turn(session_id, text, ctx)

    def resume(self, session_id, choice, ctx, edited_sql=None):
        return self._turn(session_id, choice, ctx)

    def run_tool(self, session_id, agent_name, args, ctx):
        return self._turn(session_id, agent_name, ctx)

    async def pending(self, session_id):
        return None

    async def may_answer(self, session_id, ctx):
        return True

    def suggested_prompts(self, n=4, context=None):
        return []

    async def health(self):
        return {"warehouse": "up", "wedged": False}


def job(i: int, channel: str = "C1") -> AskJob:
    ts = f"{1000 + i}.1"
    return AskJob(request_id=f"r{i}", session_id=f"s-{channel}-{i}",
                    where=Where(channel=channel, thread_ts=ts, user="U1"), text=f"q{i}")


def worker(redis: Redis, prefix: str, slack: SlackStandIn, seconds: float = LLM_SECONDS, **options) -> RedisJobQueue:
    client = AsyncWebClient(token="xoxb-bench", base_url=slack.api_url)
    turns = TurnRunner(ScriptedAgent(seconds), client, RedisStateStore(redis, prefix=prefix),
                       ledger=RedisLedger(redis, prefix=prefix), progress_interval_s=0.2)
    return RedisJobQueue(redis, turns, RedisHealth(redis), prefix=prefix, **options)


async def throughput(redis: Redis, slack: SlackStandIn, concurrency: int, jobs: int, seconds: float) -> float:
    prefix = f"sda:bench:{uuid.uuid4().hex}:"
    queue = worker(redis, prefix, slack, seconds, concurrency=concurrency)
    await queue.start()
    try:
        started = time.perf_counter()
        for i in range(jobs):
            await queue.submit(job(i, channel=f"T{concurrency}"))
        await queue.drain()
        return jobs / (time.perf_counter() - started)
    finally:
        await queue.shutdown(0)
        await _delete(redis, prefix)


async def takeover_seconds(redis: Redis, slack: SlackStandIn, lease_s: float, run: int, seconds: float) -> float:
    prefix = f"sda:bench:{uuid.uuid4().hex}:"
    doomed = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--hang-worker", prefix, str(lease_s),
    )
    survivor = worker(redis, prefix, slack, seconds, lease_s=lease_s)
    try:
        stream = f"{prefix}jobs"
        while not await redis.exists(stream):  # the doomed worker has created the group
            _alive(doomed)
            await asyncio.sleep(0.05)
        await survivor.submit(job(run, channel=f"K{lease_s}"))
        while not (await redis.xpending(stream, GROUP))["pending"]:  # the doomed worker holds it
            _alive(doomed)
            await asyncio.sleep(0.02)
        await survivor.start()
        doomed.send_signal(signal.SIGKILL)
        await doomed.wait()
        killed = time.perf_counter()
        await survivor.drain()
        return time.perf_counter() - killed
    finally:
        if doomed.returncode is None:  # the bench failed before the kill: no worker is left behind
            doomed.kill()
            await doomed.wait()
        await survivor.shutdown(0)
        await _delete(redis, prefix)


def _alive(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        raise SystemExit(f"the worker to be killed exited by itself (status {process.returncode})")


async def _delete(redis: Redis, prefix: str) -> None:
    keys = [key async for key in redis.scan_iter(match=f"{prefix}*", count=1000)]
    if keys:
        await redis.delete(*keys)


async def hang_worker(prefix: str, lease_s: float) -> None:
    """The worker to be killed: takes jobs and never finishes them."""
    redis = Redis.from_url(REDIS_URL)

    async def hang(_: AskJob) -> None:
        await asyncio.Event().wait()

    queue = RedisJobQueue(redis, hang, RedisHealth(redis), prefix=prefix, lease_s=lease_s)
    await queue.start()
    await asyncio.Event().wait()


async def main(smoke: bool) -> None:
    seconds = 0.1 if smoke else LLM_SECONDS
    loads = [(1, 2), (4, 8)] if smoke else [(1, 4), (4, 16), (16, 64), (32, 128)]
    leases, runs = ((1.0,), 1) if smoke else ((2.0, 10.0), 3)
    redis = Redis.from_url(REDIS_URL)
    slack = await SlackStandIn().start()
    try:
        print(f"one replica, scripted agent taking {seconds:g} s per call")
        print(f"{'concurrency':>11} {'jobs':>5} {'msgs/s':>7}")
        for concurrency, jobs in loads:
            rate = await throughput(redis, slack, concurrency, jobs, seconds)
            print(f"{concurrency:>11} {jobs:>5} {rate:>7.1f}")
        print("\ntime from SIGKILL of the worker holding a job to its reply by another worker")
        for lease_s in leases:
            times = [await takeover_seconds(redis, slack, lease_s, run, seconds) for run in range(runs)]
            print(f"lease {lease_s:>4.0f} s: median {statistics.median(times):.2f} s "
                  f"(min {min(times):.2f}, max {max(times):.2f}, {runs} runs)")
    finally:
        await slack.close()
        await redis.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hang-worker", nargs=2, metavar=("PREFIX", "LEASE_S"), help=argparse.SUPPRESS)
    parser.add_argument("--smoke", action="store_true", help="0.1 s calls, two small loads, one takeover")
    args = parser.parse_args()
    if args.hang_worker:
        asyncio.run(hang_worker(args.hang_worker[0], float(args.hang_worker[1])))
    else:
        asyncio.run(main(args.smoke))
