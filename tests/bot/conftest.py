"""Fixtures: the Web API stand-in, and the bot's real HTTP endpoint wired to it (fake or real agent)."""

from __future__ import annotations

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


async def start_bot(
    bot_settings, slack: SlackStandIn, agent
) -> tuple[RunningBot, web.AppRunner, aiohttp.ClientSession]:
    runtime = build_runtime(bot_settings, agent, progress_interval_s=0)
    runner = web.AppRunner(build_web_app(runtime.app))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    session = aiohttp.ClientSession()
    url = f"http://127.0.0.1:{port}"
    return RunningBot(runtime, slack, SlackSender(url + EVENTS_PATH, SECRET, session), url), runner, session


@pytest.fixture
async def bot(bot_settings, slack, fake_agent):
    running, runner, session = await start_bot(bot_settings, slack, fake_agent)
    yield running
    await running.runtime.close()
    await session.close()
    await runner.cleanup()
