"""A condition on a thing's related rows: 'a customer with an order in the last 90 days', 'a plane with at
least 5 flights in 2013'.

The condition is kept as a structure (`Related`: which rows, how many, in which window), never as SQL a
person or an LLM wrote; `related_sql` builds it with sqlglot as a correlated subquery on the thing's key, in
the project's dialect, so it becomes a flag dimension the compiler reads like any other. A subquery counts the
related rows of one thing, so the thing's own rows are never multiplied by them.

A window counts back from the latest date in the related rows, never from today's clock (as a question's
'last month' does), in whole days (a timestamp is cut to its day, as a question's dates are), and rolls: 'the
last 90 days' are the 90 days up to that day, that day included, 'the last 3 months' the three months up to it,
so the condition means the same whatever day the latest date falls on."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field
from sqlglot import exp
import sqlglot

from agent.semantic.spec.dbt_spec import Project
from agent.semantic.spec.dbt_spec import SemanticModel as DbtModel
from agent.semantic.model.runtime import SemanticModel
from agent.text.words import plural_phrase
from agent.warehouse.base import table_reference

Grain = Literal["day", "week", "month", "quarter", "year"]


class Related(BaseModel):
    """Rows of `table` that point at the thing (directly, or through rows of `via` that do), at least
    `at_least` of them (or none, when `absent`), dated in the last `last` `grain`s of the data or in `year`."""

    table: str  # the semantic model whose rows are counted ('orders')
    via: str | None = None  # the model whose rows point at the thing, when `table`'s do not (order lines)
    at_least: int = Field(default=1, ge=1)
    absent: bool = False  # 'a plane with no flight in the last 30 days'
    last: int | None = Field(default=None, ge=1)
    grain: Grain | None = None
    year: int | None = Field(default=None, ge=1000, le=9999)


def link_of(model: SemanticModel, thing: str, related: str) -> tuple[str | None] | None:
    """How rows of `related` point at `thing`'s rows: (None,) when they hold its key themselves, (via,) when
    the rows of one other model do and reach `related` many-to-one (order lines: a pizza's orders); None when
    no single way does."""
    project: Project | None = model.project
    if project is None or thing not in project.model_by_name or related not in project.model_by_name:
        return None
    key = project.model_by_name[thing].primary
    if key is None or related == thing:
        return None
    if _points_at(project.model_by_name[related], key.name):
        return (None,)
    links = [m.name for m in project.semantic_models if m.name not in (thing, related)
             and _points_at(m, key.name) and model.join_path(m.name, related)]
    return (links[0],) if len(links) == 1 else None


def _points_at(model: DbtModel, entity: str) -> bool:
    found = model.entity(entity)
    return found is not None and found.type == "foreign"


def dated_by(model: SemanticModel, table: str) -> str | None:
    """The time dimension the related rows are dated by: the model's own agg_time_dimension."""
    dbt_model = model.project.model_by_name.get(table) if model.project is not None else None
    name = dbt_model.agg_time_dimension if dbt_model is not None else None
    dimension = dbt_model.dimension(name) if dbt_model is not None and name else None
    return name if dimension is not None and dimension.type == "time" else None


def related_problems(label: str, thing: str, related: Related, model: SemanticModel) -> list[str]:
    """Why the condition cannot be built on this model, as sentences ([] when it can)."""
    link = link_of(model, thing, related.table)
    if link is None or link[0] != related.via:
        return [f"'{label}' counts {related.table} rows, which do not point at {thing} rows in one way."]
    if (related.last is None) != (related.grain is None):
        return [f"'{label}' needs both a length and a unit for its window."]
    if (related.last is not None or related.year is not None) and dated_by(model, related.table) is None:
        return [f"'{label}' has a window, but the {related.table} rows have no date to put in it."]
    return []


def related_sql(thing: str, related: Related, model: SemanticModel) -> str:
    """The condition as SQL in the project's dialect, the thing's own columns unqualified (the compiler
    puts them on the thing's rows wherever it reads them), every other column under an alias of its own."""
    project: Project = model.project
    dialect = project.dialect
    key = project.model_by_name[thing].primary
    assert key is not None  # related_problems holds it
    counted = project.model_by_name[related.table]
    link = project.model_by_name[related.via or related.table]
    rows = exp.select(exp.Literal.number(1)).from_(table_reference(link.relation, dialect, "__related_link"))
    counted_alias = "__related_link"
    if related.via is not None:
        for n, join in enumerate(model.join_path(link.name, related.table) or []):
            here, there = ("__related_link" if n == 0 else f"__related_{n}"), f"__related_{n + 1}"
            on = [exp.EQ(this=_qualified(left, here, dialect), expression=_qualified(right, there, dialect))
                  for left, right in join.keys]
            rows = rows.join(table_reference(project.model_by_name[join.to_table].relation, dialect, there), on=exp.and_(*on))
            counted_alias = there
    entity = link.entity(key.name)
    assert entity is not None
    where: list[exp.Expr] = [exp.EQ(this=_qualified(entity.expr, "__related_link", dialect),
                                    expression=sqlglot.parse_one(key.expr, read=dialect))]
    dimension = counted.dimension(dated_by(model, related.table) or "")
    if dimension is not None and (related.last is not None or related.year is not None):
        date = exp.cast(_qualified(dimension.expr, counted_alias, dialect), "DATE")
        if related.year is not None:
            where.append(exp.EQ(this=exp.Extract(this=exp.Var(this="YEAR"), expression=date),
                                expression=exp.Literal.number(related.year)))
        if related.last is not None and related.grain is not None:
            latest = exp.select(exp.Max(this=exp.cast(_qualified(dimension.expr, "__related_latest", dialect), "DATE"))
                                ).from_(table_reference(counted.relation, dialect, "__related_latest"))
            count, unit = related.last, related.grain
            count, unit = (count * 7, "day") if unit == "week" else (count * 3, "month") if unit == "quarter" \
                else (count, unit)
            start = exp.DateSub(this=latest.subquery(), expression=exp.Literal.number(count),
                                unit=exp.Var(this=unit.upper()))
            where.append(exp.GT(this=date, expression=start))
    rows = rows.where(exp.and_(*where))
    if related.absent:
        condition: exp.Expr = exp.Not(this=exp.Exists(this=rows))
    elif related.at_least == 1:
        condition = exp.Exists(this=rows)
    else:
        counted_key = counted.primary
        what: exp.Expr = exp.Star() if related.via is None or counted_key is None else exp.Distinct(
            expressions=[_qualified(counted_key.expr, counted_alias, dialect)])
        rows.set("expressions", [exp.Count(this=what)])
        condition = exp.GTE(this=rows.subquery(), expression=exp.Literal.number(related.at_least))
    # the compiler compares a condition with TRUE: bracketed, it stays one condition
    return f"({condition.sql(dialect=dialect)})"


def _qualified(sql: str, alias: str, dialect: str) -> exp.Expr:
    tree = sqlglot.parse_one(sql, read=dialect)
    for column in list(tree.find_all(exp.Column)):
        if not column.table:
            column.set("table", exp.to_identifier(alias, quoted=True))
    return tree


def related_words(thing: str, related: Related, model: SemanticModel) -> str:
    """The condition in plain words, for a person to confirm: 'planes with at least one flight dated in the
    30 days up to the latest flight date'."""
    things = plural_phrase(row_word(model, thing))
    one = row_word(model, related.table)
    rows = f"at least one {one}" if related.at_least == 1 else f"at least {related.at_least} {plural_phrase(one)}"
    rows = f"no {one}" if related.absent else rows
    said = f"{things} with {rows}"
    date_name = dated_by(model, related.table) or "date"
    date = model.dimension_by_name[date_name].label.lower() if date_name in model.dimension_by_name else \
        date_name.replace("_", " ")
    if related.year is not None:
        said += f" dated in {related.year} (by {date})"
    if related.last is not None and related.grain is not None:
        span = related.grain if related.last == 1 else f"{related.last} {related.grain}s"
        said += f" dated in the {span} up to the latest {date} in the data"
    if related.via is not None:
        said += f", counted through the {plural_phrase(row_word(model, related.via))}"
    return said


def row_word(model: SemanticModel, table: str) -> str:
    """What one row of `table` is called ('plane'), else the table's label."""
    spec = model.table_by_name[table]
    return spec.entity_words[0] if spec.entity_words else spec.label.lower()
