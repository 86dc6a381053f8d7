"""Teaching in words: "when I say hub I mean origin airport" and "by tardy we mean arrival delay > 15" are
read back for confirmation and kept only once confirmed; a meaning the model cannot hold is said, not kept."""

from __future__ import annotations

import yaml

from agent.api import ChatContext, learning_command
from tests.learning.conftest import ask

TEACHER = ChatContext(user="U1", channel="C1", workspace="T1")


async def test_a_word_for_a_thing_of_the_model_is_confirmed_then_read(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    shown = await ask(assistant, new_session(), "When I say hub I mean the origin airport.", TEACHER)
    assert shown.learn is not None and (shown.learn.kind, shown.learn.name) == ("dimension", "origin")
    assert assistant.learning.store.words("T1") == {}  # nothing kept before it is confirmed
    assert (await assistant.learn_word("s", shown.learn, TEACHER)).ok
    read = await ask(assistant, new_session(), "flights per hub", TEACHER)
    assert "Number of flights by origin airport" in read.text


async def test_a_condition_in_words_becomes_a_definition_the_reader_uses(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    shown = await ask(assistant, new_session(), "by tardy we mean arrival delay > 15", TEACHER)
    assert shown.learn is not None and shown.learn.kind == "definition", shown.text
    assert (await assistant.learn_word("s", shown.learn, TEACHER)).ok
    learned = assistant.learning.store.words("T1")["tardy"]
    assert learned.definition is not None and learned.definition["kind"] == "condition"
    session = new_session()
    asked = await ask(assistant, session, "how many tardy flights were there?", TEACHER)
    assert asked.sql is not None and "arr_delay" in asked.sql and "15" in asked.sql, asked.text
    overlay = yaml.safe_load("\n".join(learning_command(assistant.settings, "vocabulary", "export", None, "T1")[1]))
    [flights] = overlay["semantic_models"]
    assert flights["dimensions"][0]["expr"] == learned.definition["expr"]


async def test_a_meaning_the_model_cannot_hold_is_said_and_nothing_is_kept(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    reply = await ask(assistant, new_session(),
                      "when I say frequent flyer I mean a passenger with ten trips in the last 90 days", TEACHER)
    assert reply.learn is None and "did not learn “frequent flyer”" in reply.text
    assert assistant.learning.store.words("T1") == {}
