"""Per-person work outside a run fails closed: with no run there is no person to scope the data to,
so the offline model's reads refuse instead of reading the unscoped warehouse, catalog or values.
Each run's context hands its own copy of the model that context, explicitly (no context variable)."""

from __future__ import annotations

import dataclasses

import pytest

from agent.context import OutsideARun
from agent.errors import NoRunContextError
from agent.llm.routing import route_message
from agent.llm.reader import RunReader
from agent.tools.semantic import SemanticParse


async def test_the_unscoped_contexts_model_refuses_to_read(offline_context) -> None:
    reader = offline_context.model.reader
    assert isinstance(reader, OutsideARun)
    with pytest.raises(NoRunContextError) as refused:
        await reader.is_data_question("average arrival delay by carrier")
    assert "who is asking" in refused.value.user_message
    with pytest.raises(NoRunContextError):
        await reader.knows_term("carrier")
    with pytest.raises(NoRunContextError):
        await reader.sql_runs("SELECT 1")
    with pytest.raises(NoRunContextError):
        await reader.read_intent("average arrival delay by carrier")
    with pytest.raises(NoRunContextError):
        await route_message("average arrival delay by carrier", reader)


async def test_the_unscoped_contexts_model_refuses_a_structured_reading(offline_context) -> None:
    structured = offline_context.model.with_structured_output(SemanticParse, method="function_calling")
    with pytest.raises(NoRunContextError):
        await structured.ainvoke("average arrival delay by carrier")


def test_a_runs_context_hands_its_model_itself_and_again_on_every_copy(offline_context) -> None:
    run = dataclasses.replace(offline_context, per_run=True)
    assert isinstance(run.model.reader, RunReader) and run.model.reader.context is run
    copy = dataclasses.replace(run, options={"verified": []})  # as the learned words are laid on a run
    assert copy.model.reader.context is copy
    assert isinstance(offline_context.model.reader, OutsideARun)  # the unscoped one is left as it was


def test_every_context_made_keeps_readings_of_its_own(offline_context) -> None:
    # a reading is one run's, of one person's view: a context made from another (a run's, or a copy)
    # starts with none, so nothing read for one run answers another
    run = dataclasses.replace(offline_context, per_run=True)
    copy = dataclasses.replace(run, options={"verified": []})
    assert len({id(offline_context.readings), id(run.readings), id(copy.readings)}) == 3


def test_the_run_an_assistant_makes_reads_the_persons_view(offline_assistant) -> None:
    from agent.context import ChatContext

    run = offline_assistant.governance.context_for(offline_assistant.context, ChatContext(user="U1"), "s")
    assert run.per_run and run.model.reader.context is run


async def test_inside_a_run_the_same_checks_answer(route) -> None:
    assert (await route("average arrival delay by carrier")).tool is not None


@pytest.mark.parametrize("given", ["the unscoped context", "no context"])
async def test_a_graph_run_without_its_persons_context_fails_closed(offline_assistant, given) -> None:
    """The graph's nodes take only a run's own context (scoped to the person asking, audited): handed
    the agent's unscoped one, or none, the run stops with an error instead of reading every table."""
    from agent import session as sessions
    from agent.context import ChatContext

    assistant = offline_assistant
    session = f"no-run-context-{given.split()[0]}"
    turn = assistant._new_turn(await sessions.read(assistant.graph, session), "average arrival delay by carrier",
                               ChatContext(user="U1"))
    context = assistant.context if given == "the unscoped context" else None
    assert context is None or not context.per_run
    with pytest.raises(NoRunContextError) as refused:
        await assistant.graph.ainvoke(turn, sessions.config(session), context=context)
    assert "who is asking" in refused.value.user_message


async def test_a_resumed_run_without_its_persons_context_fails_closed(offline_assistant) -> None:
    from langgraph.types import Command

    from agent import session as sessions

    assistant = offline_assistant
    asked = await assistant.reply(assistant.ask("no-run-context-resume", "average arrival delay by carrier"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql"
    with pytest.raises(NoRunContextError):
        await assistant.graph.ainvoke(Command(resume={"choice": "run"}), sessions.config("no-run-context-resume"),
                                      context=assistant.context)
    assert (await assistant.pending("no-run-context-resume")) is not None  # still waiting for its asker
