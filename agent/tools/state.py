"""The supervisor's state (`CommonAgentState`), as the seeds define it: what the graph checkpoints,
read by the supervisor and by the tools alike, so it sits beneath both. It lives with the tools (the
supervisor's own layer beneath it): most of it is their ledger (`ToolCallInfo`, what each tool call was
given and returned), which the tools read and write at every step."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages


class ToolCallInfo(TypedDict):
    """What each tool call was, what it was given and what it returned, keyed by tool_call_id."""

    tool_call_name_mapping: dict[str, str]
    tool_call_input_mapping: dict[str, dict[str, Any]]
    tool_call_output_mapping: dict[str, dict[str, Any]]


def empty_tool_call_info() -> ToolCallInfo:
    return {"tool_call_name_mapping": {}, "tool_call_input_mapping": {}, "tool_call_output_mapping": {}}


def calls_of(state: CommonAgentState, scope: Literal["session", "chat"] = "session") -> ToolCallInfo:
    """The session's (or this chat turn's) tool calls; empty before the first."""
    info = state.get("session_tool_call_info") if scope == "session" else state.get("chat_tool_call_info")
    return info or empty_tool_call_info()


class ChatContextState(TypedDict, total=False):
    user: str | None
    channel: str | None
    locale: str
    request_id: str | None
    dispatch_strategy: Literal["rules", "llm"]


class CommonAgentState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    question: str
    agent_name: str
    session_id: str
    chat_context: ChatContextState
    sql_dialect: str
    original_sql: str | None
    error_message: str | None
    # Whole session (follow-ups read earlier results) and this chat turn only.
    session_tool_call_info: ToolCallInfo
    chat_tool_call_info: ToolCallInfo
    selected_tables: list[str]
    ask_human: dict[str, Any] | None
    confirmed_tool_calls: list[str]
    has_internal_error: bool
    internal_error_message: str | None
    internal_error_code: str | None
    tool_call_retry_count: int
    timeout_timestamp: float
    max_execute_second: float
    reply: dict[str, Any] | None
