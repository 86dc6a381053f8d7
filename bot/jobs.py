"""Agent work runs after the ack, as jobs: in-process asyncio tasks, or a durable Redis
Streams queue shared by every replica (bot/redis_jobs.py).

A job is a serialisable request (pydantic), so the queue carries the same object across
processes and a Retry button can re-run it.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

log = logging.getLogger(__name__)


class Where(BaseModel):
    """Where the answer goes. `thread_ts=None`: start a new thread with the placeholder (slash commands)."""

    channel: str
    thread_ts: str | None = None
    user: str
    team: str | None = None  # the person's workspace: with it the answer is streamed to them
    assistant_thread: bool = False


class AgentJob(BaseModel):
    job_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    request_id: str
    kind: Literal["ask", "resume", "tool"]
    session_id: str | None = None  # None only when the thread does not exist yet
    where: Where
    text: str = ""
    choice: str | None = None
    edited_sql: str | None = None
    tool: str | None = None
    tool_args: dict[str, Any] = Field(default_factory=dict)
    placeholder: str = "Working on it…"
    echo: str | None = None  # posted in the thread first, e.g. the follow-up question a button asked
    thread_title: str | None = None  # set on a new Assistant thread
    response_url: str | None = None  # slash commands: the way back when the bot may not post in the channel


JobHandler = Callable[[AgentJob], Awaitable[None]]


class JobRunner(Protocol):
    async def submit(self, job: AgentJob) -> None: ...

    async def start(self) -> None:
        """Begin taking jobs (workers of a shared queue); called once the process is ready."""

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run a quick Slack touch-up after the ack (open a modal, settle buttons); not durable."""

    async def drain(self) -> None:
        """Wait until every submitted job (including ones submitted meanwhile) has finished."""

    async def shutdown(self, grace_s: float) -> None:
        """Stop taking jobs, let running ones finish within the grace period, then stop the rest."""

    async def close(self) -> None: ...


class InProcessJobRunner:
    """Tracks its tasks so shutdown and tests can wait for them; a crashing job is logged, never lost silently."""

    def __init__(self, handler: JobHandler):
        self._handler = handler
        self._tasks: set[asyncio.Task] = set()

    async def submit(self, job: AgentJob) -> None:
        task = asyncio.create_task(self._run(job), name=f"job-{job.job_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def spawn(self, work: Awaitable[None], name: str) -> None:
        task = asyncio.create_task(self._guard(work, name), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _guard(work: Awaitable[None], name: str) -> None:
        try:
            await work
        except Exception:
            log.exception("background step %s failed", name)

    async def _run(self, job: AgentJob) -> None:
        try:
            await self._handler(job)
        except Exception:
            log.exception("job %s (%s) crashed", job.job_id, job.kind)

    async def start(self) -> None:
        return None  # jobs start as they are submitted

    async def drain(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def shutdown(self, grace_s: float) -> None:
        try:
            await asyncio.wait_for(self.drain(), grace_s)
        except TimeoutError:
            # Nothing outside this process knows these jobs: say how many answers are lost.
            log.warning("shutdown grace period over; %d unfinished answer(s) dropped", len(self._tasks))
        await self.close()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.drain()
