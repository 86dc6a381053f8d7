"""Fixtures: the Web API stand-in, and the bot's real HTTP endpoint wired to it (fake or real agent)."""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiohttp
import pytest
from aiohttp import web
from pydantic import SecretStr

from bot.http_server import EVENTS_PATH, build_web_app
from bot.runtime import BotRuntime, build_runtime
from fakes import FakeAgent
from slack_requests import SlackSender
from slack_standin import SlackStandIn

SECRET = "test-signing-secret"


@dataclass
class RunningBot:
    runtime: BotRuntime
    slack: SlackStandIn
    send: SlackSender
    url: str

    async def drain(self) -> None:
        await self.runtime.jobs.drain()


@pytest.fixture
async def slack():
    standin = await SlackStandIn().start()
    yield standin
    await standin.close()


@pytest.fixture
def bot_settings(settings, slack):
    return settings.model_copy(
        update={
            "slack_bot_token": SecretStr("xoxb-test"),
            "slack_signing_secret": SecretStr(SECRET),
            "slack_api_url": slack.api_url,
            "bot_mode": "http",
            "user_rate_limit_per_minute": 100,
        }
    )


@pytest.fixture
def fake_agent():
    return FakeAgent()


@asynccontextmanager
async def serving_bot(bot_settings, slack: SlackStandIn, agent, *, redis_options: dict | None = None):
    """The bot's real HTTP endpoint on a free loopback port, over `agent`; torn down on exit.
    With `bot_settings.redis_url`, `redis_options` must name the test's own key prefix."""
    runtime = build_runtime(bot_settings, agent, progress_interval_s=0, redis_options=redis_options)
    await runtime.start()
    runner = web.AppRunner(build_web_app(runtime.app, runtime.readiness))
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


@pytest.fixture
async def bot(bot_settings, slack, fake_agent):
    async with serving_bot(bot_settings, slack, fake_agent) as running:
        yield running
