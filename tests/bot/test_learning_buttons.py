"""Through Slack with the real agent: a clarification answered with a button ends with "Remember “hub” =
origin airport for everyone?", whose button keeps the word for the workspace and says so to the clicker."""

from __future__ import annotations

import pytest

from agent.api import learning_command
from bot.render import actions
from tests.support.bot_server import serving_bot
from tests.support.slack_requests import click, find_button, find_feedback, mention


@pytest.fixture(scope="module")
async def real_agent(settings):
    from agent.api import Assistant

    assistant = Assistant.from_settings(settings)
    yield assistant
    await assistant.aclose()


@pytest.fixture
async def real_bot(bot_settings, slack, real_agent):
    async with serving_bot(bot_settings, slack, real_agent) as running:
        yield running
    learning_command(bot_settings, "vocabulary", "forget", "hub", "T1")  # the stand-in's workspace


def _buttons(message: dict) -> list[dict]:
    return [e for b in message.get("blocks", []) if b.get("type") == "actions" for e in b.get("elements", [])]


async def test_a_clarification_answered_by_button_offers_to_remember_the_word(real_bot, slack, real_agent):
    await real_bot.send.event(mention("flights per hub", ts="300.1"))
    await real_bot.drain()
    question = slack.thread("C1", "300.1")[-1]
    [origin] = [b for b in _buttons(question) if b["text"]["text"] == "origin airport"]
    await real_bot.send.interaction(click(origin["action_id"], origin["value"], message=question, label="origin airport"))
    await real_bot.drain()
    answered = slack.thread("C1", "300.1")[-1]
    texts = " ".join(b.get("text", {}).get("text", "") for b in answered["blocks"] if b.get("type") == "section")
    assert "Remember “hub” = origin airport for everyone?" in texts
    remember = find_button(answered, actions.LEARN)
    assert remember is not None
    await real_bot.send.interaction(click(actions.LEARN, remember["value"], message=answered, label="Remember"))
    await real_bot.drain()
    assert any("Remembered for everyone here: “hub” means origin airport." in m["text"] for m in slack.ephemerals())
    assert "hub" in real_agent.learning.store.words("T1")


async def test_a_thumbs_up_saves_the_answer_as_a_verified_query(real_bot, slack, real_agent):
    await real_bot.send.event(mention("number of flights from JFK by carrier", ts="301.1"))
    await real_bot.drain()
    question = slack.thread("C1", "301.1")[-1]
    run = find_button(question, actions.RUN)
    await real_bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await real_bot.drain()
    answer = slack.thread("C1", "301.1")[-1]
    thumbs = find_feedback(answer, "up")
    await real_bot.send.interaction(click(thumbs["action_id"], thumbs["value"], message=answer))
    await real_bot.drain()
    try:
        assert any("Saved as a verified query" in m["text"] for m in slack.ephemerals()), slack.ephemerals()
        [saved] = real_agent.learning.store.queries("T1").values()
        assert saved.question == "number of flights from JFK by carrier" and saved.saved_by == "U1"
    finally:
        for name in real_agent.learning.store.queries("T1"):
            learning_command(real_agent.settings, "verified", "forget", name, "T1")
