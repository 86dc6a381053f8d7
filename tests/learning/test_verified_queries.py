"""Verified queries: "save this" (or a 👍) keeps the question and its reading; the same question, or the
same shape with another value, is answered from it and says so; never for someone who may not read its
tables, nor in another workspace; forgotten, it is gone."""

from __future__ import annotations

import re

from agent.api import ChatContext, learning_command
from tests.learning.conftest import ask

SAVER = ChatContext(user="U1", channel="C1", workspace="T1")
QUESTION = "number of flights from JFK by carrier"


async def _answered(assistant, session, question, who):
    reply = await ask(assistant, session, question, who)
    if reply.ask_human is not None and reply.ask_human.kind == "confirm_sql":
        reply = await assistant.reply(assistant.resume(session, "run", who))
    return reply


async def _save(assistant, session):
    answer = await _answered(assistant, session, QUESTION, SAVER)
    assert answer.ok and answer.rows, answer.error
    saved = await ask(assistant, session, "save this", SAVER)
    assert saved.ok and "Saved as a verified query" in saved.text
    return answer


async def test_a_saved_question_answers_the_same_shape_with_a_new_value_and_says_so(make_learning_assistant,
                                                                                   new_session, audit):
    assistant = make_learning_assistant()
    await _save(assistant, new_session())
    [query] = assistant.learning.store.queries("T1").values()
    assert query.question == QUESTION and query.saved_by == "U1" and query.intent["filters"]
    assert [r["action"] for r in audit if r.get("action")] == ["verified.save"]
    other = await _answered(assistant, new_session(), "number of flights from LGA by carrier", ChatContext(user="U2", workspace="T1"))
    day = query.saved_at[:10]
    assert f"Answered from a verified query saved by U1 on {day}, with LGA in place of JFK." in other.text
    assert "LGA" in (other.sql or "") and "JFK" not in (other.sql or "")
    plain = await _answered(assistant, new_session(), QUESTION, ChatContext(user="U3", workspace="T1"))
    assert re.search(r"Answered from a verified query saved by U1 on [\d-]+\.", plain.text)


async def test_another_workspace_and_a_forgotten_query_answer_without_it(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    await _save(assistant, new_session())
    elsewhere = await _answered(assistant, new_session(), QUESTION, ChatContext(user="U2", workspace="T2"))
    assert elsewhere.ok and "verified query" not in elsewhere.text
    [name] = assistant.learning.store.queries("T1")
    assert learning_command(assistant.settings, "verified", "forget", name, "T1")[0] == 0
    after = await _answered(assistant, new_session(), QUESTION, SAVER)
    assert after.ok and "verified query" not in after.text


POLICY = """\
version: 1
contact: "#data-access"
default: allow
rules:
  - users: [UOUTSIDER]
    deny: [main.flights]
"""


async def test_a_verified_query_is_never_used_for_someone_who_cannot_read_its_tables(make_learning_assistant,
                                                                                    new_session):
    assistant = make_learning_assistant(policy=POLICY)
    await _save(assistant, new_session())
    [query] = assistant.learning.store.queries("T1").values()
    assert query.tables == ["flights"]
    outsider = await _answered(assistant, new_session(), QUESTION, ChatContext(user="UOUTSIDER", workspace="T1"))
    assert "verified query" not in (outsider.text or "") + (outsider.error or "")


async def test_nothing_to_save_is_said(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    reply = await ask(assistant, new_session(), "save this", SAVER)
    assert not reply.ok and "no answered question" in reply.error


async def test_with_an_llm_the_nearest_verified_readings_this_person_may_read_are_examples(make_learning_assistant,
                                                                                        new_session):
    from agent.learning.verified import prompt_examples
    from agent.tools.semantic import compile_checked

    assistant = make_learning_assistant(policy=POLICY)
    await _save(assistant, new_session())
    saver = assistant._with_learned_words(assistant.governance.context_for(assistant.context, SAVER), SAVER)
    shown = prompt_examples(saver, "flights out of JFK per airline", compile_checked)
    assert "Q: number of flights from JFK by carrier" in shown and '"filters"' in shown
    outsider_who = ChatContext(user="UOUTSIDER", workspace="T1")
    outsider = assistant._with_learned_words(assistant.governance.context_for(assistant.context, outsider_who),
                                             outsider_who)
    assert prompt_examples(outsider, "flights out of JFK per airline", compile_checked) == ""
