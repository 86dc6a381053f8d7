"""One job = one turn of a conversation: stream the agent, show progress, deliver the reply.

Whatever happens inside the agent, the person gets either the answer or a short error
with the request id and a Retry button: never a traceback, never silence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable

from slack_sdk.web.async_client import AsyncWebClient

from agent.api import AgentReply, ChatContext, Progress
from bot.store import ledger
from bot.agent_port import AgentEvent, AgentPort
from bot.render.blocks import render_progress, render_reply
from bot.delivery import PROGRESS_INTERVAL_S, ThreadDelivery
from bot.jobs.ack_first import AckFirst
from bot.jobs.fair import FairSlots
from bot.jobs.model import AskJob, Job, ResumeJob
from bot.store.ledger import InMemoryLedger, JobLedger, pack_reply, unpack_reply
from bot.logs import request_scope
from bot.sessions import thread_key
from bot.slack_client import WEB_API_FAILURES, optional, slack_error
from bot.store.state import StateStore
from bot.user_groups import UserGroups

log = logging.getLogger(__name__)

RETRY_TTL_S = 24 * 3600
INTERNAL_ERROR = "Something went wrong on my side while working on this. Please try again."
SERVICE_STALLED = "The service is briefly unavailable; I will finish this as soon as it is back…"
# A queued request looks again this often for a place another replica freed (this process's own
# releases wake it at once).
PLACE_POLL_S = 1.0


class TurnRunner:
    def __init__(
        self,
        agent: AgentPort,
        client: AsyncWebClient,
        store: StateStore,
        *,
        ledger: JobLedger | None = None,
        clock: Callable[[], float] = time.monotonic,
        progress_interval_s: float = PROGRESS_INTERVAL_S,
        max_concurrent_runs: int = 32,
        on_reply: Callable[[AgentReply], None] | None = None,
        ack_first: AckFirst | None = None,
        user_groups: UserGroups | None = None,
        user_concurrency: int = 0,
        user_hold_ttl_s: int = 600,
        user_queue_max: int = 0,
        stream_answers: bool = True,
    ):
        self.agent = agent
        self.client = client
        self.store = store
        self.ledger = ledger or InMemoryLedger()
        self._clock = clock
        self._progress_interval_s = progress_interval_s
        self.stream_answers = stream_answers
        # Only agent runs queue for a slot, taken round-robin by channel and by person within each; the
        # first feedback is never held back by other people's questions.
        self._run_slots = FairSlots(max_concurrent_runs)
        self._on_reply = on_reply  # metrics: every reply delivered
        self._ack_first = ack_first or AckFirst()
        self._user_groups = user_groups  # the asker's Slack user groups, for the agent's access policy
        self.max_concurrent_runs = max_concurrent_runs
        self._running: dict[str, float] = {}  # job id -> when its agent run started (clock)
        # One person's requests running at once (0: no cap); a place outlives a dead worker by at most the TTL.
        self._user_concurrency = user_concurrency
        self._user_hold_ttl_s = user_hold_ttl_s
        # Past the cap, a person's requests wait in their order, at most this many (0: refused at once).
        self._user_queue_max = user_queue_max
        self._queued: dict[str, list[str]] = {}  # person -> job ids waiting for a place, in order
        self._places_freed = asyncio.Condition()

    async def __call__(self, job: Job) -> None:
        await self._ack_first.wait()
        with request_scope(job.request_id, job.where.user, job.where.channel):
            await self._run(job)

    async def _run(self, job: Job) -> None:
        # Every step is noted in the ledger once done, so a re-run (the first worker died) skips it.
        done = await self.ledger.steps(job.job_id)
        if ledger.DONE in done:
            return
        where = job.where
        delivery = ThreadDelivery(
            self.client,
            where.channel,
            where.thread_ts,
            # Assistant threads and the agent view's DMs show a status with loading messages;
            # where Slack refuses it, a placeholder message is posted instead.
            use_status=where.assistant_thread or where.channel.startswith("D"),
            response_url=job.response_url,
            recipient=(where.team, where.user) if where.team and self.stream_answers else None,
            clock=self._clock,
            min_interval_s=self._progress_interval_s,
        )
        if job.echo and where.thread_ts and ledger.ECHO not in done:
            await self.client.chat_postMessage(channel=where.channel, thread_ts=where.thread_ts, text=job.echo)
            await self.ledger.note(job.job_id, ledger.ECHO)
        if job.thread_title and where.thread_ts and ledger.TITLE not in done:
            await optional(
                "thread title",
                self.client.assistant_threads_setTitle(
                    channel_id=where.channel, thread_ts=where.thread_ts, title=job.thread_title
                )
            )
            await self.ledger.note(job.job_id, ledger.TITLE)
        await self._show_placeholder(job, delivery, done)

        session_id = job.session_id or f"slack-{where.channel}-{job.job_id[:16]}"
        if where.thread_ts is None and delivery.thread_ts:
            await self.store.bind_session(thread_key(where.channel, delivery.thread_ts), session_id)

        if ledger.REPLY in done:
            reply = unpack_reply(done[ledger.REPLY])
        else:
            reply = await self._fair_reply(job, session_id, delivery)
            if reply.error_code != "internal":
                # A crash (e.g. shared state went away mid-run) is worth running again, not remembering.
                await self.ledger.note(job.job_id, ledger.REPLY, pack_reply(reply))
        rendered = render_reply(reply, retry_job_id=job.job_id if reply.error else None)
        if reply.error:
            await self.store.save_job(job.job_id, job.model_dump_json(), RETRY_TTL_S)
        if ledger.REPLY_TS in done:
            reply_ts = done[ledger.REPLY_TS].decode() or None
        else:
            # Replacing the placeholder is idempotent: a re-run updates the same message.
            reply_ts = await delivery.finish(rendered)
            await self.ledger.note(job.job_id, ledger.REPLY_TS, (reply_ts or "").encode())
        if reply.chart and ledger.CHART not in done:
            # Drawn only now: the answer is already in the thread while the picture is made.
            chart = await self.agent.draw_chart(reply)
            if chart is not None:
                await delivery.attach_chart(chart)
            await self.ledger.note(job.job_id, ledger.CHART)
        if rendered.csv and ledger.CSV not in done:
            await delivery.attach(filename="result.csv", content=rendered.csv, title="Query result (CSV)")
            await self.ledger.note(job.job_id, ledger.CSV)
        await self.ledger.note(job.job_id, ledger.DONE)
        await self.ledger.forget(job.job_id)
        if self._on_reply is not None:
            self._on_reply(reply)
        log.info(
            "answered kind=%s session=%s agent=%s tools=%s error=%s",
            job.kind,
            session_id,
            reply.response_agent,
            ",".join(reply.tools),
            reply.error_code,
        )

    async def _show_placeholder(self, job: Job, delivery: ThreadDelivery, done: dict[str, bytes]) -> None:
        """Post the first feedback, or adopt the one an earlier run of this job posted."""
        if ledger.PLACEHOLDER in done:
            delivery.placeholder_ts = done[ledger.PLACEHOLDER].decode()
            delivery.thread_ts = delivery.thread_ts or done.get(ledger.THREAD, b"").decode() or None
            await delivery.progress(job.placeholder)
            return
        try:
            await delivery.start(job.placeholder)
        except WEB_API_FAILURES as exc:
            log.warning("could not show the first feedback (%s); the reply will still be posted", slack_error(exc))
        if not delivery.placeholder_ts:
            return
        standing = (await self.ledger.note_first(job.job_id, ledger.PLACEHOLDER, delivery.placeholder_ts.encode())).decode()
        await self.ledger.note(job.job_id, ledger.THREAD, (delivery.thread_ts or "").encode())
        if standing != delivery.placeholder_ts:
            # Two runs of one job raced (a worker was thought dead); keep the first placeholder only.
            await optional("removing a second placeholder",
                           self.client.chat_delete(channel=delivery.channel, ts=delivery.placeholder_ts))
            delivery.placeholder_ts = standing

    async def stalled(self, job: Job) -> None:
        """Shared state is unreachable mid-turn: say so on the placeholder; the job resumes when it returns."""
        known = self.ledger.cached(job.job_id)
        placeholder = known.get(ledger.PLACEHOLDER)
        if not placeholder or ledger.REPLY_TS in known:
            return  # nothing shown yet, or the answer already replaced the placeholder
        rendered = render_progress(SERVICE_STALLED)
        await optional(
            "the stalled notice",
            self.client.chat_update(
                channel=job.where.channel, ts=placeholder.decode(), text=rendered.text, blocks=rendered.blocks
            )
        )

    async def _fair_reply(self, job: Job, session_id: str, delivery: ThreadDelivery) -> AgentReply:
        """The agent's reply once this person has a place (at most USER_CONCURRENCY of theirs run at
        once; the next USER_QUEUE_MAX wait, told how many are ahead); past those, a refusal."""
        cap, key = self._user_concurrency, f"running:{job.where.user}"
        if cap and not await self._place(job, key, delivery):
            log.info("user %s is at the concurrency cap (%d) with %d waiting; job %s not started",
                     job.where.user, cap, self._user_queue_max, job.job_id)
            waiting = f" and {self._user_queue_max} waiting" if self._user_queue_max else ""
            return AgentReply(
                session_id=session_id,
                error=f"You already have {cap} requests running{waiting}, the most I take from one person at once. "
                "Press Retry once one of them has finished.",
                error_code="busy",
                request_id=job.request_id,
            )
        try:
            async with self._run_slots.slot(job.where.user or job.where.channel, job.where.channel):
                self._running[job.job_id] = self._clock()
                try:
                    return await self._agent_reply(job, session_id, delivery)
                finally:
                    self._running.pop(job.job_id, None)
        finally:
            if cap:
                await self.store.release(key, job.job_id)
                async with self._places_freed:
                    self._places_freed.notify_all()

    async def _place(self, job: Job, key: str, delivery: ThreadDelivery) -> bool:
        """Hold one of this person's places, waiting in their order when all are taken; False when
        their queue is full too."""
        cap, ttl = self._user_concurrency, self._user_hold_ttl_s
        if await self.store.hold(key, job.job_id, cap, ttl):
            return True
        queue = self._queued.setdefault(key, [])
        if len(queue) >= self._user_queue_max:
            return False
        queue.append(job.job_id)
        shown = None
        try:
            while True:
                ahead = cap + queue.index(job.job_id)  # their running requests, then those queued first
                if ahead != shown:
                    await delivery.progress(f"Queued, {ahead} ahead of you…")
                    shown = ahead
                if queue[0] == job.job_id and await self.store.hold(key, job.job_id, cap, ttl):
                    return True
                async with self._places_freed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._places_freed.wait(), PLACE_POLL_S)
        finally:
            queue.remove(job.job_id)
            if not queue:
                del self._queued[key]

    def overdue(self, budget_s: float) -> int:
        """Agent runs going on longer than `budget_s`: each run has its own deadline, so these are stuck."""
        now = self._clock()
        return sum(1 for started in self._running.values() if now - started > budget_s)

    async def _agent_reply(self, job: Job, session_id: str, delivery: ThreadDelivery) -> AgentReply:
        reply: AgentReply | None = None
        try:
            async for item in self._stream(job, session_id, await self._groups(job.where.user)):
                if isinstance(item, Progress):
                    if item.status == "started":
                        await delivery.progress(item.label)
                elif isinstance(item, AgentReply):
                    reply = item
        except Exception:
            log.exception("agent run failed (kind=%s session=%s)", job.kind, session_id)
            reply = None
        if reply is None:
            reply = AgentReply(session_id=session_id, error=INTERNAL_ERROR, error_code="internal")
        if reply.request_id is None:
            reply = reply.model_copy(update={"request_id": job.request_id})
        return reply

    async def _groups(self, user: str | None) -> list[str]:
        return await self._user_groups.of(user) if self._user_groups is not None else []

    def _stream(self, job: Job, session_id: str, groups: list[str]) -> AsyncIterator[AgentEvent]:
        ctx = ChatContext(user=job.where.user, channel=job.where.channel, groups=groups, request_id=job.request_id,
                          workspace=job.where.team)
        if isinstance(job, AskJob):
            return self.agent.ask(session_id, job.text, ctx)
        if isinstance(job, ResumeJob):
            return self.agent.resume(session_id, job.choice, ctx, edited_sql=job.edited_sql)
        return self.agent.run_tool(session_id, job.tool, job.tool_args, ctx)
