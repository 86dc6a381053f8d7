"""The reply: what the agent hands the surfaces, and how the end of a run builds it.

Progress events stream while the agent works and one AgentReply ends every run; these types
carry no Slack and no LangGraph. `build_reply` (`response_to_user_chain`) collects the last
tool result's fields into one plain dict that the public API turns into an AgentReply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from agent.charts.spec import ChartSpec
from agent.learning.offer import LearnOffer
from agent.tools.spec import COMMON_AGENT

if TYPE_CHECKING:
    from agent.tools.state import CommonAgentState


class Progress(BaseModel):
    """A step started or finished, labelled for a person ("Finding tables…")."""

    step: str
    status: Literal["started", "finished"]
    label: str


class HumanOption(BaseModel):
    label: str
    value: str
    style: Literal["primary", "danger", "default"] = "default"


class AskHuman(BaseModel):
    """The run is paused until the person answers; `resume(session_id, value)` continues it."""

    kind: Literal["confirm_sql", "choose_table", "clarify"]
    question: str
    options: list[HumanOption] = Field(default_factory=list)
    sql: str | None = None  # the SQL awaiting confirmation, so "Edit" can prefill it
    term: str | None = None  # a clarification: the words asked about ("What do you mean by “store”?")
    readings: list[str] = Field(default_factory=list)  # whole questions near this one that can be answered
    # Which question this is (the graph's interrupt id): an answer names it, so a click on the buttons of
    # a question answered since never answers a later one. None only where no graph asked it (tests).
    id: str | None = None


class Chart(BaseModel):
    """What to draw; the PNG is drawn after the answer is posted (`Assistant.draw_chart`), so
    nobody waits for a picture to read the numbers."""

    spec: ChartSpec
    png: bytes | None = None


class AgentReply(BaseModel):
    session_id: str
    response_agent: str = COMMON_AGENT
    text: str = ""
    sql: str | None = None
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)  # a preview, at most `preview_rows`
    row_count: int = 0
    # per column: "fraction" (0.403 shows as 40.3%), "percent" (40.3 shows as 40.3%) or None
    column_formats: list[str | None] = Field(default_factory=list)
    chart: Chart | None = None
    ask_human: AskHuman | None = None
    follow_ups: list[str] = Field(default_factory=list)
    learn: LearnOffer | None = None  # offered after a clarification was answered
    error: str | None = None  # a sentence for a person; details stay in the logs
    error_code: str | None = None
    tools: list[str] = Field(default_factory=list)  # tool names in call order, this run
    llm_calls: int = 0
    llm_tokens: dict[str, int] = Field(default_factory=dict)  # {"input": n, "output": n} this run
    request_id: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class SuggestedPrompt(BaseModel):
    """A question to offer before the person has asked anything (Slack's suggested prompts)."""

    title: str
    message: str


CARRIED_FIELDS = ("sql", "columns", "rows", "row_count", "chart_spec", "follow_ups", "column_formats")


def build_reply(state: CommonAgentState) -> dict[str, Any]:
    # Imported here: the reply types above are the public API's, which imports no LangGraph or tools.
    from langchain_core.messages import AIMessage, ToolMessage

    from agent.tools.state import calls_of
    from agent.tools.registry import AGENT_NAME_BY_TOOL
    from agent.tools.results import parse_result

    chat = calls_of(state, "chat")
    names = chat.get("tool_call_name_mapping", {})
    reply: dict[str, Any] = {"tools": list(names.values()), "response_agent": COMMON_AGENT}
    if state.get("has_internal_error"):
        reply["error"] = state.get("internal_error_message") or "Something went wrong on my side."
        reply["error_code"] = state.get("internal_error_code") or "internal"
        return reply

    last = state["messages"][-1] if state.get("messages") else None
    if isinstance(last, ToolMessage):
        output = chat.get("tool_call_output_mapping", {}).get(last.tool_call_id) or parse_result(last.content)
        reply["response_agent"] = AGENT_NAME_BY_TOOL.get(last.name or "", COMMON_AGENT)
        reply["text"] = output.get("text", "")
        reply.update({k: output[k] for k in CARRIED_FIELDS if output.get(k) is not None})
        if output.get("error"):
            reply["error"] = output["error"]
            reply["error_code"] = output.get("error_code") or "error"
    elif isinstance(last, AIMessage):
        reply["text"] = str(last.content or "")
    return reply
