"""The Common Agent (supervisor) graph, node by node as DESIGN.md §4 lays it out.

START ─intent_route─► invoke_common_agent ─► action_dispatch_node ─► tool_call_node ─┐
           └────────► direct_tool_node ────►        │  ▲   │                        │
                                                    │  └───┼────────────────────────┘
                                  human_node ◄──────┘      └─► response_to_user_chain ─► END

`human_node` is the product's addition: it pauses with `interrupt()` and a button click or a
thread reply resumes it with `Command(resume=...)`.
"""

from __future__ import annotations

import copy
import json
import logging
import time
import uuid
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import ToolInvocationError
from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from agent.budget import steps
from agent.context import AgentContext
from agent.errors import AssistantError
from agent.history import messages_for_router
from agent.llm import describe_llm_failure
from agent.next_step import implied_next_call
from agent.prompts import router_system_prompt
from agent.respond import build_reply
from agent.sql.parse import clean_sql_text
from agent.state import CommonAgentState, empty_tool_call_info
from agent.tools import (
    ALL_TOOLS,
    DIRECT_AGENTS,
    EXECUTABLE_TOOLS,
    STEP_LABELS,
    TERMINAL_TOOLS,
    TOOL_BY_AGENT_NAME,
)
from agent.tools.results import parse_result, tool_result

log = logging.getLogger(__name__)

MAX_VALIDATION_RETRIES = 3
EXECUTE = "execute_sql_and_analyze_result"


def new_tool_call_id() -> str:
    return "call_" + uuid.uuid4().hex[:24]


def _progress(step: str, status: str, label: str) -> None:
    try:
        get_stream_writer()({"step": step, "status": status, "label": label})
    except RuntimeError:  # not inside a streamed run (e.g. a plain ainvoke in a test)
        pass


def _past_deadline(state: CommonAgentState) -> bool:
    deadline = state.get("timeout_timestamp")
    return bool(deadline) and time.time() > deadline


# -- START -------------------------------------------------------------------------------


def intent_route(state: CommonAgentState) -> str:
    return "direct_tool_node" if state.get("agent_name") in DIRECT_AGENTS else "invoke_common_agent"


# -- nodes -------------------------------------------------------------------------------


async def invoke_common_agent(state: CommonAgentState, runtime: Runtime[AgentContext]) -> dict:
    if _past_deadline(state):
        return _internal_error(state, "deadline")
    _progress("route", "started", "Understanding your request…")
    ctx = runtime.context
    chat = state.get("chat_context") or {}
    system = router_system_prompt(
        session_id=state.get("session_id", ""),
        user=chat.get("user"),
        locale=chat.get("locale", "en-US"),
        dialect=state.get("sql_dialect") or "presto",
    )
    model = ctx.model.bind_tools(ALL_TOOLS).bind(prompt_cache_key=state.get("session_id") or None)
    try:
        answer = await model.ainvoke(messages_for_router(system, state["messages"]))
    except Exception as exc:  # the LLM is outside our control: any failure becomes a clear reply
        log.warning("router LLM failed (request %s): %r", chat.get("request_id"), exc)
        return _internal_error(state, "llm", exc)
    if isinstance(answer, AIMessage) and len(answer.tool_calls) > 1:
        # One tool at a time: every tool call needs its own ToolMessage before the next LLM turn.
        answer = AIMessage(content=answer.content, tool_calls=answer.tool_calls[:1], id=answer.id)
    _progress("route", "finished", "Understanding your request…")
    return {"messages": [answer]}


def direct_tool_node(state: CommonAgentState) -> Command:
    """Slash commands and buttons know their tool already: build the call, skip the router LLM."""
    agent_name = state["agent_name"]
    tool_name = TOOL_BY_AGENT_NAME[agent_name]
    sql = state.get("original_sql") or state.get("question") or ""
    dialect = state.get("sql_dialect") or "presto"
    args: dict[str, Any]
    if tool_name == "fix_sql":
        args = {"sql": sql, "sql_dialect": dialect, "error_info": state.get("error_message") or "", "final_intent": "fix_sql"}
    elif tool_name == "explain_sql":
        args = {"sql": sql, "sql_dialect": dialect, "final_intent": "explain_sql"}
    elif tool_name == EXECUTE:
        # Someone who calls the Chat BI agent by name with their own SQL has already decided to run it.
        args = {"user_question": "Run this query", "sql": sql, "sql_dialect": dialect, "final_intent": EXECUTE}
        call = {"name": tool_name, "args": args, "id": new_tool_call_id()}
        return Command(
            goto="action_dispatch_node",
            update={"messages": [AIMessage(content="", tool_calls=[call])], "confirmed_tool_calls": [call["id"]]},
        )
    elif tool_name == "search_log":
        args = {"description": state.get("question", ""), "final_intent": "search_log"}
    elif tool_name == "data_discovery":
        args = {"user_question": state.get("question", ""), "final_intent": "data_discovery"}
    else:
        args = {"user_question": state.get("question", ""), "final_intent": tool_name}
    call = {"name": tool_name, "args": args, "id": new_tool_call_id()}
    return Command(goto="action_dispatch_node", update={"messages": [AIMessage(content="", tool_calls=[call])]})


async def action_dispatch_node(state: CommonAgentState, runtime: Runtime[AgentContext]) -> Command:
    ctx = runtime.context
    if state.get("has_internal_error"):
        return Command(goto="response_to_user_chain")
    if _past_deadline(state):
        return Command(goto="response_to_user_chain", update=_internal_error(state, "deadline"))
    last = state["messages"][-1]

    if isinstance(last, AIMessage) and last.tool_calls:
        call = last.tool_calls[0]
        if call["name"] == "ask_human":
            args = call["args"]
            question = {
                "kind": "clarify",
                "question": args.get("question") or "Could you say a bit more?",
                "options": [{"label": o, "value": o} for o in args.get("options") or []],
                "tool_call_id": call["id"],
                "origin": "ask_human",
            }
            return Command(goto="human_node", update={"ask_human": question})
        if (
            call["name"] == EXECUTE
            and ctx.confirm_before_run
            and call["id"] not in (state.get("confirmed_tool_calls") or [])
        ):
            return Command(goto="human_node", update={"ask_human": _confirmation(state, call)})
        _progress(call["name"], "started", STEP_LABELS.get(call["name"], "Working…"))
        return Command(goto="tool_call_node", update=_record_call(state, call))

    if isinstance(last, AIMessage) and last.invalid_tool_calls:
        # Arguments that are not even JSON: answer each call so the history stays valid, then retry.
        retries = state.get("tool_call_retry_count", 0) + 1
        answers = [
            ToolMessage(
                content=f"Error: 1 validation error for {call.get('name')}: the arguments are not valid JSON.",
                tool_call_id=call.get("id") or new_tool_call_id(),
                name=call.get("name") or "unknown",
                status="error",
            )
            for call in last.invalid_tool_calls
        ]
        if retries > MAX_VALIDATION_RETRIES:
            return Command(
                goto="response_to_user_chain",
                update={**_internal_error(state, "validation"), "messages": answers, "tool_call_retry_count": retries},
            )
        return Command(goto="invoke_common_agent", update={"messages": answers, "tool_call_retry_count": retries})

    if isinstance(last, AIMessage):
        return Command(goto="response_to_user_chain")

    if isinstance(last, ToolMessage):
        _progress(last.name or "tool", "finished", STEP_LABELS.get(last.name or "", "Working…"))
        if _is_validation_error(last):
            retries = state.get("tool_call_retry_count", 0) + 1
            if retries > MAX_VALIDATION_RETRIES:
                update = _internal_error(state, "validation")
                update["tool_call_retry_count"] = retries
                return Command(goto="response_to_user_chain", update=update)
            return Command(goto="invoke_common_agent", update={"tool_call_retry_count": retries})
        output = parse_result(last.content)
        update = _record_output(state, last.tool_call_id, last.name or "", output)
        if output.get("error") or output.get("done"):
            return Command(goto="response_to_user_chain", update=update)
        if output.get("ask_human"):
            update["ask_human"] = {**output["ask_human"], "tool_call_id": last.tool_call_id, "origin": last.name}
            return Command(goto="human_node", update=update)
        final_intent = output.get("final_intent") or ""
        if last.name in TERMINAL_TOOLS or last.name == final_intent:
            return Command(goto="response_to_user_chain", update=update)
        if last.name == "data_discovery" and not output.get("selected_tables"):
            return Command(goto="response_to_user_chain", update=update)
        if last.name == "generate_sql" and final_intent == "generate_sql":
            return Command(goto="response_to_user_chain", update=update)
        next_call = _implied_next_call(state, last, output)
        if next_call is not None:
            update["messages"] = [AIMessage(content="", tool_calls=[next_call])]
            return Command(goto="action_dispatch_node", update=update)
        return Command(goto="invoke_common_agent", update=update)

    return Command(goto="invoke_common_agent")


async def human_node(state: CommonAgentState, runtime: Runtime[AgentContext]) -> Command:
    question = state.get("ask_human") or {}
    answer = interrupt({k: v for k, v in question.items() if k != "tool_call_id"})
    choice = answer.get("choice") if isinstance(answer, dict) else str(answer)
    kind = question.get("kind")
    call_id = question.get("tool_call_id")
    cleared = {"ask_human": None, "human_answer": answer if isinstance(answer, dict) else {"choice": choice}}
    if choice == "cancel" and kind != "confirm_sql":
        closing = [ToolMessage(content="The person cancelled.", tool_call_id=call_id, name="ask_human")] if (
            question.get("origin") == "ask_human"
        ) else []
        return Command(
            goto="response_to_user_chain",
            update={**cleared, "messages": [*closing, AIMessage(content="Cancelled. Ask again whenever you like.")]},
        )

    if kind == "confirm_sql":
        if choice == "cancel":
            cancelled = ToolMessage(
                content=tool_result(EXECUTE, cancelled=True, text="Cancelled. Nothing was run."),
                tool_call_id=call_id,
                name=EXECUTE,
            )
            return Command(goto="response_to_user_chain", update={**cleared, "messages": [cancelled]})
        confirmed = [*(state.get("confirmed_tool_calls") or []), call_id]
        update: dict[str, Any] = {**cleared, "confirmed_tool_calls": confirmed}
        if choice == "edit":
            edited = clean_sql_text((answer or {}).get("sql") or "")
            try:
                await runtime.context.cpu.run("Checking the SQL", steps.guard, edited, "duckdb")
            except AssistantError as exc:
                refused = ToolMessage(
                    content=tool_result(EXECUTE, error=exc.user_message, error_code=exc.code, sql=edited),
                    tool_call_id=call_id,
                    name=EXECUTE,
                )
                return Command(goto="response_to_user_chain", update={**update, "messages": [refused]})
            original = _pending_call_message(state, call_id)
            call = original.tool_calls[0]
            args = {k: v for k, v in call["args"].items() if k != "related_sql_source_tool_call_id"}
            args["sql"] = edited
            update["messages"] = [
                AIMessage(content=original.content, id=original.id, tool_calls=[{**call, "args": args}])
            ]
        return Command(goto="action_dispatch_node", update=update)

    if kind == "choose_table":
        call = {
            "name": "generate_sql",
            "args": {
                "user_question": _rewritten_question(state, call_id),
                "related_table_source_tool_call_id": call_id,
                "final_intent": question.get("final_intent") or EXECUTE,
            },
            "id": new_tool_call_id(),
        }
        return Command(
            goto="action_dispatch_node",
            update={**cleared, "selected_tables": [choice], "messages": [AIMessage(content="", tool_calls=[call])]},
        )

    if question.get("origin") == "ask_human":
        reply = ToolMessage(content=f"The person answered: {choice}", tool_call_id=call_id, name="ask_human")
        return Command(goto="invoke_common_agent", update={**cleared, "messages": [reply]})

    # A tool asked (ambiguity, a placeholder value): call it again with the answer.
    origin_call = _call_by_id(state, call_id)
    if origin_call is None:
        return Command(goto="invoke_common_agent", update={**cleared, "messages": [HumanMessage(content=choice)]})
    args = {**origin_call["args"], "clarification": choice}
    call = {"name": origin_call["name"], "args": args, "id": new_tool_call_id()}
    return Command(goto="action_dispatch_node", update={**cleared, "messages": [AIMessage(content="", tool_calls=[call])]})


def response_to_user_chain(state: CommonAgentState) -> dict:
    return {"reply": build_reply(state)}


# -- dispatch helpers ----------------------------------------------------------------------


def _is_validation_error(message: ToolMessage) -> bool:
    return message.status == "error" and str(message.content).startswith("Error:")


def _internal_error(state: CommonAgentState, reason: str, exc: Exception | None = None) -> dict:
    if reason == "deadline":
        seconds = state.get("max_execute_second") or 0
        text = f"This took longer than {seconds:g} seconds, so I stopped. Please try again or narrow the question."
    elif reason == "llm":
        text = exc.user_message if isinstance(exc, AssistantError) else describe_llm_failure(exc)
    elif reason == "validation":
        text = "I could not form a valid request for my tools after several tries. Please rephrase the question."
    else:
        text = "Something went wrong on my side. Please try again."
    return {"has_internal_error": True, "internal_error_message": text, "internal_error_code": reason}


def _tool_call_infos(state: CommonAgentState):
    # Copies: state values may be shared with a stored checkpoint, never edit them in place.
    session = copy.deepcopy(state.get("session_tool_call_info") or empty_tool_call_info())
    chat = copy.deepcopy(state.get("chat_tool_call_info") or empty_tool_call_info())
    return session, chat


def _record_call(state: CommonAgentState, call: dict) -> dict:
    session, chat = _tool_call_infos(state)
    for info in (session, chat):
        info["tool_call_name_mapping"][call["id"]] = call["name"]
        info["tool_call_input_mapping"][call["id"]] = call["args"]
    return {"session_tool_call_info": session, "chat_tool_call_info": chat}


def _record_output(state: CommonAgentState, call_id: str, name: str, output: dict) -> dict:
    session, chat = _tool_call_infos(state)
    for info in (session, chat):
        info["tool_call_name_mapping"].setdefault(call_id, name)
    chat["tool_call_output_mapping"][call_id] = output
    # The session keeps what follow-ups need, not bulky result rows.
    session["tool_call_output_mapping"][call_id] = {k: v for k, v in output.items() if k != "rows"}
    update: dict[str, Any] = {"session_tool_call_info": session, "chat_tool_call_info": chat}
    if name == "data_discovery":
        update["selected_tables"] = output.get("selected_tables") or []
    return update


def _implied_next_call(state: CommonAgentState, message: ToolMessage, output: dict) -> dict | None:
    """Rule-based dispatch: when the next step is implied, take it without a router LLM call."""
    if (state.get("chat_context") or {}).get("dispatch_strategy") == "llm":
        return None
    question = _rewritten_question(state, message.tool_call_id)
    return implied_next_call(message.name or "", message.tool_call_id, output, question)


def _rewritten_question(state: CommonAgentState, tool_call_id: str | None) -> str:
    """The question as the router rewrote it for the previous tool ("now by month" -> a full request)."""
    inputs = (state.get("session_tool_call_info") or {}).get("tool_call_input_mapping", {})
    return (inputs.get(tool_call_id or "") or {}).get("user_question") or state.get("question", "")


def _confirmation(state: CommonAgentState, call: dict) -> dict:
    args = call["args"]
    sql = args.get("sql")
    source = args.get("related_sql_source_tool_call_id")
    if not sql and source:
        outputs = (state.get("session_tool_call_info") or {}).get("tool_call_output_mapping", {})
        sql = (outputs.get(source) or {}).get("sql")
    return {
        "kind": "confirm_sql",
        "question": "Shall I run this query?",
        "options": [
            {"label": "Run", "value": "run", "style": "primary"},
            {"label": "Edit", "value": "edit", "style": "default"},
            {"label": "Cancel", "value": "cancel", "style": "danger"},
        ],
        "sql": sql,
        "tool_call_id": call["id"],
    }


def _pending_call_message(state: CommonAgentState, call_id: str) -> AIMessage:
    for message in reversed(state["messages"]):
        if isinstance(message, AIMessage) and any(c["id"] == call_id for c in message.tool_calls):
            return message
    raise LookupError(f"no pending tool call {call_id}")


def _call_by_id(state: CommonAgentState, call_id: str | None) -> dict | None:
    info = state.get("session_tool_call_info") or {}
    name = info.get("tool_call_name_mapping", {}).get(call_id or "")
    if not name:
        return None
    return {"name": name, "args": dict(info.get("tool_call_input_mapping", {}).get(call_id, {}))}


def _handle_tool_error(exc: Exception) -> str:
    """Validation errors go back to the router to retry; expected errors become a reply."""
    if isinstance(exc, ToolInvocationError):
        count = len(exc.filtered_errors or []) or 1
        return f"Error: {count} validation errors for {exc.tool_name}: {exc.message}"
    if isinstance(exc, AssistantError):
        return json.dumps({"error": exc.user_message, "error_code": exc.code})
    if type(exc).__module__.startswith(("openai", "httpx")):
        log.warning("LLM call inside a tool failed: %r", exc)
        return json.dumps({"error": describe_llm_failure(exc), "error_code": "llm"})
    log.exception("tool failed", exc_info=exc)
    return json.dumps({"error": "Something went wrong while doing that. Please try again.", "error_code": "internal"})


def build_graph(checkpointer=None):
    builder = StateGraph(CommonAgentState, context_schema=AgentContext)
    builder.add_node("invoke_common_agent", invoke_common_agent)
    builder.add_node("action_dispatch_node", action_dispatch_node)
    builder.add_node("tool_call_node", ToolNode(EXECUTABLE_TOOLS, handle_tool_errors=_handle_tool_error))
    builder.add_node("direct_tool_node", direct_tool_node)
    builder.add_node("human_node", human_node)
    builder.add_node("response_to_user_chain", response_to_user_chain)
    builder.add_conditional_edges(START, intent_route, ["invoke_common_agent", "direct_tool_node"])
    builder.add_edge("invoke_common_agent", "action_dispatch_node")
    builder.add_edge("tool_call_node", "action_dispatch_node")
    builder.add_edge("response_to_user_chain", END)
    return builder.compile(checkpointer=checkpointer)
