"""The agent's public API: `ask`, `resume`, `run_tool`, each streaming progress and ending with
one `AgentReply`. This is all `bot/` needs (import-linter checks it); graph internals stay behind it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import re
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

# Importing this module stays light (no LangGraph, LangChain, LangSmith, matplotlib): a command line
# can read settings and start on a question while the graph machinery is still to be imported.
# The graph and the LLM plumbing are imported where an Assistant is built or runs.
from agent.audit import read_tail as read_audit_tail
from agent.budget.inputs import check_question, check_sql
from agent.charts.drawn import DrawnCharts, chart_key
from agent.charts.prepare import ChartError, PreparedChart, is_month_axis
from agent.charts.prepare import prepare as prepare_chart
from agent.charts.spec import ChartSpec
from agent.collector import paused_for_startup
from agent.context import ChatContext
from agent.errors import AssistantError, InputTooLargeError, SettingsError
from agent.bootstrap import Groundwork, build_groundwork, chart_ahead
from agent.budget.ahead import StepAhead
from agent.llm.routing import AFFIRMATIVE, NEGATIVE, clean_message, person_message, split_sql
from agent.semantic.nlq.dialogue_cues import reply_words, restarted, says_every_option, without_every_option
from agent.reply_text import cell, column_cells, format_reply_text, is_numeric, save_chart
from agent.settings import SESSION_IDLE_TTL_S, Settings, load_settings
from agent.text.phrases import phrase
from agent import session as sessions
from agent.session import Session
from agent.sql.dialect import DEFAULT_DIALECT
from agent.learning.offer import LearnOffer
from agent.learning.phrases import NAMES_THE_DATA
from agent.supervisor.reply import AgentReply, AskHuman, Chart, HumanOption, Progress, SuggestedPrompt
from agent.tools.spec import COMMON_AGENT, AgentName

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AnyMessage, ToolMessage
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.types import Durability

    from agent.policy.scope import Governance
    from agent.context import AgentContext
    from agent.session.reads import ReadOnce
    from agent.learning.words import WordLearning
    from agent.tools.state import CommonAgentState

__all__ = [
    "DEFAULT_DIALECT",
    "SESSION_IDLE_TTL_S",
    "AgentName",
    "AgentReply",
    "AskHuman",
    "Assistant",
    "AssistantError",
    "Chart",
    "ChartError",
    "ChartSpec",
    "PreparedChart",
    "ChatContext",
    "Event",
    "Groundwork",
    "HumanOption",
    "LearnOffer",
    "Progress",
    "Settings",
    "SettingsError",
    "StartingAssistant",
    "SuggestedPrompt",
    "StepAhead",
    "build_groundwork",
    "catalog_command",
    "chart_ahead",
    "cell",
    "column_cells",
    "format_reply_text",
    "interpret_reply",
    "is_month_axis",
    "is_numeric",
    "learning_command",
    "load_settings",
    "paused_for_startup",
    "prepare_chart",
    "read_audit_tail",
    "save_chart",
]

log = logging.getLogger(__name__)

Event = Progress | AgentReply
PROMPT_TITLE = 40  # a suggested prompt's label; the full question is what gets asked


class Assistant:
    def __init__(
        self, context: AgentContext, checkpointer: BaseCheckpointSaver[Any] | None = None, *, dispatch_strategy: str = "rules"
    ) -> None:
        from agent.audit import AuditTrail
        from agent.learning.store import open_store
        from agent.learning.words import WordLearning
        from agent.policy.scope import Governance
        from agent.bootstrap import memory_checkpointer
        from agent.session.reads import ReadOnce
        from agent.supervisor.graph import build_graph
        from agent.tracing import build_tracers

        self.context = context
        self.settings: Settings = context.settings
        # A turn's reading of its session is the one its run starts from (`agent.session.reads`).
        self.graph = build_graph(ReadOnce(checkpointer or memory_checkpointer(self.settings)))
        self._sessions = sessions.Sessions(self.graph, cast("ReadOnce", self.graph.checkpointer))
        # How often a run writes its checkpoint: the saver says what is worth it (LangGraph's default, after
        # every step, unless the saver names another).
        self._durability: Durability | None = getattr(self.graph.checkpointer, "durability", None)
        self.governance: Governance = context.governance or Governance(context.warehouse, policy=None,
                                                                         audit=AuditTrail([]))
        self.dispatch_strategy = dispatch_strategy
        self.learning: WordLearning = WordLearning(open_store(self.settings), self.governance.audit)
        self._tracers = build_tracers(self.settings)
        self._charts = DrawnCharts()  # PNGs drawn lately, by what they draw (`draw_chart`)

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        chat_model: BaseChatModel | None = None,
        checkpointer: BaseCheckpointSaver[Any] | None = None,
        dispatch_strategy: str = "rules",
        groundwork: Groundwork | None = None,
        in_process: bool = False,
        warm: bool = True,
        drawing: StepAhead | None = None,
    ) -> Assistant:
        """An assistant for `settings`; on `groundwork` when the caller has read it already (a command
        line shows its first step from it while this imports the graph). `in_process`: its CPU steps
        run in this process, for one question then exit (no worker pool to start). `warm=False`: the
        CPU workers start at `warm()` or when the first step needs them, not now. `drawing` (with
        `in_process`): the process started ahead to draw the answer's chart (`chart_ahead`)."""
        from agent.bootstrap import build_checkpointer, build_context

        context = build_context(settings, chat_model=chat_model, groundwork=groundwork, in_process=in_process,
                                warm=warm, drawing=drawing)
        try:
            return cls(context, checkpointer or build_checkpointer(settings), dispatch_strategy=dispatch_strategy)
        except BaseException:
            # The workers are starting: stop them before the error ends the process, or a worker
            # forked while the interpreter exits prints a traceback of its own.
            context.cpu.close()
            raise

    @classmethod
    def starting(cls, settings: Settings) -> StartingAssistant:
        """An assistant for a server that must say it is ready soon: the warehouse, the semantic model and
        its values are read now (what readiness checks); the graph, the chat model and the CPU workers
        (LangChain, LangGraph: most of a start's CPU) are built on a thread from `warm()` or the first
        call, which waits for them. See `StartingAssistant`."""
        return StartingAssistant(settings, build_groundwork(settings))

    def warm(self) -> None:
        """Start the CPU workers now, in the background (a step arriving meanwhile waits for them)."""
        self.context.cpu.warm()

    async def aclose(self) -> None:
        closer = getattr(self.graph.checkpointer, "aclose", None)
        if closer is not None:
            await closer()
        self.context.cpu.close()
        stop_values = getattr(self.context.catalog, "close", None)  # a live catalog's background reading
        if stop_values is not None:
            stop_values()
        self.governance.close()
        self.learning.store.close()
        self.context.warehouse.close()

    def on_query(self, listener: Callable[[dict[str, Any]], None]) -> None:
        """Call `listener` with the audit record of every query the warehouse is asked to run."""
        if self.governance.audit is not None:
            self.governance.audit.listeners.append(listener)

    # -- public calls ---------------------------------------------------------------------

    async def ask(self, session_id: str, text: str, context: ChatContext | None = None) -> AsyncIterator[Event]:
        context = context or ChatContext()
        if refused := self._refuse_oversized(session_id, text, context):
            yield refused
            return
        message = person_message(text)
        if not message:
            yield AgentReply(
                session_id=session_id,
                text="Ask me a data question (e.g. “average arrival delay by origin”), or paste SQL to fix or explain.",
                request_id=context.request_id,
            )
            return
        taught = taught_in_words(message)
        if taught is not None:
            yield self._teaching_reply(session_id, *taught, context)
            return
        if is_save_request(message):
            async with self._sessions.turn(session_id) as session:
                yield await self._save_verified(session, context)
            return
        # The session is read once as the turn takes it; what follows is handed it (or what a run left), not a re-read.
        async with self._sessions.turn(session_id) as session:
            pending = session.pending
            chose_reading = False
            if pending is not None:
                # The open question is its asker's: another person's words neither answer nor replace it.
                refusal = self._not_yours(session, context)
                if refusal is not None:
                    yield refusal
                    return
                # one of the nearest readings offered beside the question ('origins'): a question of its own
                chose_reading = message.strip() in {r.strip() for r in pending.readings}
                answer = None if chose_reading else interpret_reply(
                    message, pending, self._option_words(pending), self._option_cues(pending))
                if answer is None and not chose_reading:
                    answer = self._named_answer(pending, message, context)
                if answer == REASK:
                    yield _reask(session_id, pending, context)
                    return
                if answer is not None:
                    async for event in self._answer(session, answer, context):
                        yield event
                    return
                session = await self._drain(session, _resume({"choice": "cancel"}), context)
            turn = self._new_turn(session, message, context)
            async for event in self._run(session, turn, context):
                if pending is not None and not chose_reading and isinstance(event, AgentReply):
                    # said once, here: the question left open is gone, nothing of it was run
                    event = event.model_copy(update={"text": f"(I dropped my earlier question, “{pending.question}”: "
                                                             f"nothing of it was run.)\n{event.text or ''}".rstrip()})
                yield event

    async def resume(
        self, session_id: str, choice: str, context: ChatContext | None = None, *, edited_sql: str | None = None
    ) -> AsyncIterator[Event]:
        context = context or ChatContext()
        if edited_sql and (refused := self._refuse_oversized(session_id, edited_sql, context, sql_only=True)):
            yield refused
            return
        async with self._sessions.turn(session_id) as session:
            if session.pending is None:
                yield AgentReply(
                    session_id=session_id,
                    error="There is nothing waiting for an answer here any more (it may have been answered already).",
                    error_code="nothing_pending",
                    request_id=context.request_id,
                )
                return
            refusal = self._not_yours(session, context)
            if refusal is not None:
                yield refusal
                return
            async for event in self._answer(session, {"choice": choice, "sql": edited_sql}, context):
                yield event

    async def _answer(self, session: Session, answer: dict[str, Any], context: ChatContext) -> AsyncIterator[Event]:
        """Resume `session`'s pending question with the person's answer. The time they took is not the
        run's: the deadline moves by the wait; an answer after `pending_ttl_s` finds the question expired
        and offers it again."""
        session_id, pending = session.id, session.pending
        now = time.time()
        paused_at = session.paused_at or now
        if now - paused_at > self.settings.pending_ttl_s:
            await self._drain(session, _resume({"choice": "cancel"}), context)
            question = session.question
            yield AgentReply(
                session_id=session_id,
                text=(
                    f"This question waited more than {_duration(self.settings.pending_ttl_s)}, so it expired and "
                    "nothing was run. Ask again to get fresh numbers."
                ),
                follow_ups=[question] if question else [],
                request_id=context.request_id,
            )
            return
        deadline = session.deadline
        remaining = deadline - paused_at if deadline else self.settings.max_execute_second
        resumed = {**answer, "deadline": now + max(remaining, 0.0)}
        offer = await asyncio.to_thread(self._learn_offer, pending, answer.get("choice"), context)
        async for event in self._run(session, _resume(resumed), context):
            if offer is not None and isinstance(event, AgentReply) and event.ok:
                event = event.model_copy(update={"learn": offer})
            yield event

    def _named_answer(self, pending: AskHuman, text: str, context: ChatContext) -> dict[str, Any] | None:
        """A typed reply to "What do you mean by “X”?" naming a thing of the model that is not among the
        buttons ('the destination airport'): the answer, as that thing's label."""
        if pending.kind != "clarify" or not pending.term:
            return None
        try:
            scoped = self.governance.context_for(self.context, context)
        except AssistantError:
            return None  # read as a new message, which meets the same warehouse problem and says so
        label = self.learning.typed_answer(scoped.semantic, text)
        if label is not None:
            return {"choice": label}
        # 'dulles' for "What do you mean by “dc”?": a reply that is one of the data's values, whole, is what
        # the word meant; it takes the word's place in the question, with everything else the question said
        # 'washington state. seattle': of a reply in parts, the one part that is such a value
        def is_value(part: str) -> bool:
            return 0 < len(said := phrase(part)) <= SHORT_REPLY_WORDS and any(p.words == said for p in scoped.values.phrases)

        # 'envoy, expressjet and endeavor': a reply that is a list of values, every one of them, is what it meant
        items = [item.strip() for item in re.split(r"[,;&]+|\s+(?:and|or)\s+", text.strip(" .!?")) if item.strip()]
        if len(items) > 1 and all(is_value(item) for item in items):
            return {"choice": text.strip(" .!?")}
        parts = [part.strip() for part in re.split(r"[.,;:!?]+|\s+-+\s+", text) if part.strip()]
        named = [part for part in parts if is_value(part)]
        return {"choice": named[0]} if len(named) == 1 else None

    def _learn_offer(self, pending: AskHuman | None, choice: Any, context: ChatContext) -> LearnOffer | None:
        """After "What do you mean by “X”?" is answered with one of its options: the offer to remember X."""
        from agent.learning.words import workspace_of

        if pending is None or pending.kind != "clarify" or not pending.term:
            return None
        try:
            model = self.governance.context_for(self.context, context).semantic
        except AssistantError as exc:
            log.warning("no offer to remember a word (request %s): %s", context.request_id, exc.detail or exc)
            return None
        chosen = next((o.label for o in pending.options if o.value == choice), None) or (
            self.learning.typed_answer(model, str(choice or "")))
        if chosen is None:
            return None
        return self.learning.offer(model, pending.term, chosen, workspace_of(context))

    def _teaching_reply(self, session_id: str, word: str, meaning: str, context: ChatContext) -> AgentReply:
        """"When I say X I mean Y": Y read back as the model's thing or a definition, to be confirmed."""
        from agent.learning.overlay import is_model_name
        from agent.learning.teaching import explain, not_understood, understand

        try:
            model = self.governance.context_for(self.context, context).semantic
        except AssistantError as exc:
            return AgentReply(session_id=session_id, error=exc.user_message, error_code=exc.code,
                              request_id=context.request_id)
        if is_model_name(word, model):
            return AgentReply(session_id=session_id, error=f"“{word}” is already a name in the data model, so I "
                              "keep its meaning there.", error_code="not_learned", request_id=context.request_id)
        offer = understand(word, meaning, model)
        if offer is None:
            return AgentReply(session_id=session_id, text=not_understood(word, meaning), request_id=context.request_id)
        return AgentReply(session_id=session_id, text=f"I would read “{word}” as {explain(offer, model)}.",
                          learn=offer, request_id=context.request_id)

    async def save_verified(self, session_id: str, context: ChatContext) -> AgentReply:
        """A 👍 on an answer, or "save this": the session's last answered question and its reading become a
        verified query of the workspace (the policy's `teach:` groups; recorded in the audit trail)."""
        return await self._save_verified(await self._sessions.read(session_id), context)

    async def _save_verified(self, session: Session, context: ChatContext) -> AgentReply:
        from agent.tools.state import calls_of
        from agent.tools.results import latest_output

        session_id = session.id
        state = cast("CommonAgentState", session.values)
        written = latest_output(calls_of(state), ("generate_sql",), with_key="intent") if state else None
        question = state.get("question")
        if written is None or not question:
            return AgentReply(session_id=session_id, error="There is no answered question in this thread to save "
                              "(only questions read into the data model's names can be saved).",
                              error_code="nothing_to_save", request_id=context.request_id)
        try:
            saved = await asyncio.to_thread(
                self.learning.save_query, question, written[1]["intent"], list(written[1].get("tables") or []),
                context, allowed=self.governance.may_teach(context))
        except AssistantError as exc:
            log.warning("verified query not saved (request %s): %s", context.request_id, exc.detail or exc.user_message)
            return AgentReply(session_id=session_id, error=exc.user_message, error_code=exc.code,
                              request_id=context.request_id)
        if not saved.ok:
            return AgentReply(session_id=session_id, error=saved.text, error_code="not_saved",
                              request_id=context.request_id)
        return AgentReply(session_id=session_id, text=saved.text, request_id=context.request_id)

    async def learn_word(self, session_id: str, offer: LearnOffer, context: ChatContext) -> AgentReply:
        """The person confirmed "Remember “X” = Y for everyone?": kept for the workspace if the access
        policy's `teach:` groups let them (anyone when it names none), recorded in the audit trail."""
        try:
            model = self.governance.context_for(self.context, context).semantic
            taught = await asyncio.to_thread(
                self.learning.teach, model, offer, context, allowed=self.governance.may_teach(context)
            )
        except AssistantError as exc:
            log.warning("word not learned (request %s): %s", context.request_id, exc.detail or exc.user_message)
            return AgentReply(session_id=session_id, error=exc.user_message, error_code=exc.code,
                              request_id=context.request_id)
        if not taught.ok:
            return AgentReply(session_id=session_id, error=taught.text, error_code="not_learned",
                              request_id=context.request_id)
        return AgentReply(session_id=session_id, text=taught.text, request_id=context.request_id)

    async def run_tool(
        self, session_id: str, agent_name: str, args: dict[str, Any], context: ChatContext | None = None
    ) -> AsyncIterator[Event]:
        from agent.tools.registry import DIRECT_AGENTS

        context = context or ChatContext()
        if agent_name not in DIRECT_AGENTS:
            raise ValueError(f"{agent_name!r} cannot be called directly; use one of {sorted(DIRECT_AGENTS)}")
        for text in (args.get("sql"), args.get("question"), args.get("error")):
            if text and (refused := self._refuse_oversized(session_id, text, context, sql_only=text == args.get("sql"))):
                yield refused
                return
        sql = clean_message(args.get("sql") or "")
        question = args.get("question") or sql
        if not question:
            yield AgentReply(session_id=session_id, error="There is nothing to work on: the request was empty.",
                             error_code="empty", request_id=context.request_id)
            return
        async with self._sessions.turn(session_id) as session:
            turn = self._new_turn(
                session,
                question,
                context,
                agent_name=agent_name,
                original_sql=sql or None,
                error_message=args.get("error") or None,
                sql_dialect=args.get("dialect") or DEFAULT_DIALECT,
            )
            async for event in self._run(session, turn, context):
                yield event

    async def may_answer(self, session_id: str, context: ChatContext) -> bool:
        """Whether this person may answer the session's open question (Run, Edit, Cancel, a choice):
        the person who asked, or a member of the access policy's `run_button` groups."""
        return self.governance.may_answer_for(context, (await self._sessions.read(session_id)).owner)

    def suggested_prompts(self, n: int = 4, context: ChatContext | None = None) -> list[SuggestedPrompt]:
        """Questions to offer a new conversation: the team's own example questions from the catalog,
        only those this person may run (the access policy's view of the catalog)."""
        try:
            catalog = self.governance.context_for(self.context, context or ChatContext()).catalog
        except AssistantError as exc:  # the warehouse is down: offer nothing rather than fail the pane
            log.warning("no suggested prompts: %s", exc.detail or exc)
            return []
        prompts = []
        for example in catalog.data.examples[:n]:
            question = " ".join(example.question.split())
            title = question if len(question) <= PROMPT_TITLE else question[: PROMPT_TITLE - 1].rsplit(" ", 1)[0] + "…"
            prompts.append(SuggestedPrompt(title=title, message=question))
        return prompts

    async def pending(self, session_id: str) -> AskHuman | None:
        """The question the session waits on its asker for, if any (`agent.session` owns it)."""
        return (await self._sessions.read(session_id)).pending

    async def health(self, timeout_s: float = 2.0) -> dict[str, Any]:
        """For readiness: does the warehouse answer, are its slots wedged by work that would not stop, and
        do the CPU workers still finish steps (`cpu_problem`: None, or why not)?"""
        report = await _warehouse_health(self.context.warehouse, timeout_s)
        return {**report, "cpu_overruns": self.context.cpu.overruns, "cpu_problem": self.context.cpu.problem()}

    async def reply(self, events: AsyncIterator[Event]) -> AgentReply:
        """The final reply of a stream, for callers that do not show progress."""
        last = None
        async for event in events:
            last = event
        assert isinstance(last, AgentReply)
        return last

    # -- running ----------------------------------------------------------------------------

    def _option_words(self, pending: AskHuman) -> dict[str, list[str]]:
        """Other words for each option that is one of the model's dimensions ('departure airport' for
        'origin airport'), so a typed answer in other words is taken."""
        by_label = {d.label.lower(): d for d in self.context.semantic.dimensions}
        words = {}
        for option in pending.options:
            dim = by_label.get(option.label.lower()) or by_label.get(option.value.lower())
            if dim is not None:
                words[option.value] = [dim.label, dim.name.replace("_", " "), *dim.synonyms]
        return words

    def _option_cues(self, pending: AskHuman) -> dict[str, list[str]]:
        """The words that put a value in each option that is a dimension ('departing from' for the origin):
        a typed answer made of them alone ('where they depart from') names it; found inside a longer
        message they name nothing ('delays from JFK' is a question of its own)."""
        by_label = {d.label.lower(): d for d in self.context.semantic.dimensions}
        return {o.value: list(dim.value_cues) for o in pending.options
                if (dim := by_label.get(o.label.lower()) or by_label.get(o.value.lower())) is not None}

    def _not_yours(self, session: Session, context: ChatContext) -> AgentReply | None:
        """A refusal when someone other than the asker (or the policy's run_button groups) answers."""
        if self.governance.may_answer_for(context, session.owner):
            return None
        log.info("answer refused: %s is not the asker of session %s (request %s)",
                 context.user, session.id, context.request_id)
        return AgentReply(
            session_id=session.id,
            error="This question belongs to the person who asked it, so only they can run, edit or cancel it. "
            "Ask your own question to get an answer of your own.",
            error_code="not_yours",
            request_id=context.request_id,
        )

    def _refuse_oversized(
        self, session_id: str, text: str, context: ChatContext, *, sql_only: bool = False
    ) -> AgentReply | None:
        """A reply refusing `text` when it is too big to read; the cheap length test runs before any regex."""
        limits = self.settings
        try:
            if sql_only:
                check_sql(text, max_chars=limits.max_sql_chars, max_depth=limits.max_sql_depth)
            else:
                if len(text) > limits.max_sql_chars + limits.max_question_chars:
                    check_question(text, limits.max_question_chars)  # too big as words or SQL: no regex reads it
                sql, words, _ = split_sql(text)
                check_question(words if sql else text, limits.max_question_chars)
                if sql:
                    check_sql(sql, max_chars=limits.max_sql_chars, max_depth=limits.max_sql_depth)
        except InputTooLargeError as exc:
            log.warning("refused oversized input (request %s): %s", context.request_id, exc.user_message)
            return AgentReply(
                session_id=session_id, error=exc.user_message, error_code=exc.code, request_id=context.request_id
            )
        return None

    def _new_turn(self, session: Session, text: str, context: ChatContext, **fields: Any) -> dict[str, Any]:
        """The graph input of a new question in `session` (as read when the turn began)."""
        from langchain_core.messages import HumanMessage

        from agent.tools.state import empty_tool_call_info

        session_id = session.id
        limit = self.settings.max_execute_second
        return {
            "messages": [*_close_dangling_calls(session.messages), HumanMessage(content=text)],
            "question": text,
            "agent_name": str(fields.pop("agent_name", COMMON_AGENT)),
            "session_id": session_id,
            "chat_context": {
                "user": context.user,
                "channel": context.channel,
                "locale": context.locale,
                "request_id": context.request_id,
                "dispatch_strategy": self.dispatch_strategy,
            },
            "sql_dialect": fields.pop("sql_dialect", DEFAULT_DIALECT),
            "original_sql": fields.pop("original_sql", None),
            "error_message": fields.pop("error_message", None),
            "chat_tool_call_info": empty_tool_call_info(),
            "selected_tables": [],
            "ask_human": None,
            "confirmed_tool_calls": [],
            "has_internal_error": False,
            "internal_error_message": None,
            "internal_error_code": None,
            "tool_call_retry_count": 0,
            "timeout_timestamp": time.time() + limit,
            "max_execute_second": limit,
            "reply": None,
        }

    async def _drain(self, session: Session, graph_input: Any, context: ChatContext) -> Session:
        """Run to the end, showing nothing; the session as the run left it."""
        ended: list[Session] = []
        async for _ in self._run(session, graph_input, context, ended=ended):
            pass
        # a failed run streamed no end: what it left is read back (a rare path)
        return ended[-1] if ended else await self._sessions.read(session.id)

    async def _run(
        self, session: Session, graph_input: Any, context: ChatContext, *, ended: list[Session] | None = None
    ) -> AsyncIterator[Event]:
        """Progress, then the reply; the session as the run left it is appended to `ended` when given.
        The reply is made from what the run streamed (its last values, its interrupt), so the checkpoint
        it wrote is not read back."""
        from agent.supervisor.run import RunEnd, stream

        request_id = context.request_id or uuid.uuid4().hex[:12]
        session_id = session.id
        limit = self.settings.max_execute_second
        failure: AgentReply | None = None
        run: list[RunEnd] = []  # how the run ended, once it started (`agent.supervisor.run`)
        try:
            # Scoping reads the warehouse's tables, so a warehouse that is down is answered like any failure.
            who = context.model_copy(update={"request_id": request_id})
            run_context = self.governance.context_for(self.context, who, session_id)
            # the store is Redis or a file: read off the event loop (a Redis that hangs waits its timeout there)
            run_context = await asyncio.to_thread(self._with_learned_words, run_context, who)
            async with asyncio.timeout(limit):
                async for progress in stream(self.graph, graph_input, session.config, run_context,
                                             durability=self._durability, ended=run, callbacks=self._tracers):
                    yield progress
        except TimeoutError:
            log.warning("run passed its deadline (request %s, session %s)", request_id, session_id)
            failure = AgentReply(
                session_id=session_id,
                error=f"This took longer than {limit:g} seconds, so I stopped. Please try again or narrow the question.",
                error_code="deadline",
            )
        except AssistantError as exc:
            log.warning("run failed (request %s): %s", request_id, exc.detail or exc)
            failure = AgentReply(session_id=session_id, error=exc.user_message, error_code=exc.code)
        except Exception:
            log.exception("run crashed (request %s, session %s)", request_id, session_id)
            failure = AgentReply(
                session_id=session_id,
                error="Something went wrong on my side. Please try again.",
                error_code="internal",
            )
        end = run[0] if run else RunEnd()
        if failure is not None:
            failure.request_id, failure.llm_calls, failure.llm_tokens = request_id, end.calls.count, end.calls.tokens
            yield failure
            return
        # A run that streamed no state (no step ran) left the checkpoint as it was: read it rather than
        # take an empty session for what the run left.
        session = (sessions.after_run(session_id, end.values, end.interrupts, time.time()) if end.values
                   else await self._sessions.read(session_id))
        if ended is not None:
            ended.append(session)
        reply = _final_reply(session, request_id)
        reply.llm_calls, reply.llm_tokens = end.calls.count, end.calls.tokens
        yield reply

    def _with_learned_words(self, run_context: AgentContext, who: ChatContext) -> AgentContext:
        """The run's model with the words this workspace taught (re-read only when they changed)."""
        import dataclasses

        learned, verified = self.learning.for_run(run_context.semantic, who)
        if learned is run_context.semantic and not verified:
            return run_context
        return dataclasses.replace(run_context, semantic=learned, options={**run_context.options, "verified": verified})

    async def draw_chart(self, reply: AgentReply) -> Chart | None:
        """The reply's chart with its PNG, drawn once the answer is out: in a CPU worker under the
        step budget, so drawing never holds the event loop (matplotlib holds the GIL while it draws).
        The same chart drawn lately (the same spec, columns and rows) is not drawn again
        (`agent.charts.drawn`). None when there is no chart or it could not be drawn (logged)."""
        if reply.chart is None or reply.chart.png is not None:
            return reply.chart
        from agent.tools import steps

        key = chart_key(reply.chart.spec, reply.columns, reply.rows)
        png = self._charts.get(key)
        if png is None:
            try:
                png = await self.context.cpu.run(
                    steps.DRAWING_CHART, steps.draw_chart, reply.chart.spec, reply.columns, reply.rows
                )
            except AssistantError as exc:
                log.warning("chart not drawn (request %s): %s", reply.request_id, exc.detail or exc.user_message)
                return None
            self._charts.keep(key, png)
        return reply.chart.model_copy(update={"png": png})


class StartingAssistant:
    """An `Assistant` whose graph is still being built: what a server holds from the moment it can answer.

    Readiness needs the warehouse to answer, which the groundwork already does; everything else is an
    Assistant built on its own thread (with the collector paused, as for any start-up) once `warm()` is
    called, after the server says it is ready, so that build does not compete with the server's own start
    for the CPU. A call arriving before it is done waits for it, then runs as on the Assistant: a first
    question is answered, a little later. A build that fails is reported by `health()` (`agent_problem`)
    and raised to every call.
    """

    def __init__(self, settings: Settings, groundwork: Groundwork) -> None:
        self.settings = settings
        self._groundwork = groundwork
        self._built: concurrent.futures.Future[Assistant] = concurrent.futures.Future()
        self._started = False
        self._start_lock = threading.Lock()
        self._query_listeners: list[Callable[[dict[str, Any]], None]] = []

    def warm(self) -> None:
        """Build the Assistant now, on a thread, then start its CPU workers; returns at once."""
        with self._start_lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._build, name="assistant-build", daemon=True).start()

    def _build(self) -> None:
        try:
            with paused_for_startup():
                assistant = Assistant.from_settings(self.settings, groundwork=self._groundwork, warm=False)
            for listener in self._query_listeners:
                assistant.on_query(listener)
            assistant.warm()
        except BaseException as exc:  # noqa: BLE001 - handed to every caller and to health()
            log.error("the agent could not be built: %s", getattr(exc, "user_message", None) or exc)
            self._built.set_exception(exc)
            return
        self._built.set_result(assistant)

    async def built(self) -> Assistant:
        """The Assistant, once built (started now if `warm()` was not called yet)."""
        self.warm()
        return await asyncio.wrap_future(self._built)

    def built_now(self) -> Assistant:
        """The Assistant, waiting on this thread for it: for the few calls that are not async."""
        self.warm()
        return self._built.result()

    def on_query(self, listener: Callable[[dict[str, Any]], None]) -> None:
        with self._start_lock:
            if not self._built.done():
                self._query_listeners.append(listener)
                return
        self.built_now().on_query(listener)

    async def health(self, timeout_s: float = 2.0) -> dict[str, Any]:
        if self._built.done():
            if self._built.exception() is None:
                return await self._built.result().health(timeout_s)
            exc = self._built.exception()
            return {"warehouse": "up", "wedged": False, "cpu_overruns": 0,
                    "agent_problem": f"the agent could not be built: {type(exc).__name__}: {exc}"}
        warehouse = self._groundwork.warehouse
        report = await _warehouse_health(warehouse, timeout_s)
        return {**report, "cpu_overruns": 0, "cpu_problem": None}

    async def ask(self, session_id: str, text: str, context: ChatContext | None = None) -> AsyncIterator[Event]:
        async for event in (await self.built()).ask(session_id, text, context):
            yield event

    async def resume(
        self, session_id: str, choice: str, context: ChatContext | None = None, *, edited_sql: str | None = None
    ) -> AsyncIterator[Event]:
        async for event in (await self.built()).resume(session_id, choice, context, edited_sql=edited_sql):
            yield event

    async def run_tool(
        self, session_id: str, agent_name: str, args: dict[str, Any], context: ChatContext | None = None
    ) -> AsyncIterator[Event]:
        async for event in (await self.built()).run_tool(session_id, agent_name, args, context):
            yield event

    async def draw_chart(self, reply: AgentReply) -> Chart | None:
        return await (await self.built()).draw_chart(reply)

    async def pending(self, session_id: str) -> AskHuman | None:
        return await (await self.built()).pending(session_id)

    async def may_answer(self, session_id: str, context: ChatContext) -> bool:
        return await (await self.built()).may_answer(session_id, context)

    async def save_verified(self, session_id: str, context: ChatContext) -> AgentReply:
        return await (await self.built()).save_verified(session_id, context)

    async def learn_word(self, session_id: str, offer: LearnOffer, context: ChatContext) -> AgentReply:
        return await (await self.built()).learn_word(session_id, offer, context)

    def suggested_prompts(self, n: int = 4, context: ChatContext | None = None) -> list[SuggestedPrompt]:
        return self.built_now().suggested_prompts(n, context)

    async def reply(self, events: AsyncIterator[Event]) -> AgentReply:
        return await (await self.built()).reply(events)

    async def aclose(self) -> None:
        if self._started:
            try:
                assistant = await asyncio.wrap_future(self._built)
            except BaseException:  # noqa: BLE001 - reported when it happened; the warehouse is still closed
                self._groundwork.warehouse.close()
                return
            await assistant.aclose()
        else:
            self._groundwork.warehouse.close()


async def _warehouse_health(warehouse: Any, timeout_s: float) -> dict[str, Any]:
    """Does the warehouse answer, and are its slots wedged by work that would not stop?"""
    slots = warehouse.slots.snapshot()
    problem: str | None = None
    try:
        # The engine's own check (a server's connection, with its backoff), then a trivial query.
        problem = await warehouse.slots.call(warehouse.health, budget_s=timeout_s)
        if problem is None:
            await warehouse.aping(timeout_s)
        state = "up" if problem is None else "down"
    except AssistantError as exc:
        state, problem = exc.code, exc.user_message
    return {"warehouse": state, "warehouse_problem": problem, "wedged": slots["wedged"], "warehouse_slots": slots}


def catalog_command(settings: Settings, step: str, folder: Path | str | None) -> tuple[int, list[str]]:
    """`catalog init|check|refresh|words` for a terminal: (exit status, lines to print)."""
    from agent.catalog import commands

    if step == "words":  # `folder` is the word to look up
        from agent.semantic.nlq.meanings import word_meanings

        groundwork = build_groundwork(settings)
        try:
            return 0, word_meanings(str(folder), groundwork.semantic, groundwork.values)
        finally:
            groundwork.warehouse.close()
    folder = Path(folder) if folder is not None else None
    if folder is None and step == "init":
        return 2, [f"catalog {step} needs a folder."]
    if step == "init":
        assert folder is not None
        return 0, commands.init(settings, folder)
    if step == "refresh":
        return 0, commands.refresh(settings, folder)
    problems, summary = commands.check(settings, folder)
    what = folder or "The semantic model"
    return (1, problems + [summary][: bool(summary)]) if problems else (0, [f"{what} agrees with the warehouse: {summary}"])


def taught_in_words(text: str) -> tuple[str, str] | None:
    """(word, meaning) of "when I say X I mean Y" (agent/learning/phrases.yaml `teaching:`)."""
    from agent.learning.phrases import taught_in_words as read

    return read(text)


def is_save_request(text: str) -> bool:
    """"save this", "keep this" (agent/learning/phrases.yaml `save_requests:`): keep the last answer."""
    from agent.learning.phrases import SAVE_REQUESTS

    return " ".join(_word_list(text)) in SAVE_REQUESTS


def learning_command(settings: Settings, kind: str, step: str, target: str | None, workspace: str,
                     out: Path | None = None) -> tuple[int, list[str]]:
    """`vocabulary|verified list|show|forget|export` for a terminal: (exit status, lines to print)."""
    from agent.learning import commands

    return commands.run(settings, kind, step, target, workspace, out)


def _final_reply(session: Session, request_id: str) -> AgentReply:
    """The reply a run ended on: its question when it paused on one, else the answer it made."""
    values = session.values
    tools = list((values.get("chat_tool_call_info") or {}).get("tool_call_name_mapping", {}).values())
    if session.pending is not None:
        ask = session.pending
        return AgentReply(
            session_id=session.id, text=ask.question, sql=ask.sql, ask_human=ask, tools=tools, request_id=request_id
        )
    data = dict(values.get("reply") or {})
    chart = _chart(data.pop("chart_spec", None), data.get("rows") or [])
    data.setdefault("tools", tools)
    return AgentReply(session_id=session.id, chart=chart, request_id=request_id, **data)


def _chart(spec: dict[str, Any] | None, rows: list[list[Any]]) -> Chart | None:
    """The chart to draw for a result, if any (its PNG comes later)."""
    if not spec or spec.get("kind") == "none" or not rows:
        return None
    return Chart(spec=ChartSpec.model_validate(spec))


def _resume(answer: dict[str, Any]) -> Any:
    """The graph input that resumes a paused run with the person's answer."""
    from langgraph.types import Command

    return Command(resume=answer)


REASK: dict[str, Any] = {"reask": True}
SHORT_REPLY_WORDS = 3
CHOICE_REPLY_WORDS = 5  # "use the movies table, please": longer, it is a message of its own  # a bare "yes"/"no" this short answers the pending question, never a new request


def _reask(session_id: str, pending: AskHuman, context: ChatContext) -> AgentReply:
    choices = ", ".join(f"“{o.label}”" for o in pending.options)
    return AgentReply(
        session_id=session_id,
        text=f"{pending.question} Please choose one of: {choices}.",
        ask_human=pending,
        request_id=context.request_id,
    )


def _duration(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{int(seconds)} seconds"


_WORD = re.compile(r"[\w'’-]+")


def _word_list(text: str) -> list[str]:
    """The words of a reply or a label in lower case, an apostrophe inside a name dropped ("o'hare" is Ohare)."""
    return [re.sub(r"['’]", "", w) for w in _WORD.findall(text.lower())]


def _words(text: str) -> str:
    return " " + " ".join(_word_list(text)) + " "


def _names_option(text: str, option: HumanOption) -> bool:
    said = _words(text)
    return any(_words(name) in said for name in (option.label, option.value) if name and name.strip())


def interpret_reply(
    text: str, pending: AskHuman, option_words: dict[str, list[str]] | None = None,
    option_cues: dict[str, list[str]] | None = None,
) -> dict[str, Any] | None:
    """Read a thread reply as the answer to a pending question, or None when it is a new request.

    A clarification with options takes only an option (or words that name one, `option_words` giving
    each option's other names); a short reply that names none ("run", "ok") gets the question again
    (`REASK`) instead of being taken as an answer."""
    if restarted(text):  # 'scrap that. how many aircraft …': a question of its own, never an answer
        return None
    if pending.kind == "confirm_sql":
        sql, _, _ = split_sql(text)
        if sql:
            return {"choice": "edit", "sql": sql}
        if AFFIRMATIVE.match(text):
            return {"choice": "run"}
        if NEGATIVE.match(text):
            return {"choice": "cancel"}
        return None
    if pending.kind == "choose_table":
        # "movies", "use the movies table": an answer; a sentence that has a table's name in it
        # ("only movies released after 2000") is a new message, which supersedes the question
        named = [o for o in pending.options if _names_option(text, o)]
        if len(named) == 1 and len(text.split()) <= CHOICE_REPLY_WORDS:
            return {"choice": named[0].value}
        return None
    if text.strip() in pending.readings:  # one of the nearest readings offered with it: a question of its own
        return None
    if not pending.options:
        return {"choice": text}
    named = [o for o in pending.options if _names_option(text, o)]
    if not named and option_words:
        named = _paraphrased(text, pending.options, option_words, option_cues or {})
    named = named or _named_by_their_own_words(text, pending.options)
    if says_every_option(text) and len(named) != 1:
        # 'reagan + dulles, both', 'both pls': every option named, or every option offered
        chosen = named or [o for o in pending.options if o.value != NAMES_THE_DATA]
        if len(chosen) > 1:  # what else the answer says goes with it ('both, split by airport')
            return {"choice": " ".join([" and ".join(o.value for o in chosen), *_said_besides(text, chosen)])}
    if len(named) == 1:
        return {"choice": named[0].value}
    short = len(text.split()) <= SHORT_REPLY_WORDS
    if short and not named and NEGATIVE.match(text):
        return {"choice": "cancel"}
    # Only a bare yes ("run", "ok") or a reply naming several options is asked again; anything else is
    # a new message, which supersedes the question.
    return REASK if named or (short and AFFIRMATIVE.match(text)) else None


def _said_besides(text: str, options: list[HumanOption]) -> list[str]:
    """The words of a typed answer past the options it names and the words meaning every one ('split by
    airport' of 'both pls, split by airport'), when they are more than reply words."""
    rest = without_every_option(re.sub(r"[+,;:]", " ", text))
    option_words = {w for o in options for w in _word_list(o.label)}
    words = [w for w in _word_list(rest) if w not in option_words]
    return words if [w for w in words if w not in reply_words()] else []


def _named_by_their_own_words(text: str, options: list[HumanOption]) -> list[HumanOption]:
    """Options named by a word only their label has ('reagan' for Ronald Reagan Washington Natl, 'dulles' for
    Washington Dulles Intl); a word several labels share names none."""
    said = set(_word_list(text)) - reply_words()
    words = {o.value: set(_word_list(o.label)) for o in options}
    return [o for o in options if any(w in said and sum(w in other for other in words.values()) == 1
                                      for w in words[o.value] if len(w) > 2)]


def _paraphrased(text: str, options: list[HumanOption], option_words: dict[str, list[str]],
                 option_cues: dict[str, list[str]]) -> list[HumanOption]:
    """Options named by one of their other words; a word two options share tells nothing."""
    said = _words(text)
    counts: dict[str, int] = {}
    for names in option_words.values():
        for name in {_words(n) for n in names}:
            counts[name] = counts.get(name, 0) + 1
    named = [o for o in options if any(counts[_words(n)] == 1 and _words(n) in said
                                       for n in option_words.get(o.value, []))]
    return named or _named_by_a_word(text, options, {v: [*n, *option_cues.get(v, [])] for v, n in option_words.items()})


def _named_by_a_word(text: str, options: list[HumanOption], option_words: dict[str, list[str]]) -> list[HumanOption]:
    """'departures' for 'departure airport', 'where they depart from', 'the ones they land at': a reply whose
    words, in any form, are each a word of one option's names or cues only, of several ('at'), or say nothing,
    names that option when the words of one option only all point at it."""
    from agent.text.words import stem as word_stem

    def stem(word: str) -> str:  # 'depart', 'departing', 'departures' are one word here
        return word_stem(word[:-1] if word.endswith("s") and len(word) > 3 else word)

    owners: dict[str, set[str]] = {}
    for value, names in option_words.items():
        for word in {stem(w) for n in names for w in _word_list(n)}:
            owners.setdefault(word, set()).add(value)
    said = [stem(w) for w in _word_list(text) if w not in reply_words()]
    if any(w not in owners for w in said):  # a word of no option: the reply is something else
        return []
    chosen = {next(iter(owners[w])) for w in said if len(owners[w]) == 1}
    return [o for o in options if o.value in chosen] if len(chosen) == 1 else []


def _close_dangling_calls(messages: list[AnyMessage]) -> list[ToolMessage]:
    """Answer tool calls a stopped run left open, so the history stays valid for an LLM."""
    from langchain_core.messages import AIMessage, ToolMessage

    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    dangling = [
        call for m in messages if isinstance(m, AIMessage) for call in m.tool_calls if call["id"] not in answered
    ]
    return [
        ToolMessage(content='{"error": "This step was interrupted."}', tool_call_id=c["id"], name=c["name"])
        for c in dangling
    ]
