"""Declines and ask-backs offer the nearest readings as buttons, through the bot's signed HTTP endpoint and
the Web API stand-in, with the real offline agent on the demo warehouse; a button asks that reading, and
its confirmation's Run gives the gold rows."""

from __future__ import annotations

import pytest

from bot.render import actions
from tests.support.bot_server import serving_bot
from tests.support.conversation import Conversation, holds_gold


@pytest.fixture(scope="module")
async def demo_agent(settings):
    from agent.api import Assistant

    assistant = Assistant.from_settings(settings)
    yield assistant
    await assistant.aclose()


def _readings(seen) -> list[dict]:
    return [b for b in seen.buttons if b["action_id"].startswith(actions.FOLLOW_UP)]


async def _run_reading(conversation: Conversation, seen, label: str):
    chosen = next((b for b in _readings(seen) if b["text"]["text"] == label), None)
    assert chosen is not None, [b["text"]["text"] for b in _readings(seen)]
    asked = await conversation.press(seen, chosen)
    run = asked.button(actions.RUN)
    assert run is not None and "Reading it as" in asked.text, asked.text  # after the echo of what was asked
    return await conversation.press(asked, run)


async def test_a_value_the_warehouse_lacks_offers_the_closest_value_as_a_reading(demo_agent, bot_settings, slack):
    async with serving_bot(bot_settings, slack, demo_agent) as bot:
        conversation = Conversation(bot, slack, None, channel="C1", root_ts="1700000100.01")
        seen = await conversation.say("how many flights from JFKK in June")
        assert seen.rows is None and "JFKK" in seen.prose
        labels = [b["text"]["text"] for b in _readings(seen)]
        assert 1 <= len(labels) <= 3 and labels[0] == "how many flights from JFK in June", labels
        ids = [b["action_id"] for b in seen.buttons]
        assert len(ids) == len(set(ids))
        answer = await _run_reading(conversation, seen, labels[0])
        gold = demo_agent.context.warehouse.run("SELECT COUNT(*) FROM flights WHERE origin = 'JFK' AND month = 6")
        assert answer.rows is not None and answer.columns is not None
        assert holds_gold(answer.rows, len(answer.columns), [list(r) for r in gold.rows], 1), answer.rows


async def test_an_ask_back_offers_the_reading_with_the_closest_measure(demo_agent, bot_settings, slack):
    async with serving_bot(bot_settings, slack, demo_agent) as bot:
        conversation = Conversation(bot, slack, None, channel="C1", root_ts="1700000200.01")
        seen = await conversation.say("average arival dealyy by carrier")  # a slip too many to read as words
        assert any(b["action_id"].startswith(actions.CHOOSE) for b in seen.buttons)  # the question still stands
        ids = [b["action_id"] for b in seen.buttons]
        assert len(ids) == len(set(ids))
        answer = await _run_reading(conversation, seen, "average arrival delay by carrier")
        gold = demo_agent.context.warehouse.run("SELECT carrier, AVG(arr_delay) FROM flights GROUP BY carrier")
        assert answer.rows is not None and answer.columns is not None
        assert holds_gold(answer.rows, len(answer.columns), [list(r) for r in gold.rows], 2), answer.rows


async def test_a_nearest_reading_never_leaves_out_a_word_that_turns_the_question_round(demo_agent):
    # 'no' and 'gusts' are not placed: the question without them ('how many flights had wind') would be the
    # opposite question, so it is not offered
    reply = await demo_agent.reply(demo_agent.ask("negation-1", "how many flights had no wind gusts"))
    assert reply.ask_human is not None
    assert all(" no " in f" {reading} " for reading in reply.ask_human.readings), reply.ask_human.readings


async def test_a_word_the_reader_could_not_place_is_said_with_the_nearest_reading(demo_agent, bot_settings, slack):
    async with serving_bot(bot_settings, slack, demo_agent) as bot:
        conversation = Conversation(bot, slack, None, channel="C1", root_ts="1700000300.01")
        seen = await conversation.say("busy origins")
        # the reader stopped at 'busy', not at a choice of table: the word is said, no table offered
        assert "busy" in seen.prose and "Which data should I use" not in seen.prose, seen.prose
        ids = [b["action_id"] for b in seen.buttons]
        assert len(ids) == len(set(ids))
        answer = await _run_reading(conversation, seen, "origins")
        gold = demo_agent.context.warehouse.run("SELECT origin, COUNT(*) FROM flights GROUP BY origin")
        assert answer.rows is not None and answer.columns is not None
        assert holds_gold(answer.rows, len(answer.columns), [list(r) for r in gold.rows], 2), answer.rows
