"""Wiring: settings + agent -> store, job runner, Web API client, surfaces, Bolt app. Built once at start.

With REDIS_URL the state, the jobs and the turn ledger live in Redis and every replica
shares them; without it everything stays in this process (one replica).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.settings import BotSettings
from bot.agent_port import AgentPort
from bot.health import Readiness, ThreadPoolProbe
from bot.listeners.app import Surfaces, build_app
from bot.jobs import JobRunner
from bot.jobs.ack_first import AckFirst
from bot.jobs.memory import InProcessJobRunner
from bot.slack_client import SlackWebClient, build_web_client
from bot.user_groups import UserGroups
from bot.store.state import InMemoryStateStore, StateStore
from bot.delivery import PROGRESS_INTERVAL_S
from bot.descriptors import reserve_descriptors
from bot.metrics import BotMetrics
from bot.slack_auth import SlackAuth
from bot.turns import TurnRunner

log = logging.getLogger(__name__)


@dataclass
class BotRuntime:
    settings: BotSettings
    agent: AgentPort
    store: StateStore
    jobs: JobRunner
    client: AsyncWebClient
    app: AsyncApp
    metrics: BotMetrics = field(default_factory=BotMetrics)
    ack_first: AckFirst = field(default_factory=AckFirst)  # the HTTP server marks requests it is acking
    health: Any = None  # a RedisHealth when Redis is configured; readiness reads it
    readiness: Readiness | None = None  # /readyz and metrics read it
    _closers: list[Any] = field(default_factory=list)

    async def start(self) -> None:
        reserve_descriptors()  # grown now, not by the sockets of the first burst while its acks wait (bot/descriptors.py)
        if isinstance(self.client, SlackWebClient):
            self.client.keep_connections = True  # closed again by shutdown
        await self.jobs.start()

    async def shutdown(self, grace_s: float) -> None:
        await self.jobs.shutdown(grace_s)
        for close in self._closers:
            await close()
        if isinstance(self.client, SlackWebClient):
            await self.client.aclose()

    async def close(self) -> None:
        await self.shutdown(0)


def build_runtime(
    settings: BotSettings,
    agent: AgentPort,
    *,
    store: StateStore | None = None,
    client: AsyncWebClient | None = None,
    progress_interval_s: float | None = None,
    redis_options: dict[str, Any] | None = None,
    slack_auth: SlackAuth | None = None,
) -> BotRuntime:
    """`redis_options`: keyword arguments for the Redis pieces (prefix, queue concurrency, lease…).
    `slack_auth`: the token check start-up made, whose answer readiness starts from."""
    client = client or build_web_client(settings)
    slack_auth = slack_auth or SlackAuth(client)
    interval = PROGRESS_INTERVAL_S if progress_interval_s is None else progress_interval_s
    metrics, ack_first, user_groups = BotMetrics(), AckFirst(), UserGroups(client)
    on_query = getattr(agent, "on_query", None)  # the real agent reports each warehouse query
    if on_query is not None:
        on_query(metrics.query_ran)
    if settings.redis_url and store is None:
        return _redis_runtime(settings, agent, client, interval, redis_options or {}, metrics, ack_first, user_groups,
                              slack_auth)
    if store is None:
        log.info("state: in-process store (one process only)")
        store = InMemoryStateStore(session_ttl_s=settings.session_idle_ttl_s, max_threads=settings.memory_sessions_max)
    turns = TurnRunner(
        agent, client, store, progress_interval_s=interval,
        user_concurrency=settings.user_concurrency, user_hold_ttl_s=_hold_ttl_s(settings),
        user_queue_max=settings.user_queue_max,
        on_reply=metrics.reply_delivered, ack_first=ack_first, user_groups=user_groups,
    )
    jobs = InProcessJobRunner(turns, gate=ack_first)
    metrics.watch_queue(jobs.depth)
    return BotRuntime(
        settings, agent, store, jobs, client, _app(settings, agent, store, jobs, client, metrics, user_groups),
        metrics, ack_first,
        readiness=_readiness(settings, agent, None, turns, turns.max_concurrent_runs, slack_auth),
    )


def _redis_runtime(
    settings: BotSettings, agent: AgentPort, client: AsyncWebClient, interval: float, options: dict[str, Any],
    metrics: BotMetrics, ack_first: AckFirst, user_groups: UserGroups, slack_auth: SlackAuth,
) -> BotRuntime:
    from redis.asyncio import Redis

    from bot.outage import OutageNotice
    from bot.redis_health import RedisHealth
    from bot.jobs.redis_streams import RedisJobQueue
    from bot.store.redis_ledger import RedisLedger
    from bot.store.redis_state import RedisStateStore

    options = {
        "concurrency": settings.worker_concurrency,
        "lease_s": settings.job_lease_s,
        "max_deliveries": settings.job_max_deliveries,
        **options,
    }
    prefix = options.pop("prefix", settings.redis_key_prefix)
    # Short timeouts: an outage must turn into a notice within Slack's 3 s, not hang the ack.
    assert settings.redis_url is not None  # the caller chose this runtime because it is set
    redis = Redis.from_url(settings.redis_url, socket_connect_timeout=1, socket_timeout=5, health_check_interval=10)
    health = RedisHealth(redis)
    store = RedisStateStore(redis, prefix=prefix, session_ttl_s=settings.session_idle_ttl_s)
    turns = TurnRunner(
        agent, client, store, ledger=RedisLedger(redis, prefix=prefix), progress_interval_s=interval,
        user_concurrency=settings.user_concurrency, user_hold_ttl_s=_hold_ttl_s(settings),
        user_queue_max=settings.user_queue_max,
        on_reply=metrics.reply_delivered, ack_first=ack_first, user_groups=user_groups,
    )
    jobs = RedisJobQueue(redis, turns, health, prefix=prefix, on_stall=turns.stalled,
                         on_retry=metrics.job_retries.inc, **options)
    metrics.watch_queue(jobs.depth)
    app = _app(settings, agent, store, jobs, client, metrics, user_groups)
    OutageNotice(client).install(app)
    log.info("state and jobs: Redis (shared by every replica), worker %s", jobs.consumer)
    return BotRuntime(
        settings, agent, store, jobs, client, app, metrics, ack_first, health=health,
        readiness=_readiness(settings, agent, health, turns, int(options["concurrency"]), slack_auth),
        _closers=[redis.aclose],
    )


def _hold_ttl_s(settings: BotSettings) -> int:
    """A person's place outlives a worker that died mid-run by at most a minute past the run's deadline."""
    return int(settings.max_execute_second) + 60


def _readiness(
    settings: BotSettings, agent: AgentPort, redis_health: Any, turns: TurnRunner, slots: int, slack_auth: SlackAuth,
) -> Readiness:
    # A run past its own deadline plus a margin is stuck; every job slot stuck means nothing new is answered.
    budget_s = settings.max_execute_second + 30
    # What waits in the thread pool ends within a query's abandonment limit (twice its time limit); a
    # no-op queued behind it for longer than that, plus a margin, means the pool is stuck.
    threads_budget_s = 2 * settings.query_timeout_s + 30
    return Readiness(
        agent_health=agent.health,
        redis_up=(lambda: redis_health.up) if redis_health is not None else None,
        jobs_wedged=lambda: turns.overdue(budget_s) >= slots,
        checks={"slack": slack_auth.problem, "threads": ThreadPoolProbe(threads_budget_s).problem},
        lag_limit_s=settings.loop_lag_limit_s,
    )


def _app(
    settings: BotSettings, agent: AgentPort, store: StateStore, jobs: JobRunner, client: AsyncWebClient,
    metrics: BotMetrics, user_groups: UserGroups,
) -> AsyncApp:
    surfaces = Surfaces(settings=settings, agent=agent, store=store, jobs=jobs, client=client,
                        user_groups=user_groups)
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None
    return build_app(surfaces, signing_secret=secret, metrics=metrics)
