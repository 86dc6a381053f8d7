"""The JobRunner on a Redis Stream consumer group: jobs survive their worker.

`submit` appends the job to the stream (XADD). Each bot process runs workers that read
the group (XREADGROUP) with a bounded number of jobs in flight, and acknowledge a job
(XACK, then XDEL: the stream holds only unfinished work) once its reply is posted.

A job belongs to its worker for a lease: the worker renews it while the job runs, so a
slow agent run is never taken over, and a worker that died (SIGKILL, lost host) stops
renewing. After `lease_s` without renewal any replica claims the job (XAUTOCLAIM) and runs
it again; the turn's ledger makes that second run finish the first one's reply instead
of posting another. On SIGTERM a worker stops reading, lets running jobs finish within a
grace period, and hands the rest back marked as long idle, so the next sweep takes them.

When Redis is unreachable the loops back off until the health monitor sees it again,
recreate the consumer group if Redis came back empty, and jobs already in memory wait
and then finish; nothing this process holds is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, cast

from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from bot.jobs.model import Job, JobHandler, guarded, job_from_json
from bot.logs import request_id_var
from bot.redis_health import UNREACHABLE, RedisHealth
from bot.settings import DEFAULT_KEY_PREFIX

log = logging.getLogger(__name__)

# Stream entries as Redis replies carry them: (entry id, {field: value}).
Entry = tuple[bytes, dict[bytes, bytes] | None]

GROUP = "workers"
JOB_FIELD = b"job"

# Renew a lease only while this consumer still owns the entry; another owner means the
# job was taken over (this worker stalled past its lease) and the ledger settles the race.
_RENEW_LEASE = """
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #p == 0 then return 0 end
if p[1][2] ~= ARGV[3] then return -1 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, ARGV[2], 'JUSTID')
return 1
"""


class ServiceUnavailable(Exception):
    """The job could not be queued: shared state is unreachable. The listener tells the person."""


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


class RedisJobQueue:
    def __init__(
        self,
        redis: Redis,
        handler: JobHandler,
        health: RedisHealth,
        *,
        prefix: str = DEFAULT_KEY_PREFIX,
        consumer: str | None = None,
        concurrency: int = 16,
        lease_s: float = 10.0,
        max_deliveries: int = 5,
        read_block_ms: int = 1000,
        on_stall: Callable[[Job], Awaitable[None]] | None = None,
        on_retry: Callable[[], None] | None = None,
    ):
        self.redis = redis
        self.health = health
        self.stream = f"{prefix}jobs"
        self.consumer = consumer or consumer_name()
        self._handler = handler
        self._on_stall = on_stall
        self._on_retry = on_retry  # metrics: a job taken over after a lost or failed attempt
        self._concurrency = concurrency
        self._lease_ms = int(lease_s * 1000)
        self._max_deliveries = max_deliveries
        self._read_block_ms = read_block_ms
        self._renew = redis.register_script(_RENEW_LEASE)
        self._running: dict[str, asyncio.Task[None]] = {}  # entry id -> its job's task
        self._reserved = 0  # slots promised to the take in progress
        self._room = asyncio.Condition()
        self._loops: list[asyncio.Task[None]] = []
        self._touch_ups: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._next_sweep = 0.0

    # -- JobRunner --------------------------------------------------------------------------

    def depth(self) -> int:
        """Agent jobs this process holds (running, or reserved while it takes more)."""
        return len(self._running) + self._reserved

    async def submit(self, job: Job) -> None:
        try:
            await self.redis.xadd(self.stream, {JOB_FIELD: job.model_dump_json()})
        except UNREACHABLE as exc:
            self.health.report(exc)
            raise ServiceUnavailable(f"could not queue job {job.job_id}") from exc

    def spawn(self, work: Awaitable[object], name: str) -> None:
        task = asyncio.create_task(guarded(work, name), name=name)
        self._touch_ups.add(task)
        task.add_done_callback(self._touch_ups.discard)

    async def start(self) -> None:
        self.health.start()
        with contextlib.suppress(*UNREACHABLE):
            await self._ensure_group()
        self._loops = [
            asyncio.create_task(self._loop(self._take_jobs), name="jobs-take"),
            asyncio.create_task(self._loop(self._renew_leases), name="jobs-lease"),
        ]

    async def drain(self) -> None:
        """Wait until the stream holds no unfinished job (whoever runs it) and this process is idle."""
        while True:
            while self._touch_ups:
                await asyncio.gather(*list(self._touch_ups), return_exceptions=True)
            if not self._running and not await self.redis.xlen(self.stream):
                return
            await asyncio.sleep(0.05)

    async def shutdown(self, grace_s: float) -> None:
        """Stop taking jobs; finish running ones within `grace_s`; hand back the rest at once."""
        self._stopping = True
        await _cancel(self._loops)
        running = list(self._running.values())
        if running:
            log.info("shutting down: %d job(s) in flight, waiting up to %.0fs", len(running), grace_s)
            _, unfinished = await asyncio.wait(running, timeout=grace_s) if grace_s > 0 else (set(), set(running))
            left = [entry for entry, task in self._running.items() if task in unfinished]
            await _cancel(list(unfinished))
            await self._release(left)
        await _cancel(list(self._touch_ups))
        await self.health.close()

    async def close(self) -> None:
        await self.shutdown(0)

    # -- loops --------------------------------------------------------------------------------

    async def _loop(self, step: Callable[[], Awaitable[float]]) -> None:
        """Run `step` forever; it returns how long to pause. Outages wait for Redis, then resume."""
        while not self._stopping:
            try:
                pause = await step()
            except UNREACHABLE as exc:
                self.health.report(exc)
                await self.health.wait_up()
                pause = 0
            except ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    log.exception("job queue step %s failed", step.__name__)
                    pause = 1.0
                else:
                    log.warning("consumer group missing (Redis restarted empty?); recreating it")
                    await self._ensure_group()
                    pause = 0
            if pause:
                await asyncio.sleep(pause)

    async def _take_jobs(self) -> float:
        """Fill free slots: first jobs whose worker stopped renewing their lease, then new ones."""
        slots = await self._reserve()
        try:
            free = slots
            loop = asyncio.get_running_loop()
            if loop.time() >= self._next_sweep:
                free -= await self._claim_abandoned(free)
                self._next_sweep = loop.time() + self._lease_ms / 4000
            if free:
                # Wake up in time for the next sweep, so abandoned jobs never wait behind an idle read.
                block_ms = max(1, min(self._read_block_ms, int((self._next_sweep - loop.time()) * 1000)))
                answer = cast(
                    list[tuple[bytes, list[Entry]]] | None,
                    await self.redis.xreadgroup(GROUP, self.consumer, {self.stream: ">"}, count=free, block=block_ms),
                )
                for _, entries in answer or []:
                    for entry_id, fields in entries:
                        self._run(entry_id, fields)
        finally:
            await self._unreserve(slots)
        return 0

    async def _claim_abandoned(self, slots: int) -> int:
        """Take over up to `slots` jobs idle past their lease (their worker died, or handed them back)."""
        claimed: list[Entry] = []
        cursor: bytes | str = "0-0"
        while len(claimed) < slots:
            reply: list[Any] = await self.redis.xautoclaim(
                self.stream, GROUP, self.consumer, self._lease_ms, cursor, count=slots - len(claimed)
            )
            cursor, entries = reply[0], cast(list[Entry], reply[1])
            claimed += entries
            if cursor in (b"0-0", "0-0"):
                break
        started = 0
        for entry_id, fields in claimed:
            if await self._deliveries(entry_id) > self._max_deliveries:
                log.error("job entry %s failed %d times; giving up on it", _text(entry_id), self._max_deliveries)
                await self._ack(entry_id)
                continue
            log.warning("took over job entry %s from a worker that stopped", _text(entry_id))
            if self._on_retry is not None:
                self._on_retry()
            self._run(entry_id, fields)
            started += 1
        return started

    async def _renew_leases(self) -> float:
        for entry_id in list(self._running):
            owned = await self._renew(keys=[self.stream], args=[GROUP, entry_id, self.consumer])
            if owned == -1:
                log.warning("job entry %s was taken over by another worker", entry_id)
        return self._lease_ms / 3000

    # -- one job ------------------------------------------------------------------------------

    def _run(self, entry_id: bytes | str, fields: dict[bytes, bytes] | None) -> None:
        entry_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
        task = asyncio.create_task(self._execute(entry_id, fields), name=f"job-entry-{entry_id}")
        self._running[entry_id] = task
        task.add_done_callback(lambda _: self._finished(entry_id))

    def _finished(self, entry_id: str) -> None:
        self._running.pop(entry_id, None)
        asyncio.get_running_loop().create_task(self._notify_room())

    async def _execute(self, entry_id: str, fields: dict[bytes, bytes] | None) -> None:
        try:
            job = job_from_json((fields or {})[JOB_FIELD])
        except (KeyError, ValidationError):
            log.error("job entry %s is unreadable or was deleted; dropping it", entry_id)
            await self._ack(entry_id)
            return
        token = request_id_var.set(job.request_id)
        try:
            while True:
                try:
                    await self._handler(job)
                    break
                except UNREACHABLE as exc:
                    # Redis went away mid-turn: the job stays with us and resumes where its ledger says.
                    self.health.report(exc)
                    if self._on_stall is not None:
                        await self._on_stall(job)
                    await self.health.wait_up()
                except Exception:
                    # Left un-acked: once its lease lapses a worker tries again, up to max_deliveries.
                    log.exception("job %s (%s) failed; it will be retried", job.job_id, job.kind)
                    return
            await self._ack(entry_id)
        finally:
            request_id_var.reset(token)

    async def _ack(self, entry_id: bytes | str) -> None:
        while True:
            try:
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.xack(self.stream, GROUP, entry_id)
                    pipe.xdel(self.stream, entry_id)
                    await pipe.execute()
                return
            except UNREACHABLE as exc:
                self.health.report(exc)
                await self.health.wait_up()
            except ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    raise
                log.warning("job entry %s is gone (Redis restarted empty); nothing to acknowledge", entry_id)
                return

    async def _release(self, entry_ids: list[str]) -> None:
        """Hand jobs back: still ours, but so idle that the next sweep anywhere takes them."""
        if not entry_ids:
            return
        try:
            ids: list[int | bytes | str | memoryview[int]] = list(entry_ids)
            await self.redis.xclaim(self.stream, GROUP, self.consumer, 0, ids, idle=self._lease_ms * 10, justid=True)
            log.info("handed back %d unfinished job(s) to the other workers", len(entry_ids))
        except (*UNREACHABLE, ResponseError) as exc:
            log.warning("could not hand back %d job(s) (%s); they return after the lease", len(entry_ids), exc)

    async def _deliveries(self, entry_id: bytes | str) -> int:
        pending = cast(list[dict[str, Any]], await self.redis.xpending_range(self.stream, GROUP, entry_id, entry_id, 1))
        return int(pending[0]["times_delivered"]) if pending else 0

    async def _ensure_group(self) -> None:
        try:
            # From the start of the stream: whatever is still in it is unfinished work.
            await self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    # -- bounded concurrency ----------------------------------------------------------------------

    async def _reserve(self) -> int:
        async with self._room:
            await self._room.wait_for(lambda: len(self._running) + self._reserved < self._concurrency)
            slots = self._concurrency - len(self._running) - self._reserved
            self._reserved += slots
            return slots

    async def _unreserve(self, slots: int) -> None:
        async with self._room:
            self._reserved -= slots
            self._room.notify_all()

    async def _notify_room(self) -> None:
        async with self._room:
            self._room.notify_all()


async def _cancel(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _text(entry_id: bytes | str) -> str:
    return entry_id.decode() if isinstance(entry_id, bytes) else entry_id
