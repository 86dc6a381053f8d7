"""The bot's real HTTP endpoint on a free loopback port, wired to the Slack stand-in and any agent."""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiohttp
from aiohttp import web

from bot.http_server import EVENTS_PATH, build_web_app
from bot.runtime import BotRuntime, build_runtime
from tests.support.slack_requests import SlackSender
from tests.support.slack_standin import SlackStandIn

SECRET = "test-signing-secret"


@dataclass
class RunningBot:
    runtime: BotRuntime
    slack: SlackStandIn
    send: SlackSender
    url: str

    async def drain(self) -> None:
        await self.runtime.jobs.drain()


@asynccontextmanager
async def serving_bot(bot_settings, slack: SlackStandIn, agent, *, redis_options: dict | None = None):
    """The bot's real HTTP endpoint on a free loopback port, over `agent`; torn down on exit.
    With `bot_settings.redis_url`, `redis_options` must name the test's own key prefix."""
    runtime = build_runtime(bot_settings, agent, progress_interval_s=0, redis_options=redis_options)
    await runtime.start()
    runner = web.AppRunner(
        build_web_app(runtime.app, runtime.readiness, metrics=runtime.metrics, ack_first=runtime.ack_first)
    )
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as session:
        try:
            yield RunningBot(runtime, slack, SlackSender(url + EVENTS_PATH, SECRET, session), url)
        finally:
            await runtime.close()
            await runner.cleanup()
