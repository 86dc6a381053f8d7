"""A fake agent with the public API's shape (ask / resume / run_tool / pending), scripted per test."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent.api import AgentReply, AskHuman, Chart, ChatContext, HumanOption, Progress, SuggestedPrompt

SQL = "SELECT origin, count(*) AS flights FROM flights GROUP BY origin ORDER BY flights DESC"


@dataclass
class FakeAgent:
    calls: list[tuple[str, str, Any]] = field(default_factory=list)
    fail_with: str | None = None  # the next run answers with this error
    crash: bool = False  # the next run raises (a bug)
    delay_s: float = 0.0
    rows: int = 3
    paused: dict[str, AskHuman] = field(default_factory=dict)
    next_ask: AskHuman | None = None  # the next ask() pauses with this instead of a SQL confirmation
    chart: Chart | None = None  # attached to results, without its PNG (drawn on request, as the agent does)
    png: bytes = b"\x89PNG fake"  # what draw_chart draws
    answer: str = "**EWR** leads with the most flights."  # the words of a result's reply
    not_owners: set[str] = field(default_factory=set)  # people whose clicks on others' questions are refused
    contexts: list[ChatContext] = field(default_factory=list)  # who asked, as each run was told
    wedged: bool = False  # what health() reports
    stuck_users: set[str] = field(default_factory=set)  # their runs wait for `unstick`
    unstick: asyncio.Event = field(default_factory=asyncio.Event)
    stuck_runs: int = 0
    on_draw: Callable[[AgentReply], None] | None = None  # called as a chart is drawn (what was posted by then)

    async def _events(self, session_id: str, reply: AgentReply, ctx: ChatContext):
        self.contexts.append(ctx)
        yield Progress(step="data_discovery", status="started", label="Finding tables…")
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if ctx.user in self.stuck_users:
            self.stuck_runs += 1
            await self.unstick.wait()
        if self.crash:
            self.crash = False
            raise RuntimeError("bug in the agent")
        yield Progress(step="data_discovery", status="finished", label="Finding tables…")
        yield Progress(step="generate_sql", status="started", label="Writing SQL…")
        if self.fail_with:
            reply = AgentReply(session_id=session_id, error=self.fail_with, error_code="warehouse")
            self.fail_with = None
        yield reply.model_copy(update={"request_id": ctx.request_id})

    def ask(self, session_id: str, text: str, ctx: ChatContext):
        self.calls.append(("ask", session_id, text))
        if session_id in self.paused and text.lower() in ("yes", "run it", "run"):
            return self.resume(session_id, "run", ctx)
        confirm = self.next_ask or AskHuman(
            kind="confirm_sql",
            question="Shall I run this query?",
            options=[HumanOption(label="Run", value="run", style="primary")],
            sql=SQL,
        )
        self.next_ask = None
        if confirm.id is None:  # each question its own, as the graph's interrupt ids are
            confirm = confirm.model_copy(update={"id": uuid.uuid4().hex})
        self.paused[session_id] = confirm
        reply = AgentReply(session_id=session_id, response_agent="Text2SQL Agent", text=f"Here is SQL for *{text}*.",
                           sql=SQL, ask_human=confirm, tools=["data_discovery", "generate_sql"])
        return self._events(session_id, reply, ctx)

    def resume(self, session_id: str, choice: str, ctx: ChatContext, edited_sql: str | None = None):
        self.calls.append(("resume", session_id, (choice, edited_sql)))
        if self.paused.pop(session_id, None) is None:
            reply = AgentReply(session_id=session_id, error="There is nothing waiting for an answer here.",
                               error_code="nothing_pending")
        elif choice == "cancel":
            reply = AgentReply(session_id=session_id, text="OK, I did not run it.")
        else:
            rows = [[f"AP{i}", 1000 * (self.rows - i)] for i in range(self.rows)]
            reply = AgentReply(
                session_id=session_id, response_agent="Chat BI Agent", text=self.answer,
                sql=edited_sql or SQL, columns=["origin", "flights"], rows=rows, row_count=self.rows,
                follow_ups=["Now by month", "Only for United"], tools=["execute_sql_and_analyze_result"],
                chart=self.chart,
            )
        return self._events(session_id, reply, ctx)

    def run_tool(self, session_id: str, agent_name: str, args: dict[str, Any], ctx: ChatContext):
        self.calls.append(("tool", session_id, (agent_name, args)))
        reply = AgentReply(session_id=session_id, response_agent=agent_name, text=f"{agent_name} looked at it.",
                           sql=args["sql"], tools=[agent_name])
        return self._events(session_id, reply, ctx)

    def suggested_prompts(self, n: int = 4, context: ChatContext | None = None) -> list[SuggestedPrompt]:
        return [SuggestedPrompt(title=f"Example {i}", message=f"example question {i}") for i in range(1, 4)][:n]

    async def draw_chart(self, reply: AgentReply) -> Chart | None:
        self.calls.append(("draw_chart", reply.session_id, None))
        if self.on_draw is not None:
            self.on_draw(reply)
        return reply.chart.model_copy(update={"png": self.png}) if reply.chart else None

    async def pending(self, session_id: str) -> AskHuman | None:
        return self.paused.get(session_id)

    async def may_answer(self, session_id: str, ctx: ChatContext) -> bool:
        return ctx.user not in self.not_owners

    async def save_verified(self, session_id: str, ctx: ChatContext) -> AgentReply:
        self.calls.append(("save_verified", session_id, ctx.user))
        return AgentReply(session_id=session_id, text="Saved as a verified query (fake).")

    async def learn_word(self, session_id: str, offer: Any, ctx: ChatContext) -> AgentReply:
        self.calls.append(("learn_word", session_id, offer.word))
        return AgentReply(session_id=session_id, text=f"Remembered “{offer.word}” (fake).")

    async def health(self) -> dict[str, Any]:
        return {"warehouse": "up", "wedged": self.wedged}
