"""The step that follows a tool's result when the person's final intent implies it.

Shared by rule-based dispatch (which takes the step without a router call) and by the
offline model (which, as router, proposes the same step an LLM would).
"""

from __future__ import annotations

from typing import Any

from agent.tools.spec import EXECUTE, ToolName, tool_call


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
