"""The JobLedger on Redis: one hash per job (`job:{id}`), shared by every replica, kept a day.

A write-through copy stays in this process while the job is in flight: when Redis comes
back empty after an outage (no persistence), the worker still knows its placeholder
message and reuses it instead of posting a second one.
"""

from __future__ import annotations

from collections import OrderedDict

from redis.asyncio import Redis

from bot.redis_health import UNREACHABLE
from bot.settings import DEFAULT_KEY_PREFIX

LEDGER_TTL_S = 24 * 3600
_LOCAL_JOBS = 10_000


class RedisLedger:
    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_KEY_PREFIX, ttl_s: int = LEDGER_TTL_S):
        self.redis = redis
        self.prefix = prefix
        self._ttl_s = ttl_s
        self._local: OrderedDict[str, dict[str, bytes]] = OrderedDict()

    def _key(self, job_id: str) -> str:
        return f"{self.prefix}job:{job_id}"

    def _remember(self, job_id: str, steps: dict[str, bytes]) -> None:
        self._local.setdefault(job_id, {}).update(steps)
        self._local.move_to_end(job_id)
        while len(self._local) > _LOCAL_JOBS:
            self._local.popitem(last=False)

    async def steps(self, job_id: str) -> dict[str, bytes]:
        stored = await self.redis.hgetall(self._key(job_id))
        steps = {**self._local.get(job_id, {}), **{_text(k): _bytes(v) for k, v in stored.items()}}
        self._remember(job_id, steps)
        return steps

    async def note(self, job_id: str, step: str, value: bytes = b"1") -> None:
        self._remember(job_id, {step: value})
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._key(job_id), step, value)
            pipe.expire(self._key(job_id), self._ttl_s)
            await pipe.execute()

    async def note_first(self, job_id: str, step: str, value: bytes) -> bytes:
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hsetnx(self._key(job_id), step, value)
                pipe.hget(self._key(job_id), step)
                pipe.expire(self._key(job_id), self._ttl_s)
                _, standing, _ = await pipe.execute()
        except UNREACHABLE:
            # What was done in Slack stays done: this process keeps knowing it until Redis is back.
            self._local.setdefault(job_id, {}).setdefault(step, value)
            raise
        self._remember(job_id, {step: _bytes(standing)})
        return _bytes(standing)

    def cached(self, job_id: str) -> dict[str, bytes]:
        return dict(self._local.get(job_id, {}))

    async def forget(self, job_id: str) -> None:
        self._local.pop(job_id, None)


def _text(key: bytes | str) -> str:
    return key.decode() if isinstance(key, bytes) else key


def _bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()
