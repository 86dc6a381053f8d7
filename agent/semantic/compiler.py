"""Compile a StructuredIntent into one deterministic DuckDB query.

The same intent always gives the same SQL: joins only for the dimensions that need them
(each a declared many-to-one join, so rows are never multiplied), dimension columns
first, then metrics, GROUP BY the dimensions, and an order that reads naturally.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from agent.errors import AssistantError
from agent.semantic.intent import Filter, StructuredIntent, base_table, validate_intent
from agent.semantic.model import JoinSpec, SemanticModel


class IntentError(AssistantError):
    """The intent does not fit the semantic model; the message says what is wrong."""

    code = "intent"


@dataclass(frozen=True)
class CompiledQuery:
    sql: str
    tables: list[str]
    reason: str


def compile_intent(intent: StructuredIntent, model: SemanticModel) -> CompiledQuery:
    problems = validate_intent(intent, model)
    if problems:
        raise IntentError(" ".join(problems))
    table = base_table(intent, model)
    assert table is not None  # validate_intent guarantees one base table
    joins: dict[str, JoinSpec] = {}

    def column_sql(field: str) -> str:
        source, join = model.resolve(field, table)
        alias = table
        if join is not None:
            joins[join.name] = join
            alias = join.name
        return _qualify(source.expr, alias)

    select: list[str] = []
    group_by: list[str] = []
    for name in intent.dimensions:
        expr = column_sql(name)
        select.append(f"{expr} AS {_ident(name)}")
        group_by.append(expr)

    metrics = [model.metric_by_name[m] for m in intent.metrics]
    shared_filter = metrics[0].filter if len({m.filter for m in metrics}) == 1 else None
    for metric in metrics:
        expr = _qualify(metric.expr, table)
        if metric.filter and metric.filter != shared_filter:
            # metrics with different row conditions share the query through FILTER clauses
            expr = f"{expr} FILTER (WHERE {_qualify(metric.filter, table)})"
        select.append(f"{expr} AS {_ident(metric.name)}")

    where: list[str] = []
    if shared_filter:
        where.append(f"({_qualify(shared_filter, table)})")
    for flt in intent.filters:
        where.append(_condition(column_sql(flt.field), flt))
    where += _time_conditions(intent, model, table)

    order = _order_by(intent, model)

    sql = f"SELECT {', '.join(select)} FROM {_ident(table)}"
    for join in joins.values():
        on = " AND ".join(
            f"{_ident(table)}.{_ident(left)} = {_ident(join.name)}.{_ident(right)}" for left, right in join.keys
        )
        sql += f" LEFT JOIN {_ident(join.to_table)} AS {_ident(join.name)} ON {on}"
    if where:
        sql += " WHERE " + " AND ".join(where)
    if group_by:
        sql += " GROUP BY " + ", ".join(group_by)
    if order:
        sql += " ORDER BY " + ", ".join(order)
    if intent.limit is not None:
        sql += f" LIMIT {int(intent.limit)}"
    pretty = sqlglot.parse_one(sql, read="duckdb").sql(dialect="duckdb", pretty=True)
    tables = [table] + sorted({j.to_table for j in joins.values()})
    return CompiledQuery(sql=pretty, tables=tables, reason=_reason(intent, model, table, list(joins.values())))


def _ident(name: str) -> str:
    return exp.to_identifier(name).sql(dialect="duckdb")


def _qualify(sql_expr: str, alias: str) -> str:
    """Prefix every bare column with the table alias so joined tables cannot make it ambiguous."""
    tree = sqlglot.parse_one(sql_expr, read="duckdb")
    for column in tree.find_all(exp.Column):
        if not column.table:
            column.set("table", exp.to_identifier(alias))
    return tree.sql(dialect="duckdb")


def _literal(value) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return exp.Literal.string(str(value)).sql(dialect="duckdb")
    return exp.Literal.number(value).sql(dialect="duckdb")


def _condition(column: str, flt: Filter) -> str:
    if flt.op == "is_null":
        return f"{column} IS NULL"
    if flt.op == "not_null":
        return f"{column} IS NOT NULL"
    if flt.op == "in":
        return f"{column} IN ({', '.join(_literal(v) for v in flt.values)})"
    if flt.op == "between":
        low, high = flt.values
        return f"{column} BETWEEN {_literal(low)} AND {_literal(high)}"
    return f"{column} {flt.op} {_literal(flt.values[0])}"


def _time_conditions(intent: StructuredIntent, model: SemanticModel, table: str) -> list[str]:
    if intent.time is None:
        return []
    columns = model.table_by_name[table].time
    conditions = []
    if intent.time.year is not None:
        conditions.append(f"{_qualify(columns['year'], table)} = {intent.time.year}")
    for grain, values in (("month", intent.time.months), ("day", intent.time.days), ("hour", intent.time.hours)):
        if values:
            conditions.append(_set_condition(_qualify(columns[grain], table), values))
    if intent.time.weekdays:
        date = _qualify(f"make_date({columns['year']}, {columns['month']}, {columns['day']})", table)
        conditions.append(_set_condition(f"isodow({date})", intent.time.weekdays))
    return conditions


def _set_condition(column: str, values: list[int]) -> str:
    """One value '=', a run of consecutive values BETWEEN, anything else IN."""
    if len(values) == 1:
        return f"{column} = {values[0]}"
    if values == list(range(values[0], values[-1] + 1)):
        return f"{column} BETWEEN {values[0]} AND {values[-1]}"
    return f"{column} IN ({', '.join(str(v) for v in values)})"


def _order_by(intent: StructuredIntent, model: SemanticModel) -> list[str]:
    if intent.order_by:
        ranked = [o.field for o in intent.order_by]
        # the dimensions break ties, so a LIMIT keeps the same rows on every run
        ties = [f"{_ident(d)} ASC NULLS LAST" for d in intent.dimensions if d not in ranked]
        return [f"{_ident(o.field)} {'DESC' if o.descending else 'ASC'} NULLS LAST" for o in intent.order_by] + ties
    # No ranking asked for: time reads oldest first, other groups alphabetically.
    return [f"{_ident(d)} ASC NULLS LAST" for d in intent.dimensions]


def _reason(intent: StructuredIntent, model: SemanticModel, table: str, joins: list[JoinSpec]) -> str:
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
    if joins:
        parts.append("joining " + ", ".join(f"{j.to_table} as {j.name}" for j in joins))
    if intent.order_by:
        parts.append("ordered by " + ", ".join(
            f"{o.field} {'highest' if o.descending else 'lowest'} first" for o in intent.order_by))
    if intent.limit is not None:
        parts.append(f"keeping the first {intent.limit}")
    return "; ".join(parts) + "."
