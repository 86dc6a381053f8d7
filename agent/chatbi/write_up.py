"""The CPU work of analysing a result, as two pure steps that a CPU worker can run (no LLM, no
warehouse, nothing that is not pickled in and out): `read_shape` before the measure's whole total is
queried, `write_up` after; `analysed` is both in one step when there is no whole total to wait for (most
results). agent/chatbi/analyze.py runs them and does the waiting in between."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agent.charts.roles import Role, Row, column_roles
from agent.charts.spec import ChartSpec
from agent.chatbi.choose_chart import choose_chart
from agent.chatbi.facts import Scope, compute_facts, is_additive
from agent.chatbi.follow_ups import FollowUpSource, follow_ups
from agent.chatbi.meaning import ColumnMeaning, limit_of, ranked_by, whole_total_sql
from agent.chatbi.sentences import answer_sentence, insight_sentences
from agent.semantic.compile.intent import StructuredIntent
from agent.sql.checked import SqlInput


@dataclass(frozen=True)
class Shape:
    """What the rows are, read before the whole total is queried: each column's role, the outer LIMIT,
    and the query for the measure's total without it (None: no shares of a whole to take)."""

    roles: list[Role]
    limit: int | None
    whole_query: str | None
    ranked_by: str | None = None  # the column a ranking orders by: the measure the answer is about


@dataclass(frozen=True)
class WriteUp:
    facts: dict[str, Any]
    answer: str
    insights: list[str]
    chart: ChartSpec
    follow_ups: list[str]


def read_shape(
    columns: list[str], types: list[str], rows: Sequence[Row], sql: SqlInput | None,
    meanings: dict[str, ColumnMeaning],
) -> Shape:
    roles = column_roles(columns, types, rows)  # read once: the facts, chart and follow-ups agree
    limit = limit_of(sql)
    numbers = [c for c, r in zip(columns, roles) if r is Role.NUMBER]
    ranked = ranked_by(sql)
    ranked = ranked if ranked in numbers else None
    if sql is None or limit is None or len(rows) < limit:
        return Shape(roles, limit, None, ranked)
    measure = ranked or next(iter(numbers), None)
    if measure is None or not is_additive(measure, meanings.get(measure)):
        return Shape(roles, limit, None, ranked)
    return Shape(roles, limit, whole_total_sql(sql, measure), ranked)


def write_up(
    question: str, columns: list[str], types: list[str], rows: Sequence[Row], meanings: dict[str, ColumnMeaning],
    scope: Scope, roles: list[Role], intent: StructuredIntent | None, source: FollowUpSource | None, reading: str,
) -> WriteUp:
    facts = compute_facts(columns, types, rows, meanings=meanings, scope=scope, roles=roles)
    return WriteUp(
        facts=facts,
        answer=answer_sentence(facts, columns, meanings),
        insights=insight_sentences(facts, meanings),
        chart=choose_chart(columns, types, rows, meanings=meanings, reading=reading, roles=roles),
        follow_ups=follow_ups(question, columns, types, rows, facts, intent=intent, source=source, roles=roles),
    )


def analysed(
    question: str, columns: list[str], types: list[str], rows: Sequence[Row], sql: SqlInput | None,
    meanings: dict[str, ColumnMeaning], intent: StructuredIntent | None, source: FollowUpSource | None, reading: str,
) -> Shape | WriteUp:
    """`read_shape`, and `write_up` in the same step when no whole total is to be queried (the rows are the
    whole answer, or their measure has no total): one step for most results, two for a cut one."""
    shape = read_shape(columns, types, rows, sql, meanings)
    if shape.whole_query is not None:
        return shape
    scope = Scope(limit=shape.limit, ranked_by=shape.ranked_by)
    return write_up(question, columns, types, rows, meanings, scope, shape.roles, intent, source, reading)
