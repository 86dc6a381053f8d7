"""The StateStore on Redis: what every replica must agree on, each key with a TTL.

Layout under one prefix: `claim:{key}` (SET NX EX: the first replica wins a delivery or
a click), `thread:{channel}:{ts}` -> session id (its TTL slides with use, like the
session itself), `feedback:{channel}:{ts}` a hash user -> vote, `rate:{key}:{window}` a fixed
window counter, `retry:{job}` a failed job's request for its Retry button, `hold:{key}` a
sorted set of holders scored by when their place lapses (a per-person concurrency cap).

Redis errors are not caught here: the caller (a listener, a worker) decides what the
person is told, and the health monitor notices the outage on its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from redis.asyncio import Redis

from agent.api import SESSION_IDLE_TTL_S
from bot.settings import DEFAULT_KEY_PREFIX
from bot.store.state import Feedback

FEEDBACK_TTL_S = 90 * 24 * 3600

# Drop lapsed places, then take one if the holder has none and there is room; atomic on one key.
_HOLD = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[4])))
return 1
"""


class RedisStateStore:
    def __init__(
        self,
        redis: Redis,
        *,
        prefix: str = DEFAULT_KEY_PREFIX,
        session_ttl_s: int = SESSION_IDLE_TTL_S,
        feedback_ttl_s: int = FEEDBACK_TTL_S,
        clock: Callable[[], float] = time.time,
    ):
        self.redis = redis
        self.prefix = prefix
        self._session_ttl_s = session_ttl_s
        self._feedback_ttl_s = feedback_ttl_s
        # Wall clock, not monotonic: every replica must land a hit in the same window.
        self._clock = clock
        self._hold = redis.register_script(_HOLD)

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def claim(self, key: str, ttl_s: int) -> bool:
        return bool(await self.redis.set(self._key("claim", key), b"1", nx=True, ex=ttl_s))

    async def session_for(self, thread_key: str) -> str | None:
        value = await self.redis.getex(self._key("thread", thread_key), ex=self._session_ttl_s)
        return _text(value)

    async def bind_session(self, thread_key: str, session_id: str) -> None:
        await self.redis.set(self._key("thread", thread_key), session_id, ex=self._session_ttl_s)

    async def record_feedback(self, feedback: Feedback) -> None:
        key = self._key("feedback", feedback.channel, feedback.message_ts)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, feedback.user, feedback.model_dump_json())
            pipe.expire(key, self._feedback_ttl_s)
            await pipe.execute()

    async def feedback_for(self, channel: str, message_ts: str) -> list[Feedback]:
        votes = await self.redis.hgetall(self._key("feedback", channel, message_ts))
        return [Feedback.model_validate_json(v) for v in votes.values()]

    async def count_hit(self, key: str, window_s: int) -> int:
        window = int(self._clock() // window_s)
        counter = self._key("rate", key, str(window))
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(counter)
            pipe.expire(counter, window_s * 2)
            hits, _ = await pipe.execute()
        return int(hits)

    async def save_job(self, job_id: str, payload: str, ttl_s: int) -> None:
        await self.redis.set(self._key("retry", job_id), payload, ex=ttl_s)

    async def load_job(self, job_id: str) -> str | None:
        return _text(await self.redis.get(self._key("retry", job_id)))

    async def hold(self, key: str, holder: str, limit: int, ttl_s: int) -> bool:
        return bool(await self._hold(keys=[self._key("hold", key)], args=[self._clock(), holder, limit, ttl_s]))

    async def release(self, key: str, holder: str) -> None:
        await self.redis.zrem(self._key("hold", key), holder)


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value
