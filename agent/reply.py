"""What the agent hands the surfaces: progress events while it works, one AgentReply at the end.

These are the only agent types `bot/` needs; they carry no Slack and no LangGraph.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from agent.charts.spec import ChartSpec


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


class Chart(BaseModel):
    spec: ChartSpec
    png: bytes


class AgentReply(BaseModel):
    session_id: str
    response_agent: str = "Common Agent"
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
    error: str | None = None  # a sentence for a person; details stay in the logs
    error_code: str | None = None
    tools: list[str] = Field(default_factory=list)  # tool names in call order, this run
    llm_calls: int = 0
    request_id: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class SuggestedPrompt(BaseModel):
    """A question to offer before the person has asked anything (Slack's suggested prompts)."""

    title: str
    message: str


class ChatContext(BaseModel):
    """Who is asking and where; the agent uses it for tone and logs, never for Slack calls."""

    user: str | None = None
    channel: str | None = None
    locale: str = "en-US"
    request_id: str | None = None
