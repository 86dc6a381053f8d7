"""The in-process JobRunner: agent work runs after the ack as asyncio tasks of this process.

Nothing outside the process knows these jobs; bot/jobs/redis_streams.py is the durable twin.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from bot.jobs.model import Job, JobHandler, guarded

log = logging.getLogger(__name__)


class InProcessJobRunner:
    """Tracks its tasks so shutdown and tests can wait for them; a crashing job is logged, never lost silently."""

    def __init__(self, handler: JobHandler):
        self._handler = handler
        self._tasks: set[asyncio.Task[None]] = set()
        self._jobs = 0  # agent jobs running (the tasks include smaller background steps)

    def depth(self) -> int:
        """Agent jobs this process holds: in this runner each starts at once, so all are running."""
        return self._jobs

    async def submit(self, job: Job) -> None:
        task = asyncio.create_task(self._run(job), name=f"job-{job.job_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def spawn(self, work: Awaitable[object], name: str) -> None:
        task = asyncio.create_task(guarded(work, name), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, job: Job) -> None:
        self._jobs += 1
        try:
            await self._handler(job)
        except Exception:
            log.exception("job %s (%s) crashed", job.job_id, job.kind)
        finally:
            self._jobs -= 1

    async def start(self) -> None:
        return None  # jobs start as they are submitted

    async def drain(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def shutdown(self, grace_s: float) -> None:
        try:
            await asyncio.wait_for(self.drain(), grace_s)
        except TimeoutError:
            # Nothing outside this process knows these jobs: say how many answers are lost (a zero
            # grace period times out even with nothing left, which is no loss worth a warning).
            if self._tasks:
                log.warning("shutdown grace period over; %d unfinished answer(s) dropped", len(self._tasks))
        await self.close()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.drain()
