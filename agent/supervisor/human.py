"""`human_node`: the run pauses with `interrupt()`; a click or a thread reply resumes it.

The pending question says what kind it is (confirm the SQL, choose a table, clarify) and
which tool call it belongs to, so the answer continues exactly where the run stopped.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from agent.errors import AssistantError
from agent.context import AgentContext
from agent.sql.parse import clean_sql_text
from agent.supervisor.calls import call_by_id, pending_call_message, rewritten_question, run_context
from agent.tools.state import CommonAgentState, calls_of
from agent.tools.registry import EXECUTE, ToolName
from agent.tools.spec import tool_call
from agent.tools.checking import checked_sql
from agent.tools.results import latest_output, tool_result

Next = Literal["invoke_common_agent", "action_dispatch_node", "response_to_user_chain"]


def confirmation_question(state: CommonAgentState, call: dict[str, Any]) -> dict[str, Any]:
    """"Shall I run this query?" for a pending execute call, showing the SQL it will run."""
    args = call["args"]
    sql = args.get("sql")
    source = args.get("related_sql_source_tool_call_id")
    calls = calls_of(state)
    if source:
        written = calls.get("tool_call_output_mapping", {}).get(source) or {}
    else:  # "run it" after "just give me the SQL": the query the run tool will take, the latest written
        latest = latest_output(calls, ("generate_sql", "fix_sql"), with_key="sql") if not sql else None
        written = latest[1] if latest else {}
    sql = sql or written.get("sql")
    # The reading in words comes first, so a misreading is caught before Run, not after.
    reading = written.get("reason") if not args.get("sql") and written.get("path") == "semantic" else None
    return {
        "kind": "confirm_sql",
        "question": f"Reading it as: {reading}\nShall I run this query?" if reading else "Shall I run this query?",
        "options": [
            {"label": "Run", "value": "run", "style": "primary"},
            {"label": "Edit", "value": "edit", "style": "default"},
            {"label": "Cancel", "value": "cancel", "style": "danger"},
        ],
        "sql": sql,
        "tool_call_id": call["id"],
    }


async def human_node(state: CommonAgentState, runtime: Runtime[AgentContext]) -> Command[Next]:
    context = run_context(runtime)  # before the pause too: no question is asked outside a person's run
    question = state.get("ask_human") or {}
    answer = interrupt({k: v for k, v in question.items() if k != "tool_call_id"})
    choice = answer.get("choice") if isinstance(answer, dict) else str(answer)
    kind = question.get("kind")
    call_id = question.get("tool_call_id")
    cleared: dict[str, Any] = {"ask_human": None}
    if isinstance(answer, dict) and answer.get("deadline"):
        cleared["timeout_timestamp"] = answer["deadline"]  # the person's wait does not count against the run
    if choice == "cancel" and kind != "confirm_sql":
        closing = [ToolMessage(content="The person cancelled.", tool_call_id=call_id, name=str(ToolName.ASK_HUMAN))] if (
            question.get("origin") == ToolName.ASK_HUMAN
        ) else []
        return Command(
            goto="response_to_user_chain",
            update={**cleared, "messages": [*closing, AIMessage(content="Cancelled. Ask again whenever you like.")]},
        )

    if kind == "confirm_sql":
        return await _confirmed(state, context, answer, choice, call_id, cleared)

    if kind == "choose_table":
        call = tool_call(
            ToolName.GENERATE_SQL,
            {
                "user_question": rewritten_question(state, call_id),
                "related_table_source_tool_call_id": call_id,
                "final_intent": question.get("final_intent") or str(EXECUTE),
            },
        )
        return Command(
            goto="action_dispatch_node",
            update={**cleared, "selected_tables": [choice], "messages": [AIMessage(content="", tool_calls=[call])]},
        )

    if question.get("origin") == ToolName.ASK_HUMAN:
        reply = ToolMessage(content=f"The person answered: {choice}", tool_call_id=call_id, name=str(ToolName.ASK_HUMAN))
        return Command(goto="invoke_common_agent", update={**cleared, "messages": [reply]})

    # A tool asked (ambiguity, a placeholder value): call it again with the answer.
    origin_call = call_by_id(state, call_id)
    if origin_call is None:
        return Command(goto="invoke_common_agent", update={**cleared, "messages": [HumanMessage(content=choice)]})
    call = tool_call(origin_call["name"], {**origin_call["args"], "clarification": choice})
    return Command(goto="action_dispatch_node", update={**cleared, "messages": [AIMessage(content="", tool_calls=[call])]})


async def _confirmed(
    state: CommonAgentState,
    context: AgentContext,
    answer: Any,
    choice: str | None,
    call_id: str | None,
    cleared: dict[str, Any],
) -> Command[Next]:
    """Run, Edit (the person's SQL, checked read-only first) or Cancel a pending query."""
    if choice == "cancel":
        cancelled = ToolMessage(
            content=tool_result(EXECUTE, cancelled=True, text="Cancelled. Nothing was run."),
            tool_call_id=call_id,
            name=str(EXECUTE),
        )
        return Command(goto="response_to_user_chain", update={**cleared, "messages": [cancelled]})
    confirmed = [*(state.get("confirmed_tool_calls") or []), call_id]
    update: dict[str, Any] = {**cleared, "confirmed_tool_calls": confirmed}
    if choice == "edit":
        edited = clean_sql_text((answer or {}).get("sql") or "")
        try:
            # read in the warehouse's dialect: the person edits SQL for their own engine
            await checked_sql(context, edited)
        except AssistantError as exc:
            refused = ToolMessage(
                content=tool_result(EXECUTE, error=exc.user_message, error_code=exc.code, sql=edited),
                tool_call_id=call_id,
                name=str(EXECUTE),
            )
            return Command(goto="response_to_user_chain", update={**update, "messages": [refused]})
        original = pending_call_message(state, call_id)
        call = original.tool_calls[0]
        args = {k: v for k, v in call["args"].items() if k != "related_sql_source_tool_call_id"}
        args["sql"] = edited
        update["messages"] = [AIMessage(content=original.content, id=original.id, tool_calls=[{**call, "args": args}])]
    return Command(goto="action_dispatch_node", update=update)
