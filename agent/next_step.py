"""The step that follows a tool's result when the person's final intent implies it.

Shared by rule-based dispatch (which takes the step without a router call) and by the
offline model (which, as router, proposes the same step an LLM would).
"""

from __future__ import annotations

import uuid

EXECUTE = "execute_sql_and_analyze_result"


def implied_next_call(tool_name: str, tool_call_id: str, output: dict, question: str) -> dict | None:
    final_intent = output.get("final_intent")
    if output.get("error") or output.get("done") or output.get("ask_human"):
        return None
    if tool_name == "data_discovery" and output.get("selected_tables") and final_intent in ("generate_sql", EXECUTE):
        args = {"user_question": question, "related_table_source_tool_call_id": tool_call_id, "final_intent": final_intent}
        return {"name": "generate_sql", "args": args, "id": "call_" + uuid.uuid4().hex[:24]}
    if tool_name in ("generate_sql", "fix_sql") and final_intent == EXECUTE and output.get("sql"):
        args = {"user_question": question, "related_sql_source_tool_call_id": tool_call_id, "final_intent": EXECUTE}
        return {"name": EXECUTE, "args": args, "id": "call_" + uuid.uuid4().hex[:24]}
    return None
