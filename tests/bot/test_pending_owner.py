"""A pending confirmation belongs to its asker (issue 25, finding 3).

While A's question waits for Run, B writes in A's thread (words that read as an answer, and a new
question). B's messages must neither answer, cancel nor take over A's question: B gets a note only
B sees, nothing is posted in the thread, and A's own Run click afterwards runs A's query. Through the
bot's real HTTP endpoint with signed events, the real offline agent and the Slack stand-in.
"""

from __future__ import annotations

import pytest

from bot.listeners.app import WAITS_FOR_ASKER
from bot.render import actions
from tests.support.bot_server import serving_bot
from bot.sessions import thread_key
from tests.support.slack_requests import click, find_button, mention, message


@pytest.fixture(scope="module")
async def real_agent(settings):
    from agent.api import Assistant

    assistant = Assistant.from_settings(settings)
    yield assistant
    await assistant.aclose()


def _text(msg: dict) -> str:
    return msg["text"] + "\n" + "\n".join(
        b["text"]["text"] if "text" in b else " ".join(str(e.get("text", "")) for e in b.get("elements", []))
        for b in msg["blocks"]
    )


async def test_someone_elses_message_in_the_thread_leaves_the_askers_run_working(bot_settings, slack, real_agent):
    async with serving_bot(bot_settings, slack, real_agent) as bot:
        await bot.send.event(mention("average arrival delay by origin", ts="300.1", user="U-A"))
        await bot.drain()
        question = slack.thread("C1", "300.1")[-1]
        run = find_button(question, actions.RUN)
        assert run, _text(question)
        posted = len(slack.thread("C1", "300.1"))

        for n, words in enumerate(("run it", "and the number of flights by carrier?")):
            await bot.send.event(message(words, ts=f"300.{n + 2}", thread_ts="300.1", user="U-B"))
            await bot.drain()
        notes = [e for e in slack.ephemerals() if e.get("user") == "U-B"]
        assert [note["text"] for note in notes] == [WAITS_FOR_ASKER, WAITS_FOR_ASKER]
        assert len(slack.thread("C1", "300.1")) == posted, "B's words were answered in A's thread"
        session_id = await bot.runtime.store.session_for(thread_key("C1", "300.1"))
        assert await real_agent.may_answer(session_id, _as("U-A"))
        assert not await real_agent.may_answer(session_id, _as("U-B"))

        await bot.send.interaction(click(actions.RUN, run["value"], message=question, user="U-A", label="Run"))
        await bot.drain()
        answer = slack.thread("C1", "300.1")[-1]
        text = _text(answer)
        assert ":warning:" not in text and "belongs to" not in text, text
        assert any(code in text for code in ("EWR", "JFK", "LGA")), text
        assert not [e for e in slack.ephemerals() if e.get("user") == "U-A"], "A's own Run click was refused"


def _as(user: str):
    from agent.api import ChatContext

    return ChatContext(user=user, channel="C1")


async def test_a_click_on_a_question_replaced_since_does_not_answer_the_one_pending_now(bot_settings, slack, real_agent):
    """The session (the agent) is the one owner of what is pending, and a button names the question it
    answers: Run on a question the asker replaced by a new one is told it was answered, and the new
    question still waits for its own Run."""
    async with serving_bot(bot_settings, slack, real_agent) as bot:
        await bot.send.event(mention("average arrival delay by origin", ts="400.1", user="U-A"))
        await bot.drain()
        first = slack.thread("C1", "400.1")[-1]
        old_run = find_button(first, actions.RUN)
        assert old_run, _text(first)

        await bot.send.event(message("number of flights by carrier", ts="400.2", thread_ts="400.1", user="U-A"))
        await bot.drain()
        second = slack.thread("C1", "400.1")[-1]
        new_run = find_button(second, actions.RUN)
        assert new_run and new_run["value"] != old_run["value"], _text(second)
        session_id = await bot.runtime.store.session_for(thread_key("C1", "400.1"))
        waiting = await real_agent.pending(session_id)
        assert waiting is not None and "carrier" in (waiting.sql or "")

        await bot.send.interaction(click(actions.RUN, old_run["value"], message=first, user="U-A", label="Run"))
        await bot.drain()
        assert [e["text"] for e in slack.ephemerals() if e.get("user") == "U-A"] == ["That question was already answered."]
        assert await real_agent.pending(session_id) == waiting, "the old button answered the new question"

        await bot.send.interaction(click(actions.RUN, new_run["value"], message=second, user="U-A", label="Run"))
        await bot.drain()
        assert await real_agent.pending(session_id) is None
        assert "9E" in _text(slack.thread("C1", "400.1")[-1]) or "carrier" in _text(slack.thread("C1", "400.1")[-1])
