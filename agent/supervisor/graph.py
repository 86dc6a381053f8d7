"""The Common Agent (supervisor) graph, node by node as DESIGN.md §4 lays it out.

START ─intent_route─► invoke_common_agent ─► action_dispatch_node ─► tool_call_node ─┐
           └────────► direct_tool_node ────►        │  ▲   │                        │
                                                    │  └───┼────────────────────────┘
                                  human_node ◄──────┘      └─► response_to_user_chain ─► END

The rules of `action_dispatch_node` are in dispatch.py; `human_node` (the product's
addition: it pauses with `interrupt()` until a click or a reply) is in human.py.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Literal

from langchain_core.messages import AIMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import ToolInvocationError
from langgraph.runtime import Runtime
from langgraph.types import Command

from agent.errors import AssistantError
from agent.llm import describe_llm_failure
from agent.context import AgentContext
from agent.sql.dialect import DEFAULT_DIALECT
from agent.supervisor.calls import internal_error, past_deadline, progress, run_context
from agent.supervisor.dispatch import action_dispatch_node
from agent.supervisor.history import messages_for_router
from agent.supervisor.human import human_node
from agent.supervisor.prompt import router_system_prompt
from agent.supervisor.reply import build_reply
from agent.tools.thread import last_reading_json
from agent.tools.state import CommonAgentState
from agent.tools.registry import ALL_TOOLS, DIRECT_AGENTS, DIRECT_SPECS, EXECUTABLE_TOOLS
from agent.tools.sql_tools import reading_guide
from agent.tools.spec import DirectRequest, tool_call

log = logging.getLogger(__name__)


# -- START -------------------------------------------------------------------------------


def intent_route(state: CommonAgentState) -> Literal["direct_tool_node", "invoke_common_agent"]:
    return "direct_tool_node" if state.get("agent_name") in DIRECT_AGENTS else "invoke_common_agent"


# -- nodes -------------------------------------------------------------------------------


async def invoke_common_agent(state: CommonAgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    if past_deadline(state):
        return internal_error(state, "deadline")
    progress("route", "started", "Understanding your request…")
    ctx = run_context(runtime)
    chat = state.get("chat_context") or {}
    system = router_system_prompt(
        session_id=state.get("session_id", ""),
        user=chat.get("user"),
        locale=chat.get("locale", "en-US"),
        dialect=state.get("sql_dialect") or DEFAULT_DIALECT,
        reading=last_reading_json(state),
        reading_guide=reading_guide(ctx, state.get("question") or "") if ctx.has_llm else None,
    )
    model = ctx.model.bind_tools(ALL_TOOLS).bind(prompt_cache_key=state.get("session_id") or None)
    try:
        answer = await model.ainvoke(messages_for_router(system, state["messages"]))
    except Exception as exc:  # the LLM is outside our control: any failure becomes a clear reply
        log.warning("router LLM failed (request %s): %r", chat.get("request_id"), exc)
        return internal_error(state, "llm", exc)
    if isinstance(answer, AIMessage) and len(answer.tool_calls) > 1:
        # One tool at a time: every tool call needs its own ToolMessage before the next LLM turn.
        answer = AIMessage(content=answer.content, tool_calls=answer.tool_calls[:1], id=answer.id)
    progress("route", "finished", "Understanding your request…")
    return {"messages": [answer]}


def direct_tool_node(state: CommonAgentState) -> Command[Literal["action_dispatch_node"]]:
    """Slash commands and buttons know their tool already: build the call, skip the router LLM."""
    spec = DIRECT_SPECS[state["agent_name"]]
    assert spec.direct_args is not None  # DIRECT_SPECS holds only tools with a direct call
    request = DirectRequest(
        question=state.get("question") or "",
        sql=state.get("original_sql") or state.get("question") or "",
        dialect=state.get("sql_dialect") or DEFAULT_DIALECT,
        error=state.get("error_message") or "",
    )
    call = tool_call(spec.name, spec.direct_args(request))
    update: dict[str, Any] = {"messages": [AIMessage(content="", tool_calls=[call])]}
    if spec.direct_is_confirmed:
        update["confirmed_tool_calls"] = [call["id"]]
    return Command(goto="action_dispatch_node", update=update)


def response_to_user_chain(state: CommonAgentState) -> dict[str, Any]:
    return {"reply": build_reply(state)}


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


def build_graph(checkpointer: BaseCheckpointSaver[Any] | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
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
