"""The conversation as a person has it: waiting does not count, clarifications take their options,
"why?" explains, definitions and how-tos come from the docs, and only explicit follow-ups merge."""

from __future__ import annotations

import dataclasses
import itertools
import time

import pytest

from agent.api import Assistant

_sessions = itertools.count()


@pytest.fixture
def session():
    return f"rules-{next(_sessions)}"


async def ask(assistant, session, text):
    return await assistant.reply(assistant.ask(session, text))


def later(monkeypatch, seconds: float) -> None:
    """Move the agent's clock forward, as if the person answered `seconds` later."""
    now = time.time()
    monkeypatch.setattr("agent.api.time.time", lambda: now + seconds)
    monkeypatch.setattr("agent.supervisor.calls.time.time", lambda: now + seconds)


async def test_waiting_for_a_person_does_not_count_against_the_run_deadline(offline_context, session, monkeypatch):
    settings = offline_context.settings.model_copy(update={"max_execute_second": 5})
    assistant = Assistant(dataclasses.replace(offline_context, settings=settings))
    question = await ask(assistant, session, "average departure delay at JFK")
    assert question.ask_human and question.ask_human.kind == "confirm_sql"
    later(monkeypatch, 120)  # the Run click comes two minutes later
    answer = await assistant.reply(assistant.resume(session, "run"))
    assert answer.error is None and answer.row_count == 1


async def test_an_expired_confirmation_says_so_and_offers_to_ask_again(offline_context, session, monkeypatch):
    settings = offline_context.settings.model_copy(update={"pending_ttl_s": 30})
    assistant = Assistant(dataclasses.replace(offline_context, settings=settings))
    await ask(assistant, session, "average departure delay at JFK")
    later(monkeypatch, 31)
    answer = await assistant.reply(assistant.resume(session, "run"))
    assert "expired" in answer.text and answer.sql is None and answer.error is None
    assert answer.follow_ups == ["average departure delay at JFK"]
    assert await assistant.pending(session) is None


async def test_run_typed_at_a_clarification_is_not_taken_as_an_option(offline_assistant, session):
    first = await ask(offline_assistant, session, "number of flights by airport")
    assert first.ask_human and first.ask_human.kind == "clarify"
    options = [o.label for o in first.ask_human.options]
    again = await ask(offline_assistant, session, "run")
    assert again.ask_human and again.ask_human.kind == "clarify"
    assert all(o in again.text for o in options)
    picked = await ask(offline_assistant, session, f"the {options[0]} please")
    assert picked.ask_human is None or picked.ask_human.kind == "confirm_sql"


async def test_why_explains_the_last_answer_in_words(offline_assistant, session):
    answer = await ask(offline_assistant, session, "average departure delay at JFK")
    answer = await offline_assistant.reply(offline_assistant.resume(session, "run"))
    assert answer.row_count == 1
    why = await ask(offline_assistant, session, "why?")
    assert why.error is None and "outside" not in why.text
    assert "I read your question as" in why.text and "flights" in why.text


async def test_a_definition_question_answers_from_the_glossary(offline_assistant, session):
    reply = await ask(offline_assistant, session, "what counts as a cancelled flight?")
    assert reply.tools == ["datasuite_faq"] and reply.sql is None
    assert "cancelled flight" in reply.text.lower()


async def test_a_how_to_question_about_the_bot_answers_from_its_own_docs(offline_assistant, session):
    reply = await ask(offline_assistant, session, "how do I connect the bot to our warehouse?")
    assert reply.tools == ["datasuite_faq"]
    assert "WAREHOUSE_URL" in reply.text


async def test_a_new_question_in_the_thread_does_not_pick_up_an_earlier_metric(offline_assistant, session):
    first = await ask(offline_assistant, session, "average departure delay by carrier name")
    await offline_assistant.reply(offline_assistant.resume(session, "run"))
    assert first.sql and "dep_delay" in first.sql
    second = await ask(offline_assistant, session, "just give me the number of flights per origin airport")
    assert second.sql and "dep_delay" not in second.sql


async def test_an_explicit_follow_up_still_merges(offline_assistant, session):
    await ask(offline_assistant, session, "average departure delay at JFK")
    await offline_assistant.reply(offline_assistant.resume(session, "run"))
    follow = await ask(offline_assistant, session, "now by month")
    assert follow.sql and "JFK" in follow.sql and "dep_delay" in follow.sql


async def test_the_edit_button_gets_the_sql_waiting_for_confirmation(offline_assistant, session):
    question = await ask(offline_assistant, session, "average departure delay at JFK")
    pending = await offline_assistant.pending(session)
    assert pending.kind == "confirm_sql" and pending.sql and pending.sql == question.ask_human.sql
    assert "JFK" in pending.sql
