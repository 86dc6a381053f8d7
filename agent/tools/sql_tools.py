"""The SQL tools: write (`generate_sql`), repair (`fix_sql`), explain (`explain_sql`) and run
(`execute_sql_and_analyze_result`). Each is a thin typed shell over an engine module."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import Annotated, Any, TypeVar

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from agent.tools.run import ToolRun
from pydantic import BaseModel, Field

from agent.chatbi.analyze import analyze
from agent.charts.roles import Role, Row
from agent.charts.spec import ChartSpec
from agent.chatbi.facts import Scope
from agent.chatbi.meaning import ColumnMeaning, describe_columns
from agent.chatbi.write_up import Shape, WriteUp
from agent.sql.checked import SqlInput
from agent.tools.state import calls_of
from agent.errors import AssistantError, SqlError, UnsafeSqlError
from agent.context import AgentContext
from agent.policy import check_readable
from agent.tools import steps
from agent.budget.inputs import check_sql as check_sql_text
from agent.sql.dialect import DEFAULT_DIALECT
from agent.sql.fix import FixResult
from agent.sql.parse import clean_sql_text, pretty
from agent.text2sql import draft_sql
from agent.text2sql.placeholders import fill_placeholders
from agent.text2sql.steps import structured
from agent.tools.spec import EXECUTE, EXECUTE_GOAL, AgentName, DirectRequest, FinalIntent, ToolName, ToolSpec
from agent.tools.checking import checked_sql
from agent.tools.results import latest_output, linked_output, tool_error, tool_result
from agent.learning.phrases import NAMES_THE_DATA
from agent.learning.verified import prompt_examples as verified_examples
from agent.learning.verified import usable as usable_verified
from agent.semantic.compile.definitions import Definition, with_definitions
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.compile.reading import describe
from agent.semantic.nlq.why import explain_reading
from agent.semantic.model.runtime import SemanticModel
from agent.marks import FOLLOW_UP_MARK
from agent.tools.nearest import nearest_readings
from agent.tools.semantic import (
    SemanticParse,
    compile_checked,
    lacking_data,
    message_reading,
    router_reading,
    semantic_prompt,
)
from agent.semantic.nlq.answer_keys import answer_keys
from agent.tools.thread import read_in_thread

log = logging.getLogger(__name__)

REPLY_ROWS_MAX = 1000
NEAREST = " The nearest questions I can answer are below."
LLM_REPAIR_TRIES = 2
PROBE_ROWS = 100  # the fix's look at the data reads counts, never more than a few rows


def check_sql(ctx: AgentContext, sql: str) -> None:
    """Refuse SQL too long or too deeply nested to parse, before anything parses it."""
    check_sql_text(sql, max_chars=ctx.settings.max_sql_chars, max_depth=ctx.settings.max_sql_depth)


def _person(runtime: ToolRun) -> str | None:
    return (runtime.state.get("chat_context") or {}).get("user")


def _channel(runtime: ToolRun) -> str | None:
    return (runtime.state.get("chat_context") or {}).get("channel")


Answer = TypeVar("Answer", bound=BaseModel)


async def _structured(ctx: AgentContext, schema: type[Answer], prompt: LanguageModelInput) -> Answer:
    """The model's answer as `schema`."""
    return await structured(ctx.model, schema, prompt)


# -- generate_sql --------------------------------------------------------------------------


def reading_guide(ctx: AgentContext, question: str) -> str:
    """How an LLM reads `question` into a SemanticParse: the model's names, and the team's verified
    readings nearest it. The semantic step's prompt, and the router's when it reads the question itself."""
    return semantic_prompt(ctx) + verified_examples(ctx, question, compile_checked)


@tool
async def generate_sql(
    user_question: Annotated[str, "The data question, rewritten to stand on its own."],
    runtime: ToolRun,
    related_table_source_tool_call_id: Annotated[
        str | None, "The tool_call_id of the data_discovery call whose tables to use."
    ] = None,
    clarification: Annotated[str | None, "The person's answer to a clarifying question, if any."] = None,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = EXECUTE_GOAL,
) -> str:
    """Write a DuckDB SQL query that answers a data question, from the tables data_discovery found."""
    ctx: AgentContext = runtime.context
    calls = calls_of(runtime.state)  # the session's ledger, read once for every look-up below
    waiting = latest_output(calls, ("generate_sql",))
    if clarification and waiting and waiting[1].get("draft_sql"):
        return await _fill_next_placeholder(ctx, final_intent, waiting[1], clarification)
    asked = waiting[1] if waiting else {}
    term = asked.get("clarify_term")
    in_reply = FOLLOW_UP_MARK in user_question and term and re.search(
        rf"\b{re.escape(term)}\b", user_question.split(FOLLOW_UP_MARK)[-1], re.I)
    if clarification and (asked.get("clarify_keeps_term") or in_reply):
        # the column of a value was named ('only origin airport LGA'), or a follow-up's word was said in other
        # words ('the regional carriers': 'envoy, expressjet and endeavor'): the message says it now and is
        # read like any message of the thread, as an edit of the last reading when it is one
        *earlier, latest = user_question.split(FOLLOW_UP_MARK)
        user_question = FOLLOW_UP_MARK.join([*earlier, _clarified(latest, clarification, term,
                                                                  bool(asked.get("clarify_keeps_term")))])
        clarification = None
    thread = await read_in_thread(ctx, calls, user_question, clarification)
    if thread.refusal:
        return tool_result(final_intent, done=True, text=thread.refusal)
    question = _clarified(thread.question, clarification, asked.get("clarify_term"))
    discovery = linked_output(calls, related_table_source_tool_call_id, ("data_discovery",))
    tables = (discovery[1].get("selected_tables") if discovery else None) or runtime.state.get("selected_tables") or None

    verified = None if thread.intent is not None or clarification else usable_verified(ctx, question, compile_checked)
    # a clarified question is read anew: the router's reading is of the words before the answer
    given = None if clarification or discovery is None else router_reading(calls, discovery[0], user_question)
    if verified is not None:  # asked the way a verified query was: its reading, values put in
        parse = SemanticParse(intent=verified[1])
    elif thread.intent is not None:  # an edit of the thread's last reading
        parse = SemanticParse(intent=thread.intent, unused_words=thread.unread)
    elif given is not None:  # read by the router's call already
        parse = await message_reading(ctx, given, user_question, question)
    else:
        # The offline model reads the question alone: the reading guide (the model's names, the team's
        # verified readings) is an LLM's, as the router's is (agent/supervisor/graph.py).
        guide = [SystemMessage(content=reading_guide(ctx, question))] if ctx.has_llm else []
        parse = await _structured(ctx, SemanticParse, [*guide, HumanMessage(content=thread.llm_message or question)])
        parse = await message_reading(ctx, parse, user_question, question)

    if parse.edit is not None:  # an LLM's edit of the thread's last reading, by the same edit operations
        await asyncio.to_thread(ctx.values.read_all_latest, ctx.semantic)  # the span of dates a year must fall in
        parse.intent = thread.edited_by_llm(parse.edit, ctx.semantic, ctx.values) or parse.intent
        if thread.refusal:
            return tool_result(final_intent, done=True, text=thread.refusal)
    if parse.not_in_warehouse:
        return tool_result(final_intent, done=True, declined=True, text=lacking_data(ctx, parse.not_in_warehouse))
    if parse.unknown_values:
        names = ", ".join(parse.unknown_values)
        readings = await nearest_readings(ctx, question)
        return tool_result(
            final_intent,
            done=True,
            declined=True,  # the data lacks it: the thread's things stay what they were
            text=f"I couldn't find {names} in the data, so I did not guess. Check the spelling or the code."
            + (NEAREST if readings else ""),
            follow_ups=readings,
        )
    if parse.clarify_question and not clarification:
        options = [{"label": o, "value": o} for o in parse.clarify_options]
        question_for_person: dict[str, object] = {"kind": "clarify", "question": parse.clarify_question,
                                                  "options": options}
        if not parse.clarify_keeps_term:  # a word to learn; a value is not one ('LGA' is no origin airport)
            question_for_person["term"] = parse.clarify_term
            question_for_person["readings"] = await nearest_readings(ctx, question)
        return tool_result(final_intent, ask_human=question_for_person, clarify_term=parse.clarify_term,
                           clarify_keeps_term=parse.clarify_keeps_term)

    if thread.repeats is not None and parse.intent == thread.repeats:
        latest = user_question.split(FOLLOW_UP_MARK)[-1].strip()
        return tool_result(final_intent, done=True,
                           text=f"I could not tell what “{latest}” changes in the last answer, so I did not give it "
                                f"again as if it did. It was: {describe(thread.repeats, ctx.semantic).rstrip('.')}. Say what to "
                                "change, for example 'by carrier' or 'only JFK'.")
    problems: list[str] = []
    if parse.intent is not None:
        compiled, problems = compile_checked(ctx, parse.intent)
        if compiled is not None:
            try:
                await ctx.warehouse.adry_run(compiled.sql)
            except SqlError as exc:
                log.warning("compiled SQL failed its dry run: %s", exc.detail or exc)
                problems = [*problems, "The SQL I wrote for it did not run on the warehouse (a fault on my side, logged)"]
            else:
                reason = thread.changed_line() + compiled.reason
                if verified is not None:
                    reason = f"{verified[0].line()} {reason}"
                if parse.unused_words:  # said, so a reading that skipped a word is visible
                    reason += " Words not used: " + ", ".join(f"“{w}”" for w in parse.unused_words) + "."
                return tool_result(
                    final_intent,
                    sql=compiled.sql,
                    reason=reason,
                    tables=list(compiled.tables),
                    intent=parse.intent.model_dump(),
                    path="semantic",
                    chart=thread.chart,
                    text=f"Here is the SQL. Read as: {reason}",
                    # the words read, the answer to a clarifying question in place: what a follow-up edits
                    **({"clarified_question": question} if clarification else {}),
                )
        else:
            log.info("semantic intent rejected: %s", problems)

    if not ctx.has_llm:
        reasons = [parse.cannot_express] if parse.cannot_express else problems
        why = "".join(f"{r.rstrip('.')}. " for r in reasons)
        readings = await nearest_readings(ctx, question)
        text = f"I couldn't answer that as asked. {why}{_what_to_try(ctx)}" + (NEAREST if readings else "")
        return tool_result(final_intent, done=True, text=text, follow_ups=readings)

    draft = await draft_sql(
        question, model=ctx.model, warehouse=ctx.warehouse, catalog=ctx.catalog, tables=tables,
        dialect=ctx.warehouse.dialect,
    )
    if not draft.sql or (not draft.valid and not draft.placeholders):
        return tool_error(final_intent, draft.error or "I could not write a query that runs for that question.")
    if draft.placeholders:
        return _ask_placeholder(final_intent, draft.sql, [p.model_dump() for p in draft.placeholders], draft.reason)
    return tool_result(
        final_intent, sql=draft.sql, reason=draft.reason, tables=draft.tables, path="free",
        text=f"Here is the SQL. {draft.reason}",
    )


def _ask_placeholder(final_intent: str | None, sql: str, placeholders: list[dict[str, Any]], reason: str) -> str:
    """Ask for the first value the SQL still needs; the answer comes back as `clarification`."""
    first = placeholders[0]
    options = [{"label": str(o), "value": str(o)} for o in first.get("options", [])[:10]]
    question = {"kind": "clarify", "question": first["question"], "options": options}
    return tool_result(final_intent, ask_human=question, draft_sql=sql, placeholders=placeholders, reason=reason)


async def _fill_next_placeholder(ctx: AgentContext, final_intent: str | None, waiting: dict[str, Any], answer: str) -> str:
    placeholders = waiting["placeholders"]
    sql = fill_placeholders(waiting["draft_sql"], {placeholders[0]["name"]: answer.strip()})
    if len(placeholders) > 1:
        return _ask_placeholder(final_intent, sql, placeholders[1:], waiting.get("reason", ""))
    try:
        await ctx.warehouse.adry_run(sql)
    except AssistantError as exc:
        return tool_error(final_intent, exc, sql=sql)
    reason = waiting.get("reason", "")
    return tool_result(final_intent, sql=sql, reason=reason, path="free", text=f"Here is the SQL. {reason}")


def _clarified(question: str, answer: str | None, ambiguous: str | None, keeps_term: bool = False) -> str:
    """The question with the person's answer in place of the ambiguous words, or appended.
    Ambiguous words that carry a number ("more than an hour") are a condition, and a value found in
    several columns is the value asked for: the answer names what they compare, or the value's column
    ('origin airport LGA'), and they stay, so the clarification keeps every condition."""
    if not answer:
        return question
    if answer == NAMES_THE_DATA and ambiguous:  # the word only names the data: read the question without it
        return re.sub(rf"\b{re.escape(ambiguous)}\b", " ", question, count=1, flags=re.I)
    if ambiguous and re.search(rf"\b{re.escape(ambiguous)}\b", question, re.I):
        keep = keeps_term or re.search(r"\d|\b(?:an?|one)\s+\w+", ambiguous) is not None
        return re.sub(rf"\b{re.escape(ambiguous)}\b", lambda m: f"{answer} {m.group(0)}" if keep else answer,
                      question, count=1, flags=re.I)
    return f"{question} ({answer})"


def _what_to_try(ctx: AgentContext) -> str:
    """A few things the model measures and groups by, as examples of what can be asked."""
    model = ctx.semantic
    measured = [m.label.lower() for m in model.metrics if m.default or m.measure is None][:4]
    grouped = [d.label for d in model.dimensions if d.kind == "categorical" and not d.identifier][:4]
    if not measured:
        return ""
    return (f"You could ask for {', '.join(measured)}" + (f", by {', '.join(grouped)}" if grouped else "") + ".")


# -- fix_sql --------------------------------------------------------------------------------


class SqlRepair(BaseModel):
    sql: str = Field(description="The repaired query, changed as little as possible")
    explanation: str = Field(description="What was wrong and what changed, in one or two sentences")


@tool
async def fix_sql(
    sql: Annotated[str, "The broken SQL exactly as the person gave it."],
    runtime: ToolRun,
    error_info: Annotated[str, "The error message the person saw, if any."] = "",
    sql_dialect: Annotated[str, "The dialect the SQL is written in (Presto by default)."] = DEFAULT_DIALECT,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = "fix_sql",
) -> str:
    """Repair broken SQL with the smallest change that makes it run, and say what changed and why."""
    ctx: AgentContext = runtime.context
    answered = _answered_reading(runtime, sql)
    if answered is not None:  # "why?" after an answer: through the model's names, not the SQL's aliases
        return tool_result(final_intent, text=explain_reading(answered, ctx.semantic), sql=clean_sql_text(sql))
    try:
        _check_pasted(ctx, sql, sql_dialect)
        check_sql(ctx, sql)
        result = await _fix(ctx, sql, error_info or None, sql_dialect)
    except AssistantError as exc:
        return tool_error(final_intent, exc)
    if result.refused:
        return tool_error(final_intent, UnsafeSqlError(result.reason or "This statement is refused."))
    changes = [f"• {c.what}: {c.why}" for c in result.changes]
    fixed = result.fixed_sql
    if not result.valid and ctx.has_llm:
        repaired = await _llm_repair(ctx, sql, sql_dialect, result.reason or error_info)
        if repaired is not None:
            fixed, note = repaired
            changes.append(f"• {note}")
            result.valid = True
    if not result.valid:
        # No `sql` in the reply: the broken query must never look like a fix.
        reason = (result.reason or "it still fails").rstrip(".")
        return tool_error(final_intent, f"I could not fix this query: {reason}.")
    if not changes:
        text = "This query already runs as it is; I found nothing to fix." + (f" {result.reason}" if result.reason else "")
    else:
        text = "Here is the fixed query:\n" + "\n".join(changes)
    return tool_result(final_intent, sql=fixed, original_sql=sql, changes=changes, text=text)


def _check_pasted(ctx: AgentContext, sql: str, dialect: str) -> None:
    """Refuse broken SQL that reads what the person may not; SQL too broken to parse, by the names it uses."""
    try:
        check_readable(ctx, sql, dialect)
    except SqlError:
        check_readable(ctx, sql, dialect, loosely=True)


async def _fix(ctx: AgentContext, sql: str, error: str | None, dialect: str) -> FixResult:
    """The fix engine under the CPU budget. A DuckDB file is opened by the worker process itself (its
    dry runs and probes pass the person's access check there, and the probes come back for the audit
    trail); a server's need this process's connection pool, so there it runs on a warehouse slot
    (abandoned at the same budget, though not killed) through the person's scoped warehouse."""
    args = (sql, error, dialect, ctx.warehouse.schema(), ctx.warehouse.dialect)
    path = getattr(ctx.warehouse, "path", None)
    if path is not None:
        warehouse_file = steps.WarehouseFile(
            path, ctx.settings.query_memory_limit, probe_rows=PROBE_ROWS, access=getattr(ctx.warehouse, "access", None)
        )
        result, probes = await ctx.cpu.run("Fixing the SQL", steps.fix_on_file, *args, warehouse_file)
        record = getattr(ctx.warehouse, "record_elsewhere", None)
        if record is not None:
            record(probes)
        return result

    def probe(probe_sql: str) -> list[tuple[Any, ...]]:
        return ctx.warehouse.run(probe_sql, row_cap=PROBE_ROWS).rows

    return await ctx.warehouse.slots.call(
        steps.fix, *args, ctx.warehouse.dry_run, probe, budget_s=ctx.settings.cpu_step_budget_s
    )


async def _llm_repair(ctx: AgentContext, sql: str, dialect: str, error: str) -> tuple[str, str] | None:
    for _ in range(LLM_REPAIR_TRIES):
        answer = await _structured(ctx, SqlRepair,
            f"Repair this SQL (written for {dialect}) with a minimal edit so it runs on "
            f"{ctx.warehouse.engine}, keeping its meaning. Tables and columns: "
            f"{_schema_text(ctx)}\nSQL:\n{sql}\nError: {error}"
        )
        try:
            candidate = pretty(clean_sql_text(answer.sql), dialect=ctx.warehouse.dialect)
            await ctx.warehouse.adry_run(candidate)
            return candidate, answer.explanation
        except AssistantError as exc:
            sql, error = answer.sql, exc.user_message
    return None


def _schema_text(ctx: AgentContext) -> str:
    return "; ".join(
        f"{table}({', '.join(c.name for c in columns)})" for table, columns in ctx.warehouse.schema().tables.items()
    )


# -- explain_sql --------------------------------------------------------------------------------


class ExplainNarrative(BaseModel):
    text: str = Field(description="A short plain-English explanation for a non-expert, using only the facts given")


@tool
async def explain_sql(
    sql: Annotated[str, "The SQL to explain, as the person gave it."],
    runtime: ToolRun,
    sql_dialect: Annotated[str, "The dialect the SQL is written in (Presto by default)."] = DEFAULT_DIALECT,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = "explain_sql",
    reading: Annotated[
        str | None, "When explaining an earlier answer (\"why?\"): how its question was read."
    ] = None,
) -> str:
    """Explain what a SQL query reads, filters, joins, groups and returns, in the person's terms.
    After an answer, "why?" or "how did you get that?" is explained with the SQL of that answer."""
    ctx: AgentContext = runtime.context
    answered = _answered_reading(runtime, sql)
    if answered is not None:  # "why?" after an answer: through the model's names, not the SQL's aliases
        return tool_result(final_intent, text=explain_reading(answered, ctx.semantic), sql=clean_sql_text(sql))
    if reading is not None:  # an earlier answer's SQL: what ran, in the warehouse's own dialect
        sql_dialect = ctx.warehouse.dialect
    try:
        _check_pasted(ctx, sql, sql_dialect)
        check_sql(ctx, sql)
        explanation = await ctx.cpu.run(
            "Explaining the SQL", steps.explain, sql, sql_dialect, _column_descriptions(ctx)
        )
    except AssistantError as exc:
        return tool_error(final_intent, exc)
    text = explanation.text
    if ctx.has_llm:
        facts = explanation.model_dump_json(exclude={"text"})
        narrative = await _structured(ctx, ExplainNarrative,
            f"Explain this query to a colleague who does not read SQL. Facts: {facts}\nDraft: {text}"
        )
        text = narrative.text or text
    if reading:
        text = f"I read your question as: {reading.rstrip('.')}.\n\n{text}"
    return tool_result(final_intent, text=text, sql=clean_sql_text(sql), tables=explanation.tables)


def _answered_reading(runtime: ToolRun, sql: str) -> StructuredIntent | None:
    """The reading behind `sql` when it is the SQL of this thread's last semantic answer."""
    written = latest_output(calls_of(runtime.state), ("generate_sql",), with_key="intent")
    if written is None or " ".join(str(written[1].get("sql")).split()) != " ".join(sql.split()):
        return None
    return StructuredIntent.model_validate(written[1]["intent"])


def _column_descriptions(ctx: AgentContext) -> dict[str, str]:
    return {
        f"{table}.{column.name}": column.description
        for table in ctx.catalog.table_names
        for column in ctx.catalog.describe_table(table).columns
    }


# -- execute_sql_and_analyze_result -------------------------------------------------------------


@tool
async def execute_sql_and_analyze_result(
    user_question: Annotated[str, "The question the result should answer."],
    runtime: ToolRun,
    sql: Annotated[str | None, "The SQL to run, when the person gave it directly."] = None,
    related_sql_source_tool_call_id: Annotated[
        str | None, "The tool_call_id of the generate_sql or fix_sql call whose SQL to run."
    ] = None,
    sql_dialect: Annotated[str | None, "The dialect of `sql` when given directly (the warehouse's by default)."] = None,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = EXECUTE_GOAL,
) -> str:
    """Run a read-only SQL query and answer the question: key numbers, insights, a chart and follow-ups."""
    ctx: AgentContext = runtime.context
    calls = calls_of(runtime.state)
    source = linked_output(calls, related_sql_source_tool_call_id, ("generate_sql", "fix_sql"))
    if source is None and not sql:
        source = latest_output(calls, ("generate_sql", "fix_sql"), with_key="sql")
    try:
        if sql:
            check_sql(ctx, sql)
            dialect = ctx.warehouse.dialect
            query = await ctx.cpu.run(
                "Reading the SQL", steps.translate, clean_sql_text(sql), sql_dialect or dialect, dialect
            )
        elif source:
            query = source[1]["sql"]
        else:
            return tool_error(final_intent, "There is no SQL to run yet. Ask a data question or paste a query.")
        # Read once: by the warehouse when it wrote or checked this text, else bounded in a worker.
        checked = await checked_sql(ctx, query)
        result = await ctx.warehouse.arun(checked, owner=_person(runtime), channel=_channel(runtime))
    except AssistantError as exc:
        return tool_error(final_intent, exc, sql=sql or (source[1].get("sql") if source else None))
    intent = source[1].get("intent") if source else None
    semantic = _semantic_for(ctx, intent)
    meanings = describe_columns(
        checked, result.columns, semantic=semantic, catalog=ctx.catalog, labels=ctx.values.labels
    )
    # the reading the SQL was written from, read once for the analysis and the answer's keys
    read_as = StructuredIntent.model_validate(intent) if intent else None
    analysis = await analyze(
        user_question, result, model=ctx.model if ctx.has_llm else None, intent=read_as,
        sql=checked, meanings=meanings, warehouse=ctx.warehouse, reading=_reading(semantic, intent),
        steps=AnalysisInWorkers(ctx, semantic),
    )
    text = analysis.answer
    reading = source[1].get("reason") if source and source[1].get("path") == "semantic" else None
    if reading:  # how the question was read, so a misreading shows before the number is trusted
        text = f"Read as: {reading}\n{text}"
    if analysis.insights:
        text += "\n" + "\n".join(f"• {line}" for line in analysis.insights)
    rows, count = [list(r) for r in result.rows], result.row_count
    return tool_result(
        final_intent,
        sql=query,
        columns=result.columns,
        rows=rows[:REPLY_ROWS_MAX],
        row_count=count,
        keys=answer_keys(read_as, list(result.columns), rows, count, semantic),
        chart_spec=_asked_chart(analysis.chart, source[1].get("chart") if source else None),
        column_formats=analysis.column_formats,
        follow_ups=analysis.follow_ups,
        text=text,
    )


class AnalysisInWorkers:
    """The analysis's CPU steps on the agent's CPU workers, like every other CPU step: the facts, the
    sentences, the chart and the follow-ups (each compiled to be checked) of a result, off the event loop;
    one trip to a worker for most results, two when the whole total of a cut result is queried between."""

    def __init__(self, ctx: AgentContext, semantic: SemanticModel) -> None:
        self.ctx, self.semantic = ctx, semantic

    async def first(
        self, question: str, columns: list[str], types: list[str], rows: Sequence[Row], sql: SqlInput | None,
        meanings: dict[str, ColumnMeaning], intent: StructuredIntent | None, reading: str,
    ) -> Shape | WriteUp:
        return await self.ctx.cpu.run_sharing(  # the model's file written once per model (read_question's)
            steps.ANALYSING_RESULT, steps.analysis_first, (self.semantic, self.ctx.values), question, columns, types,
            rows, sql, meanings, intent, reading,
        )

    async def write(
        self, question: str, columns: list[str], types: list[str], rows: Sequence[Row],
        meanings: dict[str, ColumnMeaning], scope: Scope, roles: list[Role], intent: StructuredIntent | None,
        reading: str,
    ) -> WriteUp:
        return await self.ctx.cpu.run_sharing(
            steps.ANALYSING_RESULT, steps.analysis_write_up, (self.semantic, self.ctx.values), question, columns, types,
            rows, meanings, scope, roles, intent, reading,
        )


def _asked_chart(chart: ChartSpec | None, kind: str | None) -> dict[str, Any] | None:
    """The chart kind the person asked for ("as a bar chart"), where the result has an axis to draw on."""
    if chart is None:
        return None
    if kind and kind != "any" and (kind == "none" or chart.x):
        chart = chart.model_copy(update={"kind": kind})
    return chart.model_dump()


def _semantic_for(ctx: AgentContext, intent: dict[str, Any] | None) -> SemanticModel:
    """The semantic model with the question's own definitions ('inventory value (availqty * supplycost)'),
    so labels, units and follow-ups know the measures and flags it defined."""
    if not intent or not intent.get("definitions"):
        return ctx.semantic
    return with_definitions(ctx.semantic, [Definition.model_validate(d) for d in intent["definitions"]])


def _reading(semantic: SemanticModel, intent: dict[str, Any] | None) -> str:
    """The filters a question was read with, in the model's words ("origin airport JFK"), for titles."""
    if not intent:
        return ""
    labels = semantic.dimension_by_name
    parts = []
    for flt in intent.get("filters") or []:
        name = labels[flt["field"]].label if flt["field"] in labels else flt["field"]
        values = ", ".join(str(v) for v in flt.get("values") or [])
        op = "" if flt.get("op", "=") in ("=", "in") else f"{flt['op']} "
        parts.append(f"{name} {op}{values}".strip())
    return "; ".join(parts)


def _sql_args(request: DirectRequest) -> dict[str, Any]:
    return {"sql": request.sql, "sql_dialect": request.dialect}


GENERATE_SQL = ToolSpec(
    name=ToolName.GENERATE_SQL,
    agent_name=AgentName.TEXT2SQL,
    label="Writing SQL…",
    prompt_line="write SQL for a question, using the discovery result it names by related_table_source_tool_call_id.",
)
FIX_SQL = ToolSpec(
    name=ToolName.FIX_SQL,
    agent_name=AgentName.FIX_SQL,
    label="Fixing the SQL…",
    prompt_line="repair broken SQL.",
    direct_args=lambda r: {**_sql_args(r), "error_info": r.error, "final_intent": ToolName.FIX_SQL},
)
EXPLAIN_SQL = ToolSpec(
    name=ToolName.EXPLAIN_SQL,
    agent_name=AgentName.EXPLAIN_SQL,
    label="Explaining the SQL…",
    prompt_line="explain what a query does.",
    terminal=True,
    direct_args=lambda r: {**_sql_args(r), "final_intent": ToolName.EXPLAIN_SQL},
)
EXECUTE_SQL = ToolSpec(
    name=ToolName.EXECUTE,
    agent_name=AgentName.CHAT_BI,
    label="Running the query…",
    prompt_line="run SQL and answer with numbers, a chart and follow-ups.",
    # Someone who calls the Chat BI agent by name with their own SQL has already decided to run it.
    direct_args=lambda r: {"user_question": "Run this query", **_sql_args(r), "final_intent": EXECUTE},
    direct_is_confirmed=True,
)
