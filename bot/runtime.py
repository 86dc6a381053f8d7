"""Wiring: settings + agent -> store, job runner, Web API client, surfaces, Bolt app. Built once at start."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from agent.settings import Settings
from bot.agent_port import AgentPort
from bot.app import Surfaces, build_app
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

    async def close(self) -> None:
        await self.jobs.close()


def build_runtime(
    settings: Settings,
    agent: AgentPort,
    *,
    store: StateStore | None = None,
    client: AsyncWebClient | None = None,
    progress_interval_s: float | None = None,
) -> BotRuntime:
    if store is None:
        if settings.redis_url:
            log.warning("REDIS_URL is set but the Redis state store is not wired yet; using the in-process store")
        log.info("state: in-process store (one process only)")
        store = InMemoryStateStore()
    client = client or build_web_client(settings)
    turn_options = {} if progress_interval_s is None else {"progress_interval_s": progress_interval_s}
    jobs = InProcessJobRunner(TurnRunner(agent, client, store, **turn_options))
    surfaces = Surfaces(settings=settings, agent=agent, store=store, jobs=jobs, client=client)
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None
    app = build_app(surfaces, signing_secret=secret)
    return BotRuntime(settings=settings, agent=agent, store=store, jobs=jobs, client=client, app=app)
