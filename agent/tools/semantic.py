"""The semantic path's front door: a question becomes a `SemanticParse`, then SQL by the compiler.

An LLM fills `SemanticParse` with structured output; the offline model fills it from the
deterministic extractor. Either way the names are checked against the model and the values
against the warehouse before anything is compiled, so neither can invent a column or a value.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from agent.tools import steps
from agent.context import AgentContext
from agent.learning.asking import ask_back
from agent.marks import ASKING_FOR_SQL, FOLLOW_UP_MARK
from agent.semantic.compile.compiler import CompiledQuery, IntentError, compile_intent
from agent.semantic.nlq.edit_request import IntentEdit
from agent.semantic.nlq.extract import Extraction
from agent.semantic.nlq.read_compile import latest_wins
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.dates import with_latest_dates
from agent.tools.state import ToolCallInfo

T = TypeVar("T")


class SemanticParse(BaseModel):
    """What the question asks for, in the semantic model's names, or why it cannot be said so."""

    intent: StructuredIntent | None = Field(
        default=None, description="Metrics, dimensions, filters, time, order and limit, using only the model's names"
    )
    edit: IntentEdit | None = Field(
        default=None, description="For a message that changes the thread's previous reading: the changes, instead of intent"
    )
    not_in_warehouse: str | None = Field(
        default=None, description="Set when the question asks for data the warehouse does not have: what is missing"
    )
    cannot_express: str | None = Field(
        default=None, description="Set when the data exists but the model's names cannot express the question"
    )
    unknown_values: list[str] = Field(default_factory=list, description="Values the person named that the data lacks")
    clarify_question: str | None = Field(default=None, description="Ask this when the question is ambiguous")
    clarify_term: str | None = Field(default=None, description="The ambiguous words, exactly as in the question")
    clarify_options: list[str] = Field(default_factory=list, description="Meanings that can replace clarify_term")
    clarify_keeps_term: bool = Field(
        default=False, description="True when clarify_term is a value and each option names a column it is a value of"
    )
    unused_words: list[str] = Field(default_factory=list, description="Words of the question the intent does not use")


async def aoffline_parse(ctx: AgentContext, question: str) -> SemanticParse:
    """The deterministic extractor's parse of `question`, as `read_question` made it."""
    return _as_parse(ctx, await read_question(ctx, question))


async def message_reading(ctx: AgentContext, reading: SemanticParse | None, user_question: str,
                          question: str) -> SemanticParse:
    """The router's reading of the turn, else the offline reader's of `question`. The offline router reads the
    thread's whole text: a topic only an earlier message lacked ('ticket prices', declined then) refuses
    nothing now, so such a reading is read again from this message alone."""
    if reading is None:
        return await aoffline_parse(ctx, question)
    if reading.not_in_warehouse and FOLLOW_UP_MARK in user_question and not ctx.has_llm:
        return await aoffline_parse(ctx, question.split(FOLLOW_UP_MARK)[-1])
    return reading


async def read_question(ctx: AgentContext, question: str) -> list[Extraction]:
    """The reader's reading of the whole question and, for a follow-up, of its latest message: made
    once per turn (the router's check, discovery and the SQL share it), in a CPU worker under its
    budget; the model and values go by a shared file (written once per view)."""
    question = ASKING_FOR_SQL.sub(" ", question)
    whole = question.replace(FOLLOW_UP_MARK, " ")
    latest = question.split(FOLLOW_UP_MARK)[-1]
    questions = [whole] if latest == question else [whole, latest]

    async def read() -> list[Extraction]:
        dialect = sql_dialect(ctx)
        extractions, ready, as_stepped = await read_in_worker(ctx, steps.read_and_compile, questions, dialect)
        for intent_json, query in ready:  # compiled in the worker: discovery and the SQL find them kept
            _keep(_COMPILED, (ctx.semantic,), intent_json, dialect, query)
        if as_stepped is not None:  # dated and compiled in the worker: `compile_checked` finds it kept
            _keep(_STEPPED, (ctx.semantic, ctx.values), as_stepped[0], dialect, as_stepped[1])
        return extractions

    return await read_once(ctx, (steps.read_and_compile.__name__, tuple(questions)), read)


async def read_once(ctx: AgentContext, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
    """`read()`'s result for `key` in this run (`AgentContext.readings`), made on first ask: what the reader
    made of this turn's messages, by what it was given, is passed on (the router's check, discovery, the
    SQL), never read again. Callers treat a reading as read-only. A failed read is not kept (the next ask
    reads)."""
    made: dict[Hashable, asyncio.Task[T]] = ctx.readings
    task = made.get(key)
    if task is None:
        task = made[key] = asyncio.ensure_future(read())
    try:
        return await asyncio.shield(task)
    except BaseException:
        if task.done() and (task.cancelled() or task.exception() is not None):
            made.pop(key, None)
        raise


async def read_in_worker(ctx: AgentContext, step: Callable[..., T], *args: Any) -> T:
    """A reader's step in a CPU worker under its budget, handed the run's model and values first (by a
    shared file, written once per view); their latest dates are read here, as the worker has no warehouse."""
    await asyncio.to_thread(ctx.values.read_all_latest, ctx.semantic)
    return await ctx.cpu.run_sharing(steps.READING_QUESTION, step, (ctx.semantic, ctx.values), *args)


def _as_what(ctx: AgentContext, dimension: str | None) -> str:
    """' as an origin airport (the data has EWR, JFK, LGA)': the role the question gave the value, and the few
    values that role holds."""
    dim = ctx.semantic.dimension_by_name.get(dimension or "")
    if dim is None:
        return ""
    held = ctx.values.values.get(dim.name, [])
    return f" as {dim.label}" + (f" (the data has {', '.join(map(str, held))})" if 0 < len(held) <= 10 else "")


def _as_parse(ctx: AgentContext, extractions: list[Extraction]) -> SemanticParse:
    extraction = extractions[0]  # the turn's shared reading: read here, never changed
    intent = extraction.intent
    if len(extractions) > 1 and intent is not None:
        intent = latest_wins(intent, extractions[1].intent)
    unknown = [f"'{u.text}'" + _as_what(ctx, u.dimension)
               + (f" (closest: {', '.join(u.suggestions)})" if u.suggestions else "")
               for u in extraction.unknown_values]
    ambiguity = extraction.ambiguous[0] if extraction.ambiguous else None
    asked_back = None
    if ambiguity is None and extraction.intent is None and not (extraction.unsupported or unknown):
        ambiguity = asked_back = ask_back(extraction.reason, extraction.ignored_words, ctx.semantic)  # a team's own word
    labels = ctx.semantic.dimension_by_name
    options = [labels[o].label if o in labels else o for o in ambiguity.options] if ambiguity else []
    clarify = f"What do you mean by “{ambiguity.text}”?" if ambiguity else None
    if ambiguity is not None and ambiguity.of_value:  # one button per column the value is found in
        clarify = f"Which “{ambiguity.text}” do you mean: {' or '.join(options)}?"
    if ambiguity is not None and ambiguity.namesakes:  # one button per thing of that name
        clarify = f"“{ambiguity.text}” could be more than one. Which do you mean: {', '.join(options[:-1])} or {options[-1]}?"
    if asked_back is not None and extraction.reason:  # what was read without the word stays said
        clarify = f"{extraction.reason} {clarify}"
    return SemanticParse(
        intent=intent.model_copy(deep=True) if intent is not None else None,  # the caller's to change
        not_in_warehouse=extraction.unsupported,
        cannot_express=None if extraction.intent or extraction.unsupported else extraction.reason,
        unknown_values=unknown,
        clarify_question=clarify,
        clarify_term=ambiguity.text if ambiguity else None,
        clarify_options=options,
        clarify_keeps_term=ambiguity is not None and ambiguity.of_value,
        unused_words=extraction.ignored_words if extraction.intent is not None else [],
    )


def router_reading(calls: ToolCallInfo, discovery_call_id: str | None, question: str) -> SemanticParse | None:
    """The reading an LLM router gave with its data_discovery call (it reads the question in the same call
    that picks the tool, so nothing reads it a second time), when that call was about this very question."""
    args = calls["tool_call_input_mapping"].get(discovery_call_id or "") or {}
    if not args.get("reading") or args.get("user_question") != question:
        return None
    return SemanticParse.model_validate(args["reading"])


def lacking_data(ctx: AgentContext, reason: str) -> str:
    """What is said when the warehouse has no data of the kind asked for (ticket prices), and what it has."""
    return f"I don't have that data ({reason.rstrip('.')}). What I have: {ctx.catalog.summary}"


async def semantic_tables(ctx: AgentContext, question: str) -> list[str]:
    """Tables the semantic model would read for this question; [] when it cannot tell. A reading that asks
    back over some words still names its table ('how many clients … in texas': customers), so the question
    goes on to be asked about there rather than be taken for one about no data."""
    parse = await aoffline_parse(ctx, question)
    if parse.intent is None:
        return list((await read_question(ctx, question))[0].understood_tables)
    if parse.unknown_values:
        return []
    try:
        return list(compiled(ctx.semantic, parse.intent, sql_dialect(ctx)).tables)
    except IntentError as exc:
        if exc.problems:  # a reading that does not fit the model names no tables
            return []
        raise


# A compile kept by what it was made from: the model (the reading's dates also by the values), the intent's
# JSON and the dialect. The model and values are kept with it, so their ids are their own.
_Kept = OrderedDict[tuple[object, ...], tuple[tuple[object, ...], CompiledQuery]]
# Compiled queries kept: discovery compiles a question's reading for its tables and generate_sql
# compiles the same reading for its SQL; each compile validates every definition (~10 ms).
MAX_COMPILED = 128
_COMPILED: _Kept = OrderedDict()
# The same, by the reading as `compile_checked` is handed it (before its relative period is dated): what the
# reading's worker dated (by the values it was handed) and compiled, so the step does not date it again.
_STEPPED: _Kept = OrderedDict()


def compiled(model: SemanticModel, intent: StructuredIntent, dialect: str = "duckdb") -> CompiledQuery:
    """`compile_intent`, answered from the last MAX_COMPILED compiles of the same model, reading and
    dialect (a compiled query is never changed by its users: plain strings and a list they copy),
    those the question's reading compiled in its worker included (`read_question`)."""
    intent_json = intent.model_dump_json()
    known = _kept(_COMPILED, (model,), intent_json, dialect)
    if known is not None:
        return known
    query = compile_intent(intent, model, dialect)
    _keep(_COMPILED, (model,), intent_json, dialect, query)
    return query


def _kept(cache: _Kept, made_from: tuple[object, ...], intent_json: str, dialect: str) -> CompiledQuery | None:
    key = (*map(id, made_from), intent_json, dialect)
    known = cache.get(key)
    if known is None or any(a is not b for a, b in zip(known[0], made_from)):
        return None
    cache.move_to_end(key)
    return known[1]


def _keep(cache: _Kept, made_from: tuple[object, ...], intent_json: str, dialect: str, query: CompiledQuery) -> None:
    key = (*map(id, made_from), intent_json, dialect)
    cache[key] = (made_from, query)
    cache.move_to_end(key)
    if len(cache) > MAX_COMPILED:
        cache.popitem(last=False)


def sql_dialect(ctx: AgentContext) -> str:
    """The warehouse's dialect: what the SQL is compiled in (the model's expressions are written in it)."""
    return getattr(ctx.warehouse, "dialect", "duckdb")


def compile_checked(ctx: AgentContext, intent: StructuredIntent) -> tuple[CompiledQuery | None, list[str]]:
    dialect = sql_dialect(ctx)
    stepped = _kept(_STEPPED, (ctx.semantic, ctx.values), intent.model_dump_json(), dialect)
    if stepped is not None:  # the question's reading, dated and compiled in its worker (`read_question`)
        return stepped, []
    intent, undated = with_latest_dates(intent, ctx.semantic, ctx.values)  # 'last month' from an LLM
    if undated:
        return None, [undated]
    try:  # compiling validates the intent first; a reading compiled before is valid, and not checked again
        return compiled(ctx.semantic, intent, dialect), []
    except IntentError as exc:
        return None, exc.problems or [str(exc)]


def semantic_prompt(ctx: AgentContext) -> str:
    """The LLM's view of the model: names only, so whatever it answers can be checked."""
    metrics = "; ".join(f"{m.name} ({m.label})" for m in ctx.semantic.metrics)
    dimensions = "; ".join(f"{d.name} ({d.label}{', ' + d.unit if d.unit else ''})" for d in ctx.semantic.dimensions)
    return (
        "Turn the question into a StructuredIntent using ONLY these names.\n"
        f"Metrics: {metrics}\nDimensions: {dimensions}\n"
        "Row conditions go in filters (values as stored, numbers in the dimension's unit) and time; conditions "
        "on totals or averages ('more than 20,000 flights') go in having. 'Month over month' or 'compared with "
        "the month before' set compare. Two sides set against each other (a ratio, a difference, a % change, "
        "a share) go in contrast, with the metric and each side's conditions, the later period first for a "
        "change. 'How many X had ...' with a having sets count_groups. 'Last month', 'the past 3 weeks', "
        "'this year' go in time.relative (the words, the grain, the count) with no dates: they count back from "
        "the data's latest date, not today's. 'Top 3 X for each Y' sets limit 3 and limit_per Y. Put nothing "
        "in the intent that the "
        "question did not say.\n"
        "If the warehouse lacks the data, set not_in_warehouse; if the names cannot express it, set "
        "cannot_express; if it is ambiguous, set clarify_question and clarify_options."
    )
