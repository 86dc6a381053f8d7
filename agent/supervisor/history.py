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


def compact_tool_output(content: str) -> str:
    data = json_object(content)
    if data is None:
        return content[:2000]
    slim = {k: v for k, v in data.items() if k not in BULKY_KEYS}
    if isinstance(data.get("rows"), list):
        slim["rows_preview"] = data["rows"][:MAX_PREVIEW_ROWS]
    return json.dumps(slim, default=str)[:4000]


def messages_for_router(system_prompt: str, messages: list[AnyMessage]) -> list[AnyMessage]:
    starts = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    recent = messages[starts[-MAX_TURNS]:] if len(starts) > MAX_TURNS else list(messages)
    trimmed: list[AnyMessage] = [SystemMessage(content=system_prompt)]
    for message in recent:
        if isinstance(message, ToolMessage):
            message = message.model_copy(update={"content": compact_tool_output(str(message.content))})
        trimmed.append(message)
    return trimmed
