"""`reject_out_of_scope`: decline politely and say what the bot can do instead."""

from typing import Annotated

from langchain_core.tools import tool

from agent.tools.results import tool_result
from agent.tools.spec import COMMON_AGENT, FinalIntent, ToolName, ToolSpec

CAPABILITIES = (
    "I answer questions about the flights data (flights, airlines, airports, planes, weather), "
    "write, fix and explain SQL, find the right tables, and write log queries."
)


@tool
async def reject_out_of_scope(
    reason: Annotated[str, "Why the request is outside what this assistant does, in a few words."],
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = "reject_out_of_scope",
) -> str:
    """Politely decline a request this data assistant is not for (general knowledge, chit-chat,
    writing prose, booking things, opinions) and say what it can do instead."""
    text = f"Sorry, that is outside what I can help with ({reason.strip().rstrip('.')}). {CAPABILITIES}"
    return tool_result("reject_out_of_scope", text=text)


SPEC = ToolSpec(
    name=ToolName.REJECT,
    agent_name=COMMON_AGENT,
    label="Thinking…",
    prompt_line="anything else (general knowledge, chit-chat, prose, opinions, booking).",
    terminal=True,
)
