"""The token is checked once at start-up; readiness starts from that answer instead of asking Slack
again on the first /readyz (a round trip to Slack before the bot reports ready)."""

from __future__ import annotations

import pytest

from bot.slack_auth import SlackAuth, SlackAuthError
from bot.slack_client import build_web_client


@pytest.fixture
async def auth(bot_settings):
    client = build_web_client(bot_settings)
    yield SlackAuth(client)
    await client.aclose()


async def test_start_ups_check_is_readinesss_first_answer(auth, slack):
    assert await auth.verify() == "UBOT"
    assert await auth.problem() is None
    assert len(slack.calls_to("auth.test")) == 1


async def test_a_refused_token_is_asked_again_not_kept_as_fine(auth, slack):
    slack.fail("auth.test", "token_revoked", times=1)
    with pytest.raises(SlackAuthError, match="revoked"):
        await auth.verify()
    assert await auth.problem() is None  # asked again: Slack accepts it now
    assert len(slack.calls_to("auth.test")) == 2
    slack.fail("auth.test", "token_revoked", times=1)
    auth.cache_s = 0
    assert "revoked" in (await auth.problem() or "")
