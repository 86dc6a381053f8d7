"""ChatBI: turn a query result into an answer, insights, a chart spec and follow-up questions.

Facts are computed from the numbers; the offline sentences are built from them. With a
model, a short narrative replaces those sentences only if every number it states is a fact.

The CPU work (the columns' roles, the facts, the sentences, the chart, the follow-ups and the compiles
that check them) is two pure steps (agent/chatbi/write_up.py); `analyze` runs them where its `steps`
say (the agent's CPU workers, `agent.tools.steps`), and on the event loop only what waits on others:
the whole-total query and the narrative's LLM call.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from agent.charts.roles import Role, Row
from agent.charts.spec import ChartSpec
from agent.chatbi.facts import Scope
from agent.chatbi.follow_ups import FollowUpSource
from agent.chatbi.meaning import ColumnMeaning, column_formats
from agent.chatbi.narrative import invented_numbers, narrate
from agent.chatbi.write_up import Shape, WriteUp, analysed, write_up
from agent.sql.checked import SqlInput
from agent.errors import AssistantError, LLMError
from agent.semantic.compile.intent import StructuredIntent
from agent.warehouse import QueryResult, Warehouse

log = logging.getLogger(__name__)


class Analysis(BaseModel):
    answer: str
    insights: list[str] = Field(default_factory=list)
    chart: ChartSpec
    follow_ups: list[str] = Field(default_factory=list)
    facts: dict[str, Any] = Field(default_factory=dict)
    llm_calls: int = 0
    narrated: bool = False  # True when the words are the model's (they passed the number check)
    column_formats: list[str | None] = Field(default_factory=list)  # how a table shows each column's numbers


class AnalysisSteps(Protocol):
    """Where `analyze` runs its CPU steps: `first` (`analysed`: the shape, or the whole write-up when there
    is no whole total to wait for), and `write` after the whole total's query."""

    async def first(
        self, question: str, columns: list[str], types: list[str], rows: Sequence[Row], sql: SqlInput | None,
        meanings: dict[str, ColumnMeaning], intent: StructuredIntent | None, reading: str,
    ) -> Shape | WriteUp: ...

    async def write(
        self, question: str, columns: list[str], types: list[str], rows: Sequence[Row],
        meanings: dict[str, ColumnMeaning], scope: Scope, roles: list[Role], intent: StructuredIntent | None,
        reading: str,
    ) -> WriteUp: ...


@dataclass(frozen=True)
class InPlace:
    """The steps run in the caller's thread, the follow-ups read from `source` (tests, one-off callers)."""

    source: FollowUpSource | None = None

    async def first(
        self, question: str, columns: list[str], types: list[str], rows: Sequence[Row], sql: SqlInput | None,
        meanings: dict[str, ColumnMeaning], intent: StructuredIntent | None, reading: str,
    ) -> Shape | WriteUp:
        return analysed(question, columns, types, rows, sql, meanings, intent, self.source, reading)

    async def write(
        self, question: str, columns: list[str], types: list[str], rows: Sequence[Row],
        meanings: dict[str, ColumnMeaning], scope: Scope, roles: list[Role], intent: StructuredIntent | None,
        reading: str,
    ) -> WriteUp:
        return write_up(question, columns, types, rows, meanings, scope, roles, intent, self.source, reading)


async def analyze(
    question: str,
    result: QueryResult,
    *,
    model: BaseChatModel | None = None,
    intent: StructuredIntent | dict[str, Any] | None = None,
    follow_up_source: FollowUpSource | None = None,
    sql: SqlInput | None = None,
    meanings: dict[str, ColumnMeaning] | None = None,
    warehouse: Warehouse | None = None,
    reading: str = "",
    steps: AnalysisSteps | None = None,
) -> Analysis:
    """`sql` made the result; `meanings` say what its columns are (units, additivity, names);
    with `warehouse`, a result cut by its LIMIT has its shares taken of the whole total; `reading`
    (the filters the question was read with) completes the chart's title. `steps`: where the CPU work
    runs (its follow-ups read their own model and values); by default here, with `follow_up_source`."""
    meanings = meanings or {}
    steps = steps or InPlace(follow_up_source)
    if isinstance(intent, dict):
        intent = StructuredIntent.model_validate(intent)
    columns, types, rows = list(result.columns), list(result.types), result.rows
    first = await steps.first(question, columns, types, rows, sql, meanings, intent, reading)
    if isinstance(first, WriteUp):
        written = first
    else:  # a result cut by its LIMIT: the whole total is queried, then the write-up is done
        scope = await _scope(first, warehouse)
        written = await steps.write(question, columns, types, rows, meanings, scope, first.roles, intent, reading)
    facts, answer, insights = written.facts, written.answer, written.insights
    llm_calls, narrated = 0, False
    if model is not None and facts["shape"] != "empty":
        llm_calls = 1
        try:
            narrative = await narrate(model, question, facts, {"answer": answer, **_numbered(insights)})
        except LLMError as exc:
            log.warning("narrative failed, using the computed sentences: %s", exc.detail)
        else:
            text = " ".join([narrative.answer, *narrative.insights])
            invented = invented_numbers(text, facts, allowed_text=" ".join([question, answer, *insights]))
            if invented or not narrative.answer.strip():
                log.warning("narrative states numbers that are not facts %s; using the computed sentences", invented)
            else:
                answer, insights, narrated = narrative.answer, narrative.insights, True
    return Analysis(
        answer=answer,
        insights=insights,
        chart=written.chart,
        follow_ups=written.follow_ups,
        facts=facts,
        llm_calls=llm_calls,
        narrated=narrated,
        column_formats=column_formats(columns, meanings),
    )


async def _scope(shape: Shape, warehouse: Warehouse | None) -> Scope:
    if shape.whole_query is None or warehouse is None:
        return Scope(limit=shape.limit, ranked_by=shape.ranked_by)
    try:
        whole = await warehouse.arun(shape.whole_query)
    except AssistantError as exc:
        log.info("the whole total could not be queried (%s); shares are of the rows shown", exc)
        return Scope(limit=shape.limit, ranked_by=shape.ranked_by)
    total, count = whole.rows[0] if whole.rows else (None, None)
    return Scope(limit=shape.limit, whole_total=float(total) if total else None, whole_count=count,
                 ranked_by=shape.ranked_by)


def _numbered(insights: list[str]) -> dict[str, str]:
    return {f"insight {i}": text for i, text in enumerate(insights, 1)}
