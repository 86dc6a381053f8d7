"""The first of the dates a row's related rows hold: 'days between a delivery and its payment', where the
payments point at the delivery they pay.

A measure on the delivery's rows reads the date of its first payment as a correlated subquery on the
delivery's key, so each delivery counts once however many rows point at it (a payment and a later
reversal, partial payments), and a delivery nothing points at yet has no end (NULL, which every aggregate
skips). The subquery is built here from a structure (`FirstEnd`), never taken from SQL a person or an LLM
wrote: a definition's formula names the end as a column under `FIRST_END`, and `first_end_sql` puts the
subquery in its place."""

from __future__ import annotations

import sqlglot
from pydantic import BaseModel
from sqlglot import exp

from agent.semantic.compile.related import link_of
from agent.semantic.model.runtime import SemanticModel
from agent.warehouse.base import table_reference

FIRST_END = "__first_end"  # the alias a formula names the related rows' date under


class FirstEnd(BaseModel):
    """Rows of `table` point at the definition's rows; `column` is the date of theirs it reads, the first."""

    table: str  # the semantic model whose rows hold the end ('payments')
    column: str  # the date column's expression over those rows


def first_end_problems(label: str, thing: str, first_end: FirstEnd, model: SemanticModel) -> list[str]:
    """Why the end cannot be read on this model, as sentences ([] when it can)."""
    if link_of(model, thing, first_end.table) != (None,):
        return [f"'{label}' reads a date of {first_end.table} rows, which do not point at {thing} rows."]
    spec = model.project.model_by_name[first_end.table] if model.project is not None else None
    if spec is None or not any(d.type == "time" and d.expr == first_end.column for d in spec.dimensions):
        return [f"'{label}' reads '{first_end.column}', which is not a date of {first_end.table} rows."]
    return []


def first_end_sql(expr: str, thing: str, first_end: FirstEnd, model: SemanticModel) -> str:
    """`expr` with each column under `FIRST_END` read as the first of that date among the rows pointing at
    the thing's row; the thing's own columns stay unqualified (the compiler puts them on its rows)."""
    project = model.project
    assert project is not None  # first_end_problems holds it
    dialect = project.dialect
    key = project.model_by_name[thing].primary
    holder = project.model_by_name[first_end.table]
    entity = holder.entity(key.name) if key is not None else None
    assert key is not None and entity is not None  # first_end_problems holds it (link_of)
    source = table_reference(holder.relation, dialect, FIRST_END)
    points_at = exp.EQ(this=_under(entity.expr, dialect), expression=sqlglot.parse_one(key.expr, read=dialect))
    tree = sqlglot.parse_one(expr, read=dialect)
    for column in list(tree.find_all(exp.Column)):
        if column.table == FIRST_END:
            first = exp.select(exp.Min(this=_under(first_end.column, dialect))).from_(source.copy()).where(points_at.copy())
            column.replace(first.subquery())
    return tree.sql(dialect=dialect)


def _under(sql: str, dialect: str) -> exp.Expr:
    """A column of the related rows, under their alias."""
    tree = sqlglot.parse_one(sql, read=dialect)
    for column in list(tree.find_all(exp.Column)):
        column.set("table", exp.to_identifier(FIRST_END, quoted=True))
    return tree
