"""Tool input: langchain-core validates and dumps it on every call; the run context and the runtime pass through untouched."""

from __future__ import annotations

from typing import ClassVar

import pytest
from langgraph.prebuilt import ToolRuntime
from pydantic import BaseModel, ValidationError, model_serializer

from agent.context import AgentContext
from agent.tools.sql_tools import generate_sql


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


class Probe(BaseModel):
    """Counts its dumps."""

    dumps: ClassVar[list[int]] = []

    @model_serializer
    def _dump(self) -> dict[str, int]:
        Probe.dumps.append(1)
        return {}


def test_a_tools_input_dumps_its_runtime_as_nothing(offline_context):
    """LangChain dumps each tool's validated input on every call; the runtime would be walked whole (the
    state's messages, the config holding LangGraph's internals and the context again), on the event loop."""
    Probe.dumps.clear()
    runtime = ToolRuntime(
        state={"messages": [], "probe": Probe()}, context=offline_context,
        config={"configurable": {"probe": Probe()}}, stream_writer=lambda _: None, tool_call_id="t1", store=None,
    )
    schema = generate_sql.get_input_schema()
    checked = schema.model_validate({"user_question": "flights by origin", "runtime": runtime})
    assert checked.runtime is runtime
    assert checked.model_dump()["runtime"] is None
    assert Probe.dumps == []


def test_a_tools_runtime_is_still_checked_by_type(offline_context):
    with pytest.raises(ValidationError):
        generate_sql.get_input_schema().model_validate({"user_question": "flights by origin", "runtime": "a string"})
