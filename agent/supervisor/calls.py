"""The tool-call ledger in the state, and what every node does with it: record, look up, report.

`session_tool_call_info` keeps the whole session (follow-ups read earlier results);
`chat_tool_call_info` only this turn. Both are keyed by tool_call_id.
"""

from __future__ import annotations

import copy
import time
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from agent.context import NO_RUN_CONTEXT, AgentContext
from agent.errors import AssistantError, NoRunContextError
from agent.llm import describe_llm_failure
from agent.tools.state import CommonAgentState, ToolCallInfo, calls_of, empty_tool_call_info
from agent.tools.registry import ToolName


def progress(step: str, status: str, label: str) -> None:
    try:
        get_stream_writer()({"step": step, "status": status, "label": label})
    except RuntimeError:  # not inside a streamed run (e.g. a plain ainvoke in a test)
        pass


def run_context(runtime: Runtime[AgentContext]) -> AgentContext:
    """The run's own context, scoped to the person asking (`Governance.context_for` made it), or
    NoRunContextError: a node never goes on with the agent's unscoped context (every table, no access
    check, no audit) or with none. Fails closed; `Assistant` always hands a run its person's context."""
    context = runtime.context
    if context is None or not context.per_run:
        raise NoRunContextError(NO_RUN_CONTEXT)
    return context


def past_deadline(state: CommonAgentState) -> bool:
    deadline = state.get("timeout_timestamp")
    return deadline is not None and deadline != 0 and time.time() > deadline


def internal_error(state: CommonAgentState, reason: str, exc: Exception | None = None) -> dict[str, Any]:
    if reason == "deadline":
        seconds = state.get("max_execute_second") or 0
        text = f"This took longer than {seconds:g} seconds, so I stopped. Please try again or narrow the question."
    elif reason == "llm":
        text = exc.user_message if isinstance(exc, AssistantError) else describe_llm_failure(exc or Exception())
    elif reason == "validation":
        text = "I could not form a valid request for my tools after several tries. Please rephrase the question."
    else:
        text = "Something went wrong on my side. Please try again."
    # A typed failure inside the model's turn (a parse stopped at its budget) keeps its own code.
    code = exc.code if reason == "llm" and isinstance(exc, AssistantError) else reason
    return {"has_internal_error": True, "internal_error_message": text, "internal_error_code": code}


def _tool_call_infos(state: CommonAgentState) -> tuple[ToolCallInfo, ToolCallInfo]:
    """The ledgers to file this step's call in: new maps over the same entries. State values may be
    shared with a stored checkpoint, so the maps are never edited in place; the entries in them are
    never edited at all once filed, so they are shared, not copied (a deep copy of both ledgers at
    every step copied every earlier result, rows and all, ~1,200 copy calls on one question)."""
    return _extended(state.get("session_tool_call_info")), _extended(state.get("chat_tool_call_info"))


def _extended(info: ToolCallInfo | None) -> ToolCallInfo:
    info = info or empty_tool_call_info()
    return {
        "tool_call_name_mapping": dict(info["tool_call_name_mapping"]),
        "tool_call_input_mapping": dict(info["tool_call_input_mapping"]),
        "tool_call_output_mapping": dict(info["tool_call_output_mapping"]),
    }


def record_call(state: CommonAgentState, call: dict[str, Any]) -> dict[str, Any]:
    session, chat = _tool_call_infos(state)
    args = copy.deepcopy(call["args"])  # filed apart from the message's own (which the history keeps)
    for info in (session, chat):
        info["tool_call_name_mapping"][call["id"]] = call["name"]
        info["tool_call_input_mapping"][call["id"]] = args
    return {"session_tool_call_info": session, "chat_tool_call_info": chat}


def record_output(state: CommonAgentState, call_id: str, name: str, output: dict[str, Any]) -> dict[str, Any]:
    session, chat = _tool_call_infos(state)
    for info in (session, chat):
        info["tool_call_name_mapping"].setdefault(call_id, name)
    chat["tool_call_output_mapping"][call_id] = output
    # The session keeps what follow-ups need, not bulky result rows.
    session["tool_call_output_mapping"][call_id] = {k: v for k, v in output.items() if k != "rows"}
    update: dict[str, Any] = {"session_tool_call_info": session, "chat_tool_call_info": chat}
    if name == ToolName.DATA_DISCOVERY:
        update["selected_tables"] = output.get("selected_tables") or []
    return update


def rewritten_question(state: CommonAgentState, tool_call_id: str | None) -> str:
    """The question as the router rewrote it for the previous tool ("now by month" -> a full request)."""
    inputs = calls_of(state).get("tool_call_input_mapping", {})
    return str((inputs.get(tool_call_id or "") or {}).get("user_question") or state.get("question", ""))


def pending_call_message(state: CommonAgentState, call_id: str | None) -> AIMessage:
    for message in reversed(state["messages"]):
        if isinstance(message, AIMessage) and any(c["id"] == call_id for c in message.tool_calls):
            return message
    raise LookupError(f"no pending tool call {call_id}")


def call_by_id(state: CommonAgentState, call_id: str | None) -> dict[str, Any] | None:
    info = calls_of(state)
    name = info.get("tool_call_name_mapping", {}).get(call_id or "")
    if not name:
        return None
    return {"name": name, "args": dict(info.get("tool_call_input_mapping", {}).get(call_id or "", {}))}
