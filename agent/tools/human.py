"""`ask_human`: the model asks the person something. The graph pauses on it; it never runs."""

from typing import Annotated

from langchain_core.tools import tool

from agent.state import FinalIntent


@tool
async def ask_human(
    question: Annotated[str, "The question for the person, in one or two sentences."],
    options: Annotated[list[str], "Short answers the person can click; empty for a free-text answer."] = [],
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = None,
) -> str:
    """Ask the person a clarifying question when the request is ambiguous or a value is missing.
    Use it only when you cannot proceed without their answer; offer options when you can."""
    raise RuntimeError("ask_human is handled by the graph's human step and never executed")
