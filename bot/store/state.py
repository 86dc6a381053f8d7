"""What the bot remembers between requests, behind one narrow protocol.

In-process now (one process only); a Redis implementation plugs in behind the same
methods, so nothing else in bot/ knows where state lives.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pydantic import BaseModel

from agent.api import SESSION_IDLE_TTL_S

# Without Redis: threads whose session this process remembers (MEMORY_SESSIONS_MAX in the runtime),
# as the agent keeps at most that many sessions; retry copies of failed jobs are swept past this many.
MAX_THREADS = 300
SWEEP_JOBS_FROM = 1_000
# Without Redis: the latest votes kept (Redis keeps each answer's for FEEDBACK_TTL_S). Nothing in the process
# reads them back, and every vote is in the log; about a kilobyte each.
MAX_FEEDBACK = 1_000


class Feedback(BaseModel):
    """One person's 👍/👎 on one answer; a later vote by the same person replaces it."""

    session_id: str
    message_ts: str
    channel: str
    user: str
    vote: Literal["up", "down"]
    request_id: str | None = None
    reason: str | None = None  # what was wrong, when the person said after a thumbs-down


class StateStore(Protocol):
    async def claim(self, key: str, ttl_s: int) -> bool:
        """True for the first caller only (until the TTL passes): dedupe of deliveries and clicks."""

    async def session_for(self, thread_key: str) -> str | None: ...

    async def bind_session(self, thread_key: str, session_id: str) -> None: ...

    async def record_feedback(self, feedback: Feedback) -> None: ...

    async def count_hit(self, key: str, window_s: int) -> int:
        """Count one more hit in the current window and return the window's total."""

    async def save_job(self, job_id: str, payload: str, ttl_s: int) -> None:
        """Keep a job's serialised request so a Retry button can run it again."""

    async def load_job(self, job_id: str) -> str | None: ...

    async def hold(self, key: str, holder: str, limit: int, ttl_s: int) -> bool:
        """Take one of `limit` places under `key` for `holder` (again: still True); False when all are
        taken. A place lapses after `ttl_s`, so one whose worker died frees itself."""

    async def release(self, key: str, holder: str) -> None: ...


@dataclass
class InMemoryStateStore:
    """The zero-configuration store: correct for a single process, lost on restart. Bounded like its
    Redis twin: a thread's session is forgotten once idle `session_ttl_s` (each use renews it), and past
    `max_threads` the least recently used thread goes; a failed job's retry copy lapses after its TTL; past
    `max_feedback` votes the oldest goes."""

    clock: Callable[[], float] = time.monotonic
    session_ttl_s: float = SESSION_IDLE_TTL_S
    max_threads: int = MAX_THREADS
    max_feedback: int = MAX_FEEDBACK
    _claims: dict[str, float] = field(default_factory=dict)
    _sessions: OrderedDict[str, tuple[str, float]] = field(default_factory=OrderedDict)  # thread -> (session, last use)
    _jobs: dict[str, tuple[str, float]] = field(default_factory=dict)
    _hits: dict[tuple[str, int], int] = field(default_factory=dict)
    _holds: dict[str, dict[str, float]] = field(default_factory=dict)
    feedback: OrderedDict[tuple[str, str, str], Feedback] = field(default_factory=OrderedDict)  # oldest first

    async def claim(self, key: str, ttl_s: int) -> bool:
        now = self.clock()
        expires = self._claims.get(key)
        if expires is not None and expires > now:
            return False
        self._claims[key] = now + ttl_s
        if len(self._claims) > 10_000:
            self._claims = {k: v for k, v in self._claims.items() if v > now}
        return True

    async def session_for(self, thread_key: str) -> str | None:
        known = self._sessions.get(thread_key)
        now = self.clock()
        if known is None or now - known[1] > self.session_ttl_s:
            self._sessions.pop(thread_key, None)
            return None
        self._sessions[thread_key] = (known[0], now)  # used: its idle time starts again, as Redis' GETEX
        self._sessions.move_to_end(thread_key)
        return known[0]

    async def bind_session(self, thread_key: str, session_id: str) -> None:
        now = self.clock()
        self._sessions[thread_key] = (session_id, now)
        self._sessions.move_to_end(thread_key)
        # The least recently used come first: drop them while too many, or idle too long.
        while self._sessions:
            _, (_, used) = next(iter(self._sessions.items()))
            if len(self._sessions) <= self.max_threads and now - used <= self.session_ttl_s:
                break
            self._sessions.popitem(last=False)

    @property
    def threads(self) -> int:
        """Threads whose session is remembered (some may have expired since)."""
        return len(self._sessions)

    async def record_feedback(self, feedback: Feedback) -> None:
        key = (feedback.channel, feedback.message_ts, feedback.user)
        self.feedback.pop(key, None)  # a later vote replaces the earlier, as the newest
        self.feedback[key] = feedback
        while len(self.feedback) > self.max_feedback:
            self.feedback.popitem(last=False)

    async def count_hit(self, key: str, window_s: int) -> int:
        window = int(self.clock() // window_s)
        self._hits = {k: v for k, v in self._hits.items() if k[1] >= window}
        self._hits[(key, window)] = self._hits.get((key, window), 0) + 1
        return self._hits[(key, window)]

    async def save_job(self, job_id: str, payload: str, ttl_s: int) -> None:
        now = self.clock()
        if len(self._jobs) >= SWEEP_JOBS_FROM:
            self._jobs = {k: v for k, v in self._jobs.items() if v[1] > now}
        self._jobs[job_id] = (payload, now + ttl_s)

    async def load_job(self, job_id: str) -> str | None:
        saved = self._jobs.get(job_id)
        if saved is None or saved[1] <= self.clock():
            return None
        return saved[0]

    async def hold(self, key: str, holder: str, limit: int, ttl_s: int) -> bool:
        now = self.clock()
        places = {h: until for h, until in self._holds.get(key, {}).items() if until > now}
        if holder not in places and len(places) >= limit:
            self._holds[key] = places
            return False
        places[holder] = now + ttl_s
        self._holds[key] = places
        return True

    async def release(self, key: str, holder: str) -> None:
        places = self._holds.get(key, {})
        places.pop(holder, None)
        if not places:
            self._holds.pop(key, None)
