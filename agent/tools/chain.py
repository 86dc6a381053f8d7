"""The step that follows a tool's result when the person's final intent implies it.

Shared by rule-based dispatch (which takes the step without a router call) and by the
offline model (which, as router, proposes the same step an LLM would). Both read a tool's
answer through `tool_outcome`: its result parsed once, with the step it implies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from agent.tools.results import parse_result
from agent.tools.spec import EXECUTE, ToolName, tool_call


@dataclass(frozen=True)
class ToolOutcome:
    """A tool's answer as the next step reads it."""

    output: dict[str, Any]  # its result, parsed once
    implied_call: dict[str, Any] | None  # the call the person's final intent implies next, if any


def tool_outcome(messages: Sequence[BaseMessage], answer: ToolMessage, question: str) -> ToolOutcome:
    """`answer` (a tool's message among `messages`) read once, with the step it implies. The next step
    is asked the question the answered call was given (the router's rewrite of the message), else
    `question`."""
    output = parse_result(answer.content)
    asked = asked_question(messages, answer.tool_call_id) or question
    return ToolOutcome(output, implied_next_call(answer.name or "", answer.tool_call_id, output, asked))


def asked_question(messages: Sequence[BaseMessage], tool_call_id: str) -> str | None:
    """The `user_question` the call `tool_call_id` was made with, from the message that made it."""
    for message in reversed(messages):
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                if call["id"] == tool_call_id:
                    return str(call["args"]["user_question"]) if call["args"].get("user_question") else None
    return None


def implied_next_call(tool_name: str, tool_call_id: str, output: dict[str, Any], question: str) -> dict[str, Any] | None:
    final_intent = output.get("final_intent")
    if output.get("error") or output.get("done") or output.get("ask_human"):
        return None
    if (
        tool_name == ToolName.DATA_DISCOVERY
        and output.get("selected_tables")
        and final_intent in (ToolName.GENERATE_SQL, EXECUTE)
    ):
        args = {"user_question": question, "related_table_source_tool_call_id": tool_call_id, "final_intent": final_intent}
        return tool_call(ToolName.GENERATE_SQL, args)
    if tool_name in (ToolName.GENERATE_SQL, ToolName.FIX_SQL) and final_intent == EXECUTE and output.get("sql"):
        args = {"user_question": question, "related_sql_source_tool_call_id": tool_call_id, "final_intent": str(EXECUTE)}
        return tool_call(EXECUTE, args)
    return None
