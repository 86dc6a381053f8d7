"""The in-process JobRunner: agent work runs after the ack as asyncio tasks of this process.

Nothing outside the process knows these jobs; bot/jobs/redis_streams.py is the durable twin.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from bot.jobs.ack_first import AckFirst
from bot.jobs.model import Job, JobHandler, guarded

log = logging.getLogger(__name__)


class InProcessJobRunner:
    """Tracks its tasks so shutdown and tests can wait for them; a crashing job is logged, never lost silently."""

    def __init__(self, handler: JobHandler, gate: AckFirst | None = None):
        self._handler = handler
        self._tasks: set[asyncio.Task[None]] = set()
        self._jobs = 0  # agent jobs running (the tasks include smaller background steps)
        # While requests are being acked, a job submitted is held, not started: one task waits for the acks
        # to be out and starts them all, rather than a task per job stepping in between the acks to wait.
        self._gate = gate
        self._held: list[Job] = []

    def depth(self) -> int:
        """Agent jobs this process holds, running or waiting for the acks in flight to be out."""
        return self._jobs + len(self._held)

    async def submit(self, job: Job) -> None:
        if self._gate is not None and not self._gate.is_open():
            self._held.append(job)
            if len(self._held) == 1:
                self._track(asyncio.create_task(self._release(self._gate), name="jobs-after-the-acks"))
            return
        self._start(job)

    def _start(self, job: Job) -> None:
        self._track(asyncio.create_task(self._run(job), name=f"job-{job.job_id}"))

    def _track(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _release(self, gate: AckFirst) -> None:
        await gate.wait()
        held, self._held = self._held, []
        for job in held:
            self._start(job)

    def spawn(self, work: Awaitable[object], name: str) -> None:
        self._track(asyncio.create_task(guarded(work, name), name=name))

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
        if self._held:  # never started: the acks were still going out when the process stopped
            log.warning("closing with %d question(s) not yet started; they are dropped", len(self._held))
            self._held.clear()
        for task in list(self._tasks):
            task.cancel()
        await self.drain()
