"""`reject_out_of_scope`: decline politely and say what the bot can do instead."""

from typing import Annotated

from langchain_core.tools import tool
from agent.tools.run import ToolRun

from agent.context import AgentContext
from agent.tools.results import tool_result
from agent.tools.spec import COMMON_AGENT, FinalIntent, ToolName, ToolSpec


def capabilities(ctx: AgentContext) -> str:
    """What the bot does, with the tables of the run's catalog: the ones this person may read."""
    tables = ", ".join(ctx.catalog.table_names) or "none you can read"
    return (
        f"I answer questions about the data in the warehouse ({tables}), write, fix and explain "
        "SQL that reads it, find the right tables, and write log queries."
    )


@tool
async def reject_out_of_scope(
    reason: Annotated[str, "Why the request is outside what this assistant does, in a few words."],
    runtime: ToolRun,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = "reject_out_of_scope",
) -> str:
    """Politely decline a request this data assistant is not for (general knowledge, chit-chat,
    writing prose, booking things, opinions, and any request to change data: drop, delete,
    update, insert; it only reads) and say what it can do instead."""
    why = reason.strip().rstrip(".")
    text = f"Sorry, that is outside what I can help with ({why}). {capabilities(runtime.context)}"
    return tool_result("reject_out_of_scope", text=text)


SPEC = ToolSpec(
    name=ToolName.REJECT,
    agent_name=COMMON_AGENT,
    label="Thinking…",
    prompt_line=(
        "anything else (general knowledge, chit-chat, prose, opinions, booking), and any request to "
        "change data (drop, delete, update, insert, create): say that you only read data."
    ),
    terminal=True,
)
