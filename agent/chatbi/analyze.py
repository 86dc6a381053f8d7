"""ChatBI: turn a query result into an answer, insights, a chart spec and follow-up questions.

Facts are computed from the numbers; the offline sentences are built from them. With a
model, a short narrative replaces those sentences only if every number it states is a fact.
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from agent.chatbi.choose_chart import choose_chart
from agent.charts.roles import Role, column_roles
from agent.charts.spec import ChartSpec
from agent.chatbi.facts import Scope, compute_facts, is_additive
from agent.chatbi.follow_ups import FollowUpSource, follow_ups
from agent.chatbi.meaning import ColumnMeaning, limit_of, whole_total_sql
from agent.sql.checked import SqlInput
from agent.chatbi.narrative import invented_numbers, narrate
from agent.chatbi.sentences import answer_sentence, insight_sentences
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
) -> Analysis:
    """`sql` made the result; `meanings` say what its columns are (units, additivity, names);
    with `warehouse`, a result cut by its LIMIT has its shares taken of the whole total; `reading`
    (the filters the question was read with) completes the chart's title."""
    meanings = meanings or {}
    roles = column_roles(result.columns, result.types, result.rows)  # read once: the facts, chart and follow-ups agree
    scope = await _scope(result, sql, meanings, warehouse, roles)
    facts = compute_facts(result.columns, result.types, result.rows, meanings=meanings, scope=scope, roles=roles)
    answer = answer_sentence(facts, result.columns, meanings)
    insights = insight_sentences(facts, meanings)
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
    if isinstance(intent, dict):
        intent = StructuredIntent.model_validate(intent)
    return Analysis(
        answer=answer,
        insights=insights,
        chart=choose_chart(result.columns, result.types, result.rows, meanings=meanings, reading=reading, roles=roles),
        follow_ups=follow_ups(
            question, result.columns, result.types, result.rows, facts, intent=intent, source=follow_up_source,
            roles=roles,
        ),
        facts=facts,
        llm_calls=llm_calls,
        narrated=narrated,
    )


async def _scope(
    result: QueryResult, sql: SqlInput | None, meanings: dict[str, ColumnMeaning], warehouse: Warehouse | None,
    roles: list[Role],
) -> Scope:
    limit = limit_of(sql)
    if sql is None or limit is None or len(result.rows) < limit:
        return Scope(limit=limit)
    measure = next((c for c, r in zip(result.columns, roles) if r is Role.NUMBER), None)
    if measure is None or not is_additive(measure, meanings.get(measure)) or warehouse is None:
        return Scope(limit=limit)
    query = whole_total_sql(sql, measure)
    if query is None:
        return Scope(limit=limit)
    try:
        whole = await warehouse.arun(query)
    except AssistantError as exc:
        log.info("the whole total could not be queried (%s); shares are of the rows shown", exc)
        return Scope(limit=limit)
    total, count = whole.rows[0] if whole.rows else (None, None)
    return Scope(limit=limit, whole_total=float(total) if total else None, whole_count=count)


def _numbered(insights: list[str]) -> dict[str, str]:
    return {f"insight {i}": text for i, text in enumerate(insights, 1)}
