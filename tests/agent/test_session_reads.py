"""A turn reads its session's checkpoint once (issue 23): the API reads it when an ask or a resume
starts and hands that reading on, to its own code and to the run, which starts from it
(`agent.session.reads`); the run's own end comes from what the run streamed. Each read decodes every
channel, in Redis after a round trip.
"""

from __future__ import annotations

from typing import Any

from agent.api import Assistant
from tests.support.counting import CountingSaver

# One read when the turn starts: the API reads the session, and its run starts from that reading.
READS_PER_TURN = 1


async def _turn(assistant: Assistant, saver: CountingSaver, events: Any) -> tuple[Any, int]:
    before = saver.reads
    reply = await assistant.reply(events)
    return reply, saver.reads - before


async def test_an_ask_and_its_run_each_read_the_session_once(offline_context):
    saver = CountingSaver()
    assistant = Assistant(offline_context, saver)
    session = "reads-once"

    asked, reads = await _turn(assistant, saver, assistant.ask(session, "average arrival delay by carrier"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked
    assert reads == READS_PER_TURN

    ran, reads = await _turn(assistant, saver, assistant.resume(session, "run"))
    assert ran.error is None and ran.rows, ran
    assert reads == READS_PER_TURN

    # a follow-up in words: the same single reading serves the edit of the earlier question
    again, reads = await _turn(assistant, saver, assistant.ask(session, "now for EWR"))
    assert again.ask_human is not None and "EWR" in (again.sql or ""), again
    assert reads == READS_PER_TURN


async def test_a_reply_naming_the_pending_question_is_answered_from_the_one_reading(offline_context):
    saver = CountingSaver()
    assistant = Assistant(offline_context, saver)
    session = "reads-answer"
    await assistant.reply(assistant.ask(session, "number of flights by origin"))

    ran, reads = await _turn(assistant, saver, assistant.ask(session, "run it"))
    assert ran.error is None and ran.rows, ran
    assert reads == READS_PER_TURN


async def test_what_the_run_streamed_is_what_its_checkpoint_holds(offline_context):
    """The reply made without reading the checkpoint back says what reading it back would say."""
    saver = CountingSaver()
    assistant = Assistant(offline_context, saver)
    session = "reads-same"
    asked = await assistant.reply(assistant.ask(session, "average departure delay by origin"))
    assert asked.ask_human == await assistant.pending(session)
    ran = await assistant.reply(assistant.resume(session, "run"))
    assert await assistant.pending(session) is None
    snapshot = await assistant.graph.aget_state({"configurable": {"thread_id": session}})
    assert ran.rows == snapshot.values["reply"]["rows"] and ran.text == snapshot.values["reply"]["text"]


async def test_a_run_writes_the_in_process_checkpoint_once_as_it_ends(offline_context):
    """The in-process saver keeps only the latest checkpoint: one written after every step would be
    compressed only to be dropped by the next."""
    saver = CountingSaver()
    assistant = Assistant(offline_context, saver)
    asked = await assistant.reply(assistant.ask("writes-once", "number of flights by carrier"))
    assert asked.ask_human is not None and saver.puts == 1
    ran = await assistant.reply(assistant.resume("writes-once", "run"))
    assert ran.rows and saver.puts == 2


async def test_a_question_asked_then_run_reads_its_checkpoint_twice_in_all(offline_context):
    """The review's walk (bench/crossings_bench.py): ask, then Run at the confirmation; one read a turn."""
    saver = CountingSaver()
    assistant = Assistant(offline_context, saver)
    asked = await assistant.reply(assistant.ask("walk", "average arrival delay by carrier last month"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked
    ran = await assistant.reply(assistant.resume("walk", "run"))
    assert ran.error is None and ran.rows, ran
    assert saver.reads == 2


async def test_a_new_question_over_a_pending_one_reads_again_what_the_cancel_wrote(offline_context):
    """The pending question is cancelled by a run of its own, which writes the session: the new
    question's run reads that write, not the turn's first reading."""
    saver = CountingSaver()
    assistant = Assistant(offline_context, saver)
    session = "reads-replaced"
    await assistant.reply(assistant.ask(session, "number of flights by origin"))

    again, reads = await _turn(assistant, saver, assistant.ask(session, "average arrival delay by carrier"))
    assert again.ask_human is not None and "carrier" in (again.sql or "").lower(), again
    assert "dropped my earlier question" in (again.text or ""), again
    assert reads == 2
