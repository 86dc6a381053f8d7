"""The reply at the end of a run, built from the state (`response_to_user_chain`).

Tools already put a person-facing `text` in their results; this collects the last result's
fields into one plain dict that the public API turns into an `AgentReply`.
"""

from __future__ import annotations

from langchain_core.messages import AIMessage, ToolMessage

from agent.state import CommonAgentState
from agent.tools import AGENT_NAME_BY_TOOL
from agent.tools.results import parse_result

CARRIED_FIELDS = ("sql", "columns", "rows", "row_count", "chart_spec", "follow_ups", "column_formats")


def build_reply(state: CommonAgentState) -> dict:
    chat = state.get("chat_tool_call_info") or {}
    names = chat.get("tool_call_name_mapping", {})
    reply: dict = {"tools": list(names.values()), "response_agent": "Common Agent"}
    if state.get("has_internal_error"):
        reply["error"] = state.get("internal_error_message") or "Something went wrong on my side."
        reply["error_code"] = state.get("internal_error_code") or "internal"
        return reply

    last = state["messages"][-1] if state.get("messages") else None
    if isinstance(last, ToolMessage):
        output = chat.get("tool_call_output_mapping", {}).get(last.tool_call_id) or parse_result(last.content)
        reply["response_agent"] = AGENT_NAME_BY_TOOL.get(last.name or "", "Common Agent")
        reply["text"] = output.get("text", "")
        reply.update({k: output[k] for k in CARRIED_FIELDS if output.get(k) is not None})
        if output.get("error"):
            reply["error"] = output["error"]
            reply["error_code"] = output.get("error_code") or "error"
    elif isinstance(last, AIMessage):
        reply["text"] = str(last.content or "")
    return reply
