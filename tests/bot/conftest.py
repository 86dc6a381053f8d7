"""Fixtures: the Web API stand-in, and the bot's real HTTP endpoint wired to it (fake or real agent)."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from bot.settings import load_bot_settings
from tests.support.bot_server import SECRET, serving_bot
from tests.support.fakes import FakeAgent
from tests.support.slack_standin import SlackStandIn


@pytest.fixture
async def slack():
    standin = await SlackStandIn().start()
    yield standin
    await standin.close()


@pytest.fixture(scope="session")
def settings(settings):
    """The agent's test settings plus the bot's, with no Slack token from the environment."""
    return load_bot_settings(
        _env_file=None, **settings.model_dump(), slack_bot_token=None, slack_app_token=None, slack_signing_secret=None
    )


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


@pytest.fixture
async def bot(bot_settings, slack, fake_agent):
    async with serving_bot(bot_settings, slack, fake_agent) as running:
        yield running
