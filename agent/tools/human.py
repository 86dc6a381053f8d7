"""`ask_human`: the model asks the person something. The graph pauses on it; it never runs."""

from typing import Annotated

from langchain_core.tools import tool
from agent.tools.spec import COMMON_AGENT, FinalIntent, ToolName, ToolSpec



@tool
async def ask_human(
    question: Annotated[str, "The question for the person, in one or two sentences."],
    options: Annotated[list[str], "Short answers the person can click; empty for a free-text answer."] = [],  # noqa: B006 (pydantic copies defaults)
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = None,
) -> str:
    """Ask the person a clarifying question when the request is ambiguous or a value is missing.
    Use it only when you cannot proceed without their answer; offer options when you can."""
    raise RuntimeError("ask_human is handled by the graph's human step and never executed")


SPEC = ToolSpec(
    name=ToolName.ASK_HUMAN,
    agent_name=COMMON_AGENT,
    label="Working…",
    prompt_line="ask the person when you cannot proceed without their answer.",
)
