"""What the router LLM sees: the system prompt and a trimmed history.

Tool outputs can be bulky (result rows, sample rows, related docs); the router only needs
their gist, so they are cut down before every call. Old turns are dropped past a budget,
always at a turn boundary so no tool result loses the call it answers.
"""

from __future__ import annotations

import json

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage, ToolMessage

from agent.tools.results import json_object

MAX_TURNS = 6
BULKY_KEYS = ("related_docs", "sample_rows", "rows", "columns_detail", "text_blocks")
MAX_PREVIEW_ROWS = 5
MAX_TOOL_OUTPUT_CHARS = 4000
SHED_FIRST = ("rows_preview", "column_formats", "chart_spec", "tables", "follow_ups", "columns")


def compact_tool_output(content: str) -> str:
    data = json_object(content)
    if data is None:
        return content[:2000]
    slim = {k: v for k, v in data.items() if k not in BULKY_KEYS}
    if isinstance(data.get("rows"), list):
        slim["rows_preview"] = data["rows"][:MAX_PREVIEW_ROWS]
    text = json.dumps(slim, default=str)
    # Cut whole fields, never the JSON itself: a cut object is no longer the answer's SQL and reading,
    # and "why?" or "run it" next turn would find no answer to work on.
    for key in SHED_FIRST:
        if len(text) <= MAX_TOOL_OUTPUT_CHARS:
            break
        slim.pop(key, None)
        text = json.dumps(slim, default=str)
    if len(text) > MAX_TOOL_OUTPUT_CHARS and isinstance(slim.get("text"), str):
        slim["text"] = slim["text"][:MAX_TOOL_OUTPUT_CHARS // 4]
        text = json.dumps(slim, default=str)
    return text


def messages_for_router(system_prompt: str, messages: list[AnyMessage]) -> list[AnyMessage]:
    starts = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    recent = messages[starts[-MAX_TURNS]:] if len(starts) > MAX_TURNS else list(messages)
    trimmed: list[AnyMessage] = [SystemMessage(content=system_prompt)]
    for message in recent:
        if isinstance(message, ToolMessage):
            message = message.model_copy(update={"content": compact_tool_output(str(message.content))})
        trimmed.append(message)
    return trimmed
