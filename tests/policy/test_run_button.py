"""A confirmation belongs to the person who asked (and the policy's run_button groups)."""

from __future__ import annotations

from agent.api import Assistant
from agent.api import ChatContext
from tests.policy.conftest import ANALYST

OTHER = ChatContext(user="UOPS", channel="CDATA")
LEAD = ChatContext(user="ULEAD", channel="CDATA")


async def _pending(policed, session):
    reply = await policed.reply(policed.ask(session, "number of flights by origin", ANALYST))
    assert reply.ask_human is not None and reply.ask_human.kind == "confirm_sql"
    return reply


async def test_someone_elses_click_is_refused_and_the_question_stays_open(policed, session):
    await _pending(policed, session)
    for choice in ("run", "edit", "cancel"):
        refused = await policed.reply(policed.resume(session, choice, OTHER, edited_sql="SELECT 1"))
        assert refused.error_code == "not_yours" and "person who asked" in refused.error and refused.rows == []
    assert await policed.pending(session) is not None
    mine = await policed.reply(policed.resume(session, "run", ANALYST))
    assert mine.error is None and mine.row_count == 3


async def test_a_run_button_group_member_may_click(policed, session):
    await _pending(policed, session)
    reply = await policed.reply(policed.resume(session, "run", LEAD))
    assert reply.error is None and reply.row_count == 3


async def test_someone_elses_yes_in_the_thread_is_refused(policed, session):
    await _pending(policed, session)
    refused = await policed.reply(policed.ask(session, "yes, run it", OTHER))
    assert refused.error_code == "not_yours"
    assert await policed.pending(session) is not None


async def test_without_a_policy_the_asker_still_owns_the_button(base_context):
    offline_assistant = Assistant(base_context)
    session = "owner-no-policy"
    first = await offline_assistant.reply(offline_assistant.ask(session, "number of flights by origin", ANALYST))
    assert first.ask_human is not None
    refused = await offline_assistant.reply(offline_assistant.resume(session, "run", OTHER))
    assert refused.error_code == "not_yours"


async def test_a_slack_user_group_the_bot_passes_counts_like_a_policy_group(policed, session):
    await _pending(policed, session)
    slack_lead = ChatContext(user="UNEWLEAD", channel="CDATA", groups=["S0123", "leads"])
    reply = await policed.reply(policed.resume(session, "run", slack_lead))
    assert reply.error is None and reply.row_count == 3


async def test_someone_elses_new_question_in_the_thread_leaves_the_askers_open(policed, session):
    await _pending(policed, session)
    refused = await policed.reply(policed.ask(session, "number of flights by carrier", OTHER))
    assert refused.error_code == "not_yours"
    assert await policed.pending(session) is not None
    mine = await policed.reply(policed.resume(session, "run", ANALYST))
    assert mine.error is None and mine.row_count == 3
