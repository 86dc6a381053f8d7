"""`data_discovery`: find the tables and columns that hold the data for a question."""

from __future__ import annotations

from typing import Annotated

from langchain_core.tools import tool
from agent.tools.run import ToolRun

from agent.catalog.models import TableMatch
from agent.tools.results import tool_result
from agent.context import AgentContext
from agent.tools.state import calls_of
from agent.tools.nearest import nearest_readings
from agent.tools.semantic import (
    SemanticParse,
    compile_checked,
    compiled,
    lacking_data,
    message_reading,
    semantic_tables,
    sql_dialect,
)
from agent.tools.thread import InThread, read_in_thread
from agent.tools.spec import AgentName, FinalIntent, ToolName, ToolSpec

# Two tables this close in score are a real choice only when nothing else settles it.
AMBIGUITY_RATIO = 0.9


@tool
async def data_discovery(
    user_question: Annotated[str, "The person's question, rewritten to stand on its own."],
    runtime: ToolRun,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = "execute_sql_and_analyze_result",
    reading: Annotated[
        SemanticParse | None,
        "For a question that asks for data: how it reads in the semantic model's names (see 'Reading a data "
        "question'). Leave it out for anything else.",
    ] = None,
) -> str:
    """Find the tables and columns that hold the data for a question, with why they match.
    Call it before generate_sql, and on its own for "which table has X / where can I find Y"."""
    ctx = runtime.context
    matches = ctx.catalog.search(user_question, limit=3)
    tables = [
        {
            "table": m.table,
            "description": m.description,
            "columns": [c.name for c in m.columns],
            "matched_columns": m.matched_columns,
            "score": round(m.score, 3),
            "reasons": m.reasons,
        }
        for m in matches
    ]
    # the semantic model reads the question as a whole ('line items … receipt date after commit
    # date'), where the catalog search only matches words: what it needs is the data
    thread = await read_in_thread(ctx, calls_of(runtime.state), user_question, None)
    if thread.intent is not None:  # an edit of the thread's last reading reads the tables it reads
        needed = list(compiled(ctx.semantic, thread.intent, sql_dialect(ctx)).tables)
    else:  # the SQL will compile the router's reading when it gave one that compiles: its tables
        needed = _read_tables(ctx, thread, reading) or await semantic_tables(ctx, thread.question)
    if not matches and needed:
        found = [{"table": t, "description": "", "columns": [], "matched_columns": [], "score": 1.0,
                  "reasons": ["the semantic model reads the question with it"]} for t in needed]
        return tool_result(final_intent, tables=found, selected_tables=needed,
                           text="Here is where that data lives: " + ", ".join(f"*{t}*" for t in needed))
    if not matches:
        text = (
            "I could not find data about that in the warehouse. "
            f"What I have: {ctx.catalog.summary}"
        )
        return tool_result(final_intent, tables=[], selected_tables=[], text=text)

    if needed:
        selected = needed
    elif (
        final_intent != "data_discovery"
        and len(matches) > 1
        and matches[1].score >= AMBIGUITY_RATIO * matches[0].score
    ):
        # 'avg ticket price jfk to lax': the flights and the airports both match words, but the reader
        # knows the warehouse holds no prices at all: said so, no table to choose
        parse = await message_reading(ctx, reading, user_question, thread.question)
        if parse.not_in_warehouse:
            return tool_result(final_intent, done=True, declined=True, text=lacking_data(ctx, parse.not_in_warehouse))
        if parse.clarify_question or parse.cannot_express:
            # the reader stopped at words of the question, not at a choice of table: picking a table would not
            # read them, so the next step says which words it could not place, and what it did understand
            return tool_result(final_intent, tables=tables, selected_tables=[matches[0].table], text=_describe(matches))
        question = "Which data should I use for this?"
        options = [{"label": m.table, "value": m.table, "description": m.description} for m in matches]
        # beside the tables, the nearest whole questions the reader can answer ('origins' for 'busy origins')
        readings = await nearest_readings(ctx, thread.question)
        return tool_result(
            final_intent,
            tables=tables,
            selected_tables=[],
            ask_human={"kind": "choose_table", "question": question, "options": options, "final_intent": final_intent,
                       "readings": readings},
        )
    else:
        selected = [matches[0].table]
    return tool_result(final_intent, tables=tables, selected_tables=selected, text=_describe(matches))


def _read_tables(ctx: AgentContext, thread: InThread, reading: SemanticParse | None) -> list[str]:
    """The tables of the router's reading ([] without one that compiles)."""
    if reading is None or reading.unknown_values:
        return []
    intent = thread.edited_by_llm(reading.edit, ctx.semantic) if reading.edit is not None else reading.intent
    query = compile_checked(ctx, intent)[0] if intent is not None else None
    return list(query.tables) if query is not None else []


def _describe(matches: list[TableMatch]) -> str:
    lines = []
    for m in matches:
        columns = ", ".join(f"`{c}`" for c in m.matched_columns[:6]) or ", ".join(f"`{c.name}`" for c in m.columns[:6])
        why = f" ({'; '.join(m.reasons[:2])})" if m.reasons else ""
        lines.append(f"• *{m.table}*: {m.description} Columns: {columns}{why}")
    return "Here is where that data lives:\n" + "\n".join(lines)


SPEC = ToolSpec(
    name=ToolName.DATA_DISCOVERY,
    agent_name=AgentName.DATA_DISCOVERY,
    label="Finding tables…",
    prompt_line="find tables and columns for a question.",
    direct_args=lambda r: {"user_question": r.question, "final_intent": ToolName.DATA_DISCOVERY},
)
