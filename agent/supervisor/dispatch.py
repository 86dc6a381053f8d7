"""`action_dispatch_node`: where the supervisor goes next, as an ordered list of named rules.

The rules read like DESIGN.md §4: the first that applies decides. Each takes the turn as
it stands and returns a `Command`, or None when it does not apply.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.runtime import Runtime
from langgraph.types import Command

from agent.context import AgentContext
from agent.supervisor.calls import (
    internal_error,
    past_deadline,
    progress,
    record_call,
    record_output,
    run_context,
)
from agent.supervisor.human import confirmation_question
from agent.tools.state import CommonAgentState
from agent.tools.registry import EXECUTE, STEP_LABELS, TERMINAL_TOOLS, WORKING, ToolName
from agent.tools.chain import ToolOutcome, tool_outcome
from agent.tools.spec import new_tool_call_id

MAX_VALIDATION_RETRIES = 3

Next = Literal["invoke_common_agent", "tool_call_node", "human_node", "response_to_user_chain", "action_dispatch_node"]
Goto = Command[Next]


@dataclass(frozen=True)
class Turn:
    state: CommonAgentState
    context: AgentContext
    last: AnyMessage | None

    @property
    def call(self) -> dict[str, Any] | None:
        """The tool call the router (or a rule) just made, if that is where the turn stands."""
        if isinstance(self.last, AIMessage) and self.last.tool_calls:
            return dict(self.last.tool_calls[0])
        return None

    @functools.cached_property
    def outcome(self) -> ToolOutcome:
        """The tool's answer, read once for every rule: its result and the step it implies."""
        if not isinstance(self.last, ToolMessage):
            return ToolOutcome({}, None)
        return tool_outcome(self.state.get("messages") or [], self.last, self.state.get("question", ""))

    @property
    def output(self) -> dict[str, Any]:
        return self.outcome.output

    def recorded(self) -> dict[str, Any]:
        """The state update that files the tool's output under its call id."""
        assert isinstance(self.last, ToolMessage)
        return record_output(self.state, self.last.tool_call_id, self.last.name or "", self.output)


def _respond(update: dict[str, Any] | None = None) -> Goto:
    return Command(goto="response_to_user_chain", update=update)


# -- 1. errors and the deadline -------------------------------------------------------------


def internal_error_responds(turn: Turn) -> Goto | None:
    return _respond() if turn.state.get("has_internal_error") else None


def deadline_passed_responds(turn: Turn) -> Goto | None:
    return _respond(internal_error(turn.state, "deadline")) if past_deadline(turn.state) else None


# -- 2. the router called a tool ------------------------------------------------------------


def ask_human_pauses(turn: Turn) -> Goto | None:
    call = turn.call
    if call is None or call["name"] != ToolName.ASK_HUMAN:
        return None
    args = call["args"]
    question = {
        "kind": "clarify",
        "question": args.get("question") or "Could you say a bit more?",
        "options": [{"label": o, "value": o} for o in args.get("options") or []],
        "tool_call_id": call["id"],
        "origin": "ask_human",
    }
    return Command(goto="human_node", update={"ask_human": question})


def confirms_before_run(context: AgentContext) -> bool:
    """Whether a query waits for the person's Run: the settings' `confirm_before_run`, unless this run's
    options say otherwise (tests and benches flip it without rebuilding the context)."""
    return bool(context.options.get("confirm_before_run", context.settings.confirm_before_run))


def running_sql_needs_confirmation(turn: Turn) -> Goto | None:
    call = turn.call
    if call is None or call["name"] != EXECUTE or not confirms_before_run(turn.context):
        return None
    if call["id"] in (turn.state.get("confirmed_tool_calls") or []):
        return None
    return Command(goto="human_node", update={"ask_human": confirmation_question(turn.state, call)})


def tool_call_runs(turn: Turn) -> Goto | None:
    call = turn.call
    if call is None:
        return None
    progress(call["name"], "started", STEP_LABELS.get(call["name"], WORKING))
    return Command(goto="tool_call_node", update=record_call(turn.state, call))


def unreadable_call_retries(turn: Turn) -> Goto | None:
    """Arguments that are not even JSON: answer each call so the history stays valid, then retry."""
    if not (isinstance(turn.last, AIMessage) and turn.last.invalid_tool_calls):
        return None
    retries = turn.state.get("tool_call_retry_count", 0) + 1
    answers = [
        ToolMessage(
            content=f"Error: 1 validation error for {call.get('name')}: the arguments are not valid JSON.",
            tool_call_id=call.get("id") or new_tool_call_id(),
            name=call.get("name") or "unknown",
            status="error",
        )
        for call in turn.last.invalid_tool_calls
    ]
    if retries > MAX_VALIDATION_RETRIES:
        return _respond({**internal_error(turn.state, "validation"), "messages": answers, "tool_call_retry_count": retries})
    return Command(goto="invoke_common_agent", update={"messages": answers, "tool_call_retry_count": retries})


# -- 3. the router answered in words --------------------------------------------------------


def plain_answer_responds(turn: Turn) -> Goto | None:
    return _respond() if isinstance(turn.last, AIMessage) else None


# -- 4. a tool answered ---------------------------------------------------------------------


def tool_step_finished(turn: Turn) -> Goto | None:
    """Not a decision: reports the step as finished before the rules below read its result."""
    if isinstance(turn.last, ToolMessage):
        progress(turn.last.name or "tool", "finished", STEP_LABELS.get(turn.last.name or "", WORKING))
    return None


def validation_error_retries(turn: Turn) -> Goto | None:
    """`Error: N validation errors` goes back to the router, at most MAX_VALIDATION_RETRIES times."""
    last = turn.last
    if not (isinstance(last, ToolMessage) and last.status == "error" and str(last.content).startswith("Error:")):
        return None
    retries = turn.state.get("tool_call_retry_count", 0) + 1
    if retries > MAX_VALIDATION_RETRIES:
        return _respond({**internal_error(turn.state, "validation"), "tool_call_retry_count": retries})
    return Command(goto="invoke_common_agent", update={"tool_call_retry_count": retries})


def error_or_done_responds(turn: Turn) -> Goto | None:
    if not isinstance(turn.last, ToolMessage) or not (turn.output.get("error") or turn.output.get("done")):
        return None
    return _respond(turn.recorded())


def tool_asks_human_pauses(turn: Turn) -> Goto | None:
    if not isinstance(turn.last, ToolMessage) or not turn.output.get("ask_human"):
        return None
    update = turn.recorded()
    update["ask_human"] = {**turn.output["ask_human"], "tool_call_id": turn.last.tool_call_id, "origin": turn.last.name}
    return Command(goto="human_node", update=update)


def final_intent_reached_responds(turn: Turn) -> Goto | None:
    """A terminal tool, or the tool the person's goal names (so "give me the SQL" stops at generate_sql)."""
    if not isinstance(turn.last, ToolMessage):
        return None
    if turn.last.name in TERMINAL_TOOLS or turn.last.name == (turn.output.get("final_intent") or ""):
        return _respond(turn.recorded())
    return None


def no_table_found_responds(turn: Turn) -> Goto | None:
    """Discovery found no table it trusts: the reply lets the person pick."""
    if not isinstance(turn.last, ToolMessage) or turn.last.name != ToolName.DATA_DISCOVERY:
        return None
    return None if turn.output.get("selected_tables") else _respond(turn.recorded())


def implied_step_runs(turn: Turn) -> Goto | None:
    """Rule-based dispatch: when the next step is implied, take it without a router LLM call."""
    last = turn.last
    if not isinstance(last, ToolMessage):
        return None
    if (turn.state.get("chat_context") or {}).get("dispatch_strategy") == "llm":
        return None
    next_call = turn.outcome.implied_call
    if next_call is None:
        return None
    call = AIMessage(content="", tool_calls=[next_call])
    update = {**turn.recorded(), "messages": [call]}
    # The call is dispatched here, by the rules the next pass of this node would apply to it (the
    # confirmation, the deadline), on the state as this update leaves it: one node, not two.
    state = cast(CommonAgentState, {**turn.state, **update, "messages": [*(turn.state.get("messages") or []), call]})
    following = Turn(state=state, context=turn.context, last=call)
    decision = decide(following)
    taken = dict(decision.update or {})
    return Command(goto=decision.goto, update={**update, **taken, "messages": [call, *taken.get("messages", [])]})


def otherwise_router_decides(turn: Turn) -> Goto:
    update = turn.recorded() if isinstance(turn.last, ToolMessage) else None
    return Command(goto="invoke_common_agent", update=update)


RULES: tuple[Callable[[Turn], Goto | None], ...] = (
    internal_error_responds,
    deadline_passed_responds,
    ask_human_pauses,
    running_sql_needs_confirmation,
    tool_call_runs,
    unreadable_call_retries,
    plain_answer_responds,
    tool_step_finished,
    validation_error_retries,
    error_or_done_responds,
    tool_asks_human_pauses,
    final_intent_reached_responds,
    no_table_found_responds,
    implied_step_runs,
)


def decide(turn: Turn) -> Goto:
    """The first rule that applies to the turn decides."""
    for rule in RULES:
        decision = rule(turn)
        if decision is not None:
            return decision
    return otherwise_router_decides(turn)


async def action_dispatch_node(state: CommonAgentState, runtime: Runtime[AgentContext]) -> Goto:
    messages = state.get("messages") or []
    return decide(Turn(state=state, context=run_context(runtime), last=messages[-1] if messages else None))
