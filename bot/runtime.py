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
from bot.listeners.app import Surfaces, build_app
from bot.jobs import JobRunner
from bot.jobs.memory import InProcessJobRunner
from bot.slack_client import build_web_client
from bot.store.state import InMemoryStateStore, StateStore
from bot.delivery import PROGRESS_INTERVAL_S
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
    health: Any = None  # a RedisHealth when Redis is configured; /healthz reads it
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
    settings: BotSettings,
    agent: AgentPort,
    *,
    store: StateStore | None = None,
    client: AsyncWebClient | None = None,
    progress_interval_s: float | None = None,
    redis_options: dict[str, Any] | None = None,
) -> BotRuntime:
    """`redis_options`: keyword arguments for the Redis pieces (prefix, queue concurrency, lease…)."""
    client = client or build_web_client(settings)
    interval = PROGRESS_INTERVAL_S if progress_interval_s is None else progress_interval_s
    if settings.redis_url and store is None:
        return _redis_runtime(settings, agent, client, interval, redis_options or {})
    if store is None:
        log.info("state: in-process store (one process only)")
        store = InMemoryStateStore()
    jobs = InProcessJobRunner(TurnRunner(agent, client, store, progress_interval_s=interval))
    return BotRuntime(settings, agent, store, jobs, client, _app(settings, agent, store, jobs, client))


def _redis_runtime(
    settings: BotSettings, agent: AgentPort, client: AsyncWebClient, interval: float, options: dict[str, Any]
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
    turns = TurnRunner(agent, client, store, ledger=RedisLedger(redis, prefix=prefix), progress_interval_s=interval)
    jobs = RedisJobQueue(redis, turns, health, prefix=prefix, on_stall=turns.stalled, **options)
    app = _app(settings, agent, store, jobs, client)
    OutageNotice(client).install(app)
    log.info("state and jobs: Redis (shared by every replica), worker %s", jobs.consumer)
    return BotRuntime(settings, agent, store, jobs, client, app, health=health, _closers=[redis.aclose])


def _app(settings: BotSettings, agent: AgentPort, store: StateStore, jobs: JobRunner, client: AsyncWebClient) -> AsyncApp:
    surfaces = Surfaces(settings=settings, agent=agent, store=store, jobs=jobs, client=client)
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None
    return build_app(surfaces, signing_secret=secret)
