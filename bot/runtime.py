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

from agent.settings import Settings
from bot.agent_port import AgentPort
from bot.app import Surfaces, build_app
from bot.health import Readiness
from bot.jobs import InProcessJobRunner, JobRunner
from bot.slack_client import build_web_client
from bot.state import InMemoryStateStore, StateStore
from bot.turns import TurnRunner

log = logging.getLogger(__name__)


@dataclass
class BotRuntime:
    settings: Settings
    agent: AgentPort
    store: StateStore
    jobs: JobRunner
    client: AsyncWebClient
    app: AsyncApp
    health: Any = None  # a RedisHealth when Redis is configured; readiness reads it
    readiness: Readiness | None = None  # /readyz and metrics read it
    _closers: list[Any] = field(default_factory=list)

    async def start(self) -> None:
        await self.jobs.start()

    async def shutdown(self, grace_s: float) -> None:
        await self.jobs.shutdown(grace_s)
        for close in self._closers:
            await close()

    async def close(self) -> None:
        await self.shutdown(0)


def build_runtime(
    settings: Settings,
    agent: AgentPort,
    *,
    store: StateStore | None = None,
    client: AsyncWebClient | None = None,
    progress_interval_s: float | None = None,
    redis_options: dict[str, Any] | None = None,
) -> BotRuntime:
    """`redis_options`: keyword arguments for the Redis pieces (prefix, queue concurrency, lease…)."""
    client = client or build_web_client(settings)
    turn_options: dict[str, Any] = {
        "user_concurrency": settings.user_concurrency,
        # A person's place outlives a worker that died mid-run by at most this long.
        "user_hold_ttl_s": int(settings.max_execute_second) + 60,
    }
    if progress_interval_s is not None:
        turn_options["progress_interval_s"] = progress_interval_s
    if settings.redis_url and store is None:
        return _redis_runtime(settings, agent, client, turn_options, redis_options or {})
    if store is None:
        log.info("state: in-process store (one process only)")
        store = InMemoryStateStore()
    jobs = InProcessJobRunner(TurnRunner(agent, client, store, **turn_options))
    return BotRuntime(
        settings, agent, store, jobs, client, _app(settings, agent, store, jobs, client),
        readiness=_readiness(settings, agent, None),
    )


def _redis_runtime(
    settings: Settings, agent: AgentPort, client: AsyncWebClient, turn_options: dict, options: dict[str, Any]
) -> BotRuntime:
    from redis.asyncio import Redis

    from bot.outage import OutageNotice
    from bot.redis_health import RedisHealth
    from bot.redis_jobs import RedisJobQueue
    from bot.redis_ledger import RedisLedger
    from bot.redis_state import RedisStateStore

    options = {
        "concurrency": settings.worker_concurrency,
        "lease_s": settings.job_lease_s,
        "max_deliveries": settings.job_max_deliveries,
        **options,
    }
    prefix = options.pop("prefix", settings.redis_key_prefix)
    # Short timeouts: an outage must turn into a notice within Slack's 3 s, not hang the ack.
    redis = Redis.from_url(settings.redis_url, socket_connect_timeout=1, socket_timeout=5, health_check_interval=10)
    health = RedisHealth(redis)
    store = RedisStateStore(redis, prefix=prefix, session_ttl_s=settings.session_idle_ttl_s)
    turns = TurnRunner(agent, client, store, ledger=RedisLedger(redis, prefix=prefix), **turn_options)
    jobs = RedisJobQueue(redis, turns, health, prefix=prefix, on_stall=turns.stalled, **options)
    app = _app(settings, agent, store, jobs, client)
    OutageNotice(client).install(app)
    log.info("state and jobs: Redis (shared by every replica), worker %s", jobs.consumer)
    return BotRuntime(
        settings, agent, store, jobs, client, app, health=health, readiness=_readiness(settings, agent, health),
        _closers=[redis.aclose],
    )


def _readiness(settings: Settings, agent: AgentPort, redis_health: Any) -> Readiness:
    return Readiness(
        agent_health=getattr(agent, "health", None),
        redis_up=(lambda: redis_health.up) if redis_health is not None else None,
        lag_limit_s=settings.loop_lag_limit_s,
    )


def _app(settings: Settings, agent: AgentPort, store: StateStore, jobs: JobRunner, client: AsyncWebClient) -> AsyncApp:
    surfaces = Surfaces(settings=settings, agent=agent, store=store, jobs=jobs, client=client)
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None
    return build_app(surfaces, signing_secret=secret)
