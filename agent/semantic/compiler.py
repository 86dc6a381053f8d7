"""Compile a StructuredIntent into one deterministic query in the warehouse's dialect.

The intent is checked against the parser's view of the model, then handed to `sqlgen` as a
metric query over the dbt semantic layer: dimensions become group-bys, value and calendar
filters become filters on dimensions, and the plan there guarantees measures are never
multiplied by joins. The same intent always gives the same SQL.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.errors import AssistantError
from agent.semantic.intent import StructuredIntent, base_table, validate_intent
from agent.semantic.model import SemanticModel
from agent.semantic.sqlgen import GroupBy, Query, QueryError, compile_query, dimension_filter
from agent.semantic.where import ParsedFilter


class IntentError(AssistantError):
    """The intent does not fit the semantic model; the message says what is wrong."""

    code = "intent"


@dataclass(frozen=True)
class CompiledQuery:
    sql: str
    tables: list[str]
    reason: str


def compile_intent(intent: StructuredIntent, model: SemanticModel, dialect: str = "duckdb") -> CompiledQuery:
    problems = validate_intent(intent, model)
    if problems:
        raise IntentError(" ".join(problems))
    table = base_table(intent, model)
    assert table is not None  # validate_intent guarantees one base table
    filters = [dimension_filter(f.field, f.op, tuple(f.values)) for f in intent.filters]
    filters += _time_filters(intent, model, table)
    query = Query(
        metrics=tuple(intent.metrics),
        group_by=tuple(GroupBy(d) for d in intent.dimensions),
        where=tuple(filters),
        order_by=tuple((o.field, o.descending) for o in intent.order_by),
        limit=intent.limit,
    )
    try:
        compiled = compile_query(model.project, query, dialect)
    except QueryError as exc:
        raise IntentError(str(exc)) from None
    joined = [t for t in compiled.tables if t != model.table_by_name[table].table]
    return CompiledQuery(sql=compiled.sql, tables=compiled.tables, reason=_reason(intent, model, table, joined))


def _time_filters(intent: StructuredIntent, model: SemanticModel, table: str) -> list[ParsedFilter]:
    """Calendar words as filters: on the table's calendar-part dimensions where the model names
    them (year, month, day, hour), else on date parts of its time dimension."""
    if intent.time is None:
        return []
    spec = model.table_by_name[table]
    filters = []
    parts = (("year", [intent.time.year] if intent.time.year is not None else [], "extract_year"),
             ("month", intent.time.months, "extract_month"), ("day", intent.time.days, "extract_day"),
             ("hour", intent.time.hours, "extract_hour"), ("weekday", intent.time.weekdays, "extract_dow"))
    for part, values, extract in parts:
        if not values:
            continue
        if part in spec.time:
            filters.append(_set_filter(spec.time[part], None, values))
        elif spec.agg_time:
            filters.append(_set_filter(spec.agg_time, extract, values))
        else:
            raise IntentError(f"The {table} data has no date to filter by {part}.")
    return filters


def _set_filter(name: str, grain: str | None, values: list[int]) -> ParsedFilter:
    """One value '=', a run of consecutive values BETWEEN, anything else IN."""
    if len(values) == 1:
        return dimension_filter(name, "=", (values[0],), grain)
    if values == list(range(values[0], values[-1] + 1)):
        return dimension_filter(name, "between", (values[0], values[-1]), grain)
    return dimension_filter(name, "in", tuple(values), grain)


def _reason(intent: StructuredIntent, model: SemanticModel, table: str, joined: list[str]) -> str:
    parts = [", ".join(model.metric_by_name[m].label.lower() for m in intent.metrics) + f" from {table}"]
    if intent.dimensions:
        parts.append("by " + ", ".join(model.dimension_by_name[d].label for d in intent.dimensions))
    for flt in intent.filters:
        label = model.dimension_by_name[flt.field].label
        values = " and ".join(str(v) for v in flt.values)
        parts.append(f"where {label} {flt.op.replace('_', ' ')} {values}".rstrip())
    if intent.time is not None and not intent.time.is_empty():
        bits = [f"{name} {', '.join(map(str, vals))}" for name, vals in
                (("months", intent.time.months), ("days", intent.time.days), ("hours", intent.time.hours),
                 ("weekdays", intent.time.weekdays)) if vals]
        if intent.time.year is not None:
            bits.insert(0, f"year {intent.time.year}")
        parts.append("in " + "; ".join(bits))
    if joined:
        parts.append("joining " + ", ".join(joined))
    if intent.order_by:
        parts.append("ordered by " + ", ".join(
            f"{o.field} {'highest' if o.descending else 'lowest'} first" for o in intent.order_by))
    if intent.limit is not None:
        parts.append(f"keeping the first {intent.limit}")
    return "; ".join(parts) + "."
