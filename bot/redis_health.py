"""Is Redis reachable? One monitor per process: readiness (/readyz) reads it, workers wait on it.

Anyone who sees a connection error reports it; the monitor then probes with a growing
backoff until a PING answers, and wakes everyone waiting for Redis to come back.
"""

from __future__ import annotations

import asyncio
import logging

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

# What "Redis is unreachable" looks like from redis-py; anything else is a real error.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)


class RedisHealth:
    def __init__(
        self,
        redis: Redis,
        *,
        check_every_s: float = 2.0,
        min_backoff_s: float = 0.2,
        max_backoff_s: float = 5.0,
        ping_timeout_s: float = 1.0,
    ):
        self.redis = redis
        self._check_every_s = check_every_s
        self._min_backoff_s = min_backoff_s
        self._max_backoff_s = max_backoff_s
        self._ping_timeout_s = ping_timeout_s
        self._up = asyncio.Event()
        self._up.set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def up(self) -> bool:
        return self._up.is_set()

    def report(self, error: BaseException) -> None:
        """Someone's Redis call failed to connect: go degraded now, not at the next probe."""
        if self._up.is_set():
            log.error("Redis is unreachable (%s); degraded until it answers again", error)
        self._up.clear()
        self._wake.set()

    async def wait_up(self) -> None:
        await self._up.wait()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._monitor(), name="redis-health")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def probe(self) -> bool:
        try:
            await asyncio.wait_for(self.redis.ping(), self._ping_timeout_s)
        except (*UNREACHABLE, TimeoutError) as exc:
            self.report(exc)
            return False
        if not self._up.is_set():
            log.warning("Redis answers again; leaving degraded mode")
            self._up.set()
        return True

    async def _monitor(self) -> None:
        backoff = self._min_backoff_s
        while True:
            if await self.probe():
                backoff = self._min_backoff_s
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self._check_every_s)
                except TimeoutError:
                    pass
            else:
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self._max_backoff_s)
