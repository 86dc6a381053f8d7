"""In-process workers for the queue tests: a RedisJobQueue + TurnRunner per worker, each with its own
Redis connection and consumer name, all posting to one Slack stand-in."""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis
from slack_sdk.web.async_client import AsyncWebClient

from bot.jobs import AskJob, Where
from bot.redis_health import RedisHealth
from bot.jobs.redis_streams import RedisJobQueue
from bot.store.redis_ledger import RedisLedger
from bot.store.redis_state import RedisStateStore
from bot.turns import TurnRunner


@dataclass
class Worker:
    queue: RedisJobQueue
    turns: TurnRunner
    redis: Redis

    async def close(self) -> None:
        await self.queue.shutdown(0)
        await self.redis.aclose()


def make_worker(redis_url: str, prefix: str, agent, slack, **queue_options) -> Worker:
    redis = Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=5)
    client = AsyncWebClient(token="xoxb-test", base_url=slack.api_url)
    store = RedisStateStore(redis, prefix=prefix)
    turns = TurnRunner(agent, client, store, ledger=RedisLedger(redis, prefix=prefix), progress_interval_s=0)
    health = RedisHealth(redis, check_every_s=0.2, min_backoff_s=0.05, max_backoff_s=0.2)
    queue = RedisJobQueue(redis, turns, health, prefix=prefix, on_stall=turns.stalled, **queue_options)
    return Worker(queue, turns, redis)


def ask(text: str, ts: str, *, channel: str = "C1", user: str = "U1") -> AskJob:
    return AskJob(
        request_id=f"req-{ts}",
        session_id=f"slack-{channel}-{ts}",
        where=Where(channel=channel, thread_ts=ts, user=user),
        text=text,
    )
