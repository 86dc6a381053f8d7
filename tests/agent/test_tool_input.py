"""Tool input: langchain-core validates and dumps it on every call; the run context passes through untouched."""

from __future__ import annotations

import pytest

from agent.context import AgentContext


@pytest.mark.filterwarnings("error::UserWarning")  # a serializer warning about the context fails the test
async def test_a_question_with_three_tool_calls_never_reprs_the_context(offline_assistant, monkeypatch):
    reprs: list[int] = []

    def counted_repr(context: AgentContext) -> str:
        reprs.append(id(context))
        return "AgentContext(…)"

    monkeypatch.setattr(AgentContext, "__repr__", counted_repr)
    asked = await offline_assistant.reply(offline_assistant.ask("tool-input-1", "Number of flights by carrier name"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql"
    reply = await offline_assistant.reply(offline_assistant.resume("tool-input-1", "run"))
    assert reply.error is None and reply.row_count == 16
    assert reply.tools == ["data_discovery", "generate_sql", "execute_sql_and_analyze_result"]
    assert reprs == []
