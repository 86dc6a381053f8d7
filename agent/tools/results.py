"""How tools hand results back: one JSON object per call, read by dispatch and the reply builder.

Every result names `final_intent` so dispatch can tell whether the person's goal is reached.
`error` marks an expected failure (a sentence for a person); `ask_human` asks them something.
Earlier results are looked up in the session's ledger (`ToolCallInfo`), which a step reads from the
state once (`agent.tools.state.calls_of`) and hands to every look-up it makes.
"""

from __future__ import annotations

import json
from typing import Any

from agent.errors import AssistantError
from agent.tools.state import ToolCallInfo

MAX_LINK_HOPS = 8


def tool_result(final_intent: str | None, **fields: Any) -> str:
    return json.dumps({"final_intent": final_intent, **fields}, default=str)


def tool_error(final_intent: str | None, error: AssistantError | str, **fields: Any) -> str:
    if isinstance(error, AssistantError):
        return tool_result(final_intent, error=error.user_message, error_code=error.code, **fields)
    return tool_result(final_intent, error=error, error_code="error", **fields)


def json_object(content: Any) -> dict[str, Any] | None:
    """A tool's output as the JSON object it is, or None when it is not one (plain text, a list)."""
    if isinstance(content, dict):
        return content
    try:
        value = json.loads(content) if isinstance(content, str) else None
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def parse_result(content: str | list[str | dict[Any, Any]]) -> dict[str, Any]:
    """A tool message's content as a dict; text that is not a JSON object becomes its `text`. Typed as
    the content, so handing it the message itself (which reads as {}) fails the type check."""
    value = json_object(content)
    if value is not None:
        return value
    return {"text": content} if isinstance(content, str) else {}


def linked_output(
    calls: ToolCallInfo, tool_call_id: str | None, wanted: tuple[str, ...]
) -> tuple[str, dict[str, Any]] | None:
    """Follow `related_*_tool_call_id` links back to the newest output of a wanted tool.

    Outputs may point at earlier outputs (a fix of a generated query, say); the walk stops
    at a repeat or after MAX_LINK_HOPS so a bad link can never loop forever.
    """
    names = calls.get("tool_call_name_mapping", {})
    outputs = calls.get("tool_call_output_mapping", {})
    inputs = calls.get("tool_call_input_mapping", {})
    seen: set[str] = set()
    current = tool_call_id
    while current and current not in seen and len(seen) < MAX_LINK_HOPS:
        seen.add(current)
        if names.get(current) in wanted and current in outputs:
            return current, outputs[current]
        args = inputs.get(current, {})
        current = args.get("related_sql_source_tool_call_id") or args.get("related_table_source_tool_call_id")
    return None


def latest_output(
    calls: ToolCallInfo, wanted: tuple[str, ...], *, with_key: str | None = None
) -> tuple[str, dict[str, Any]] | None:
    """The newest recorded output of one of `wanted` (optionally one that has `with_key`)."""
    names = calls.get("tool_call_name_mapping", {})
    outputs = calls.get("tool_call_output_mapping", {})
    for call_id in reversed(list(outputs)):
        output = outputs[call_id]
        if names.get(call_id) in wanted and not output.get("error"):
            if with_key is None or output.get(with_key):
                return call_id, output
    return None
