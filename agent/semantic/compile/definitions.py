"""Measures and conditions a question defines itself: 'sum of extendedprice*(1-discount)',
'inventory value (availqty * supplycost summed)', 'late = l_receiptdate > l_commitdate',
'arrived late (receipt date after commit date)'.

A definition names columns of one semantic model, by column name or by a dimension's words,
joined by arithmetic or one comparison; nothing else (no functions, no subqueries), so what a
person types can only ever become arithmetic over columns the model already exposes. The
intent carries its definitions (`StructuredIntent.definitions`), and `with_definitions` adds
them to a copy of the semantic model (a measure and a simple metric, or a flag dimension)
before the intent is checked, compiled or described.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal, NamedTuple

import sqlglot
from pydantic import BaseModel
from sqlglot import exp

from agent.semantic.spec.dbt_spec import Dimension, Measure, MeasureInput, Metric, MetricInput, Project
from agent.semantic.compile.filters import Filter
from agent.semantic.compile.first_end import FIRST_END, FirstEnd, first_end_problems, first_end_sql
from agent.semantic.model.layer import extended
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.compile.related import Related, related_problems, related_sql

_ALLOWED = (exp.Column, exp.Literal, exp.Paren, exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Neg, exp.GT, exp.GTE,
            exp.LT, exp.LTE, exp.EQ, exp.NEQ, exp.Identifier)
_COMPARISONS = (exp.GT, exp.GTE, exp.LT, exp.LTE, exp.EQ, exp.NEQ)


class Definition(BaseModel):
    """A measure (aggregated) or a condition (a flag) over one semantic model's columns, a ratio of
    two of the model's metrics ('ratings per user': the ratings counted over the users counted), or the rows
    conditions hold for ('ratings that are 5': a sum_boolean of them, built from the structured conditions,
    counted: 0 for a thing none of whose rows do)."""

    name: str  # the metric or dimension name it becomes
    label: str  # the words that name it in the question and in the answer
    table: str  # the semantic model whose rows it reads
    kind: Literal["measure", "condition", "ratio", "filtered", "bands"]
    expr: str = ""  # SQL over that model's columns, in the project's dialect (measures and conditions)
    agg: Literal["sum", "average", "median", "min", "max", "count_distinct"] = "sum"
    numerator: str | None = None  # a ratio's metrics
    denominator: str | None = None
    where: list[Filter] = []  # a filtered count's conditions on its rows
    # a condition on the thing's related rows ('a customer with an order in the last 90 days'): its SQL is
    # built from this structure whenever the definition is used, never taken from `expr`
    related: Related | None = None
    # bands a number is put in ('under 500, 500-1000, over 1000'): their names as said, in order; `expr` is
    # the CASE that names each row's band, built from these and the column by `bands_sql`, never taken as given
    bands: list[str] = []
    column: str = ""  # the banded column's expression, over the table's rows (or a row they belong to)
    # a condition on the day of the week of the table's own date ('weekends', 1 = Monday … 7 = Sunday): `expr`
    # is built from these and the table's date by `weekday_condition`, never taken as given
    weekdays: list[int] = []
    # a measure reading the first date of the rows that point at each of its rows ('days between a delivery and
    # its payment'): `expr` names that date as a column under FIRST_END, read as a subquery built from this
    first_end: FirstEnd | None = None


def column_words(model: SemanticModel) -> dict[str, list[tuple[str, str, str]]]:
    """Squashed words ('extendedprice', 'receiptdate', 'lreceiptdate') -> (semantic model, column
    expr, kind: numeric, time or categorical)."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    for dim in model.dimensions:
        if dim.kind == "flag":
            continue
        for source in dim.sources:
            if source.join is not None or not re.fullmatch(r'"?[A-Za-z_]\w*"?', source.expr):
                continue
            for text in {dim.name, dim.label, source.expr.strip('"'), *dim.synonyms}:
                key = _squash(text)
                entry = (source.table, source.expr, dim.kind)
                if key and entry not in found.get(key, []):
                    found.setdefault(key, []).append(entry)
    return found


class Built(NamedTuple):
    table: str  # the semantic model whose rows the formula reads
    sql: str
    condition: bool  # a comparison (a flag), else a value to aggregate
    days: bool  # one date minus another: whole days


def build(text: str, model: SemanticModel, words: dict[str, list[tuple[str, str, str]]]) -> Built | None:
    """What formula text computes, when its every name is a column of one model's rows or of a row
    they belong to (a many-to-one join away: 'ship date - order date' on order
    lines); None when it is not such a formula: arithmetic is over numbers only ('origin-dest' is
    a route, not a subtraction) except one date minus another (whole days), and a comparison sets
    like against like."""
    try:
        tree = sqlglot.parse_one(text, read="duckdb")
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError, ValueError):
        return None
    if tree is None or any(not isinstance(node, _ALLOWED) for node in tree.walk()):
        return None
    columns = list(tree.find_all(exp.Column))
    if not columns:
        return None
    options = [words.get(_squash(c.name), []) for c in columns]
    if any(not o for o in options):
        return None
    placed = _place(options, model)
    if placed is None:
        return None
    table, places = placed
    comparisons = [n for n in tree.walk() if isinstance(n, _COMPARISONS)]
    if len(comparisons) > 1 or (comparisons and comparisons[0] is not tree):
        return None
    if comparisons and not all(side.find(exp.Column) for side in (tree.this, tree.expression)):
        return None  # 'delay > 60' is a comparison the comparisons pass reads, with its units
    kinds = [kind for _, _, kind in places]
    for column, (path, expr, _) in zip(columns, places):
        # quoted as the join's alias is ('order' is a keyword) and as the column is ('"orderDate"')
        column.replace(exp.column(exp.to_identifier(expr.strip('"'), quoted=expr.startswith('"')),
                                  table=exp.to_identifier(path, quoted=True) if path else None))
    dates_apart = isinstance(tree, exp.Sub) and kinds == ["time", "time"]
    if dates_apart:  # whole days between two dates, in every dialect's own spelling
        tree = exp.DateDiff(this=tree.this, expression=tree.expression, unit=exp.Var(this="DAY"))
    arithmetic = any(isinstance(n, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Neg)) for n in tree.walk())
    if (arithmetic and set(kinds) != {"numeric"}) or len(set(kinds)) > 1 or "categorical" in kinds:
        return None
    sql = tree.sql(dialect=model.project.dialect if model.project else "duckdb")
    # a condition is compared with TRUE by the compiler: bracketed, it stays one comparison
    return Built(table, f"({sql})" if comparisons else sql, bool(comparisons), dates_apart)


def _place(
    options: list[list[tuple[str, str, str]]], model: SemanticModel
) -> tuple[str, list[tuple[str, str, str]]] | None:
    """The table whose rows the formula reads, and per column (entity path or '', expr, kind):
    the table holding most of the columns, the others reached by one many-to-one path each."""
    tables = sorted({t for o in options for t, _, _ in o},
                    key=lambda t: -sum(any(x == t for x, _, _ in o) for o in options))
    for base in tables:
        places: list[tuple[str, str, str]] = []
        for choices in options:
            own = [(e, k) for t, e, k in choices if t == base]
            if own:
                places.append(("", *own[0]))
                continue
            reached = [(path, e, k) for t, e, k in choices if (path := model.join_path(base, t))]
            if len(reached) != 1:
                break
            path, expr, kind = reached[0]
            places.append(("__".join(j.name[len(j.from_table) + 2:] for j in path), expr, kind))
        else:
            return base, places
    return None


_FINER = {"hour": ("hour", "minute", "second", "millisecond"),
          "day": ("day", "hour", "minute", "second", "millisecond")}


def period_count(model: SemanticModel, table: str, grain: str) -> Definition | None:
    """How many different hours (days, weeks, months…) a table's rows fall on, by the rows' own date: what
    an average per day divides by, and what 'how many hours had rain' counts. An hour needs a time of the
    rows' own that holds hours. None when the rows have no such date."""
    if model.project is None or grain not in ("hour", "day", "week", "month", "quarter", "year"):
        return None
    dialect = model.project.dialect
    if grain == "hour":
        spec = model.project.model_by_name.get(table)
        timed = [d for d in (spec.dimensions if spec else ()) if d.type == "time" and d.granularity in _FINER["hour"]]
        if len(timed) != 1:
            return None
        period: exp.Expr = exp.TimestampTrunc(this=exp.cast(sqlglot.parse_one(timed[0].expr, read=dialect), "TIMESTAMP"),
                                              unit=exp.Var(this="HOUR"))
    else:
        source = model.dated_by(table)
        if source is None:
            return None
        *path, name = str(model.table_by_name[table].agg_time).split("__")
        # dated by the row they belong to ('order__order_date'): that row's date dimension, through the join
        column = exp.column(name, table=exp.to_identifier("__".join(path), quoted=True)) if source.join is not None \
            else sqlglot.parse_one(source.expr, read=dialect)
        day = exp.cast(column, "DATE")
        period = day if grain == "day" else exp.cast(
            exp.DateTrunc(this=day, unit=exp.Var(this=grain.upper())), "DATE")  # type: ignore[no-untyped-call]
    return Definition(name=f"{table}__{grain}s_with_rows", label=f"{grain}s", table=table, kind="measure",
                      expr=period.sql(dialect=dialect), agg="count_distinct")


_BAND = re.compile(r"(?:(?P<under>under|below|less than|<)\s*(?P<u>\d+(?:\.\d+)?)"
                   r"|(?P<lo>\d+(?:\.\d+)?)\s*(?:-|to|\u2013)\s*(?P<hi>\d+(?:\.\d+)?)"
                   r"|(?P<from>\d+(?:\.\d+)?)\s*(?:\+|or more|and up|and over|or above)"
                   r"|(?:over|above|more than|>)\s*(?P<over>\d+(?:\.\d+)?))", re.IGNORECASE)


def bands_sql(column: str, bands: list[str], dialect: str) -> str | None:
    """The CASE naming each row's band, in the order said: 'under 500' below 500, '500-999' up to 999
    (a band's upper number is in it), '2000+' from 2000, 'over 1000' above 1000; None when a band is not
    one of those. A row in no band (or with no number) has none."""
    value = sqlglot.parse_one(column, read=dialect)
    cases = []
    for band in bands:
        said = _BAND.fullmatch(band.strip())
        if said is None:
            return None
        if said["u"] is not None:
            test: exp.Expr = exp.LT(this=value.copy(), expression=exp.Literal.number(said["u"]))
        elif said["hi"] is not None:
            test = exp.Between(this=value.copy(), low=exp.Literal.number(said["lo"]),
                               high=exp.Literal.number(said["hi"]))
        elif said["from"] is not None:
            test = exp.GTE(this=value.copy(), expression=exp.Literal.number(said["from"]))
        else:
            test = exp.GT(this=value.copy(), expression=exp.Literal.number(said["over"]))
        cases.append(exp.If(this=test, true=exp.Literal.string(band)))
    return exp.Case(ifs=cases).sql(dialect=dialect)


def problems_of(definitions: list[Definition], model: SemanticModel) -> list[str]:
    """What makes a definition unusable, as sentences: an intent from an LLM is held to the same
    rule as one from the parser (columns of its own table, numbers, arithmetic, one comparison)."""
    if not definitions:
        return []  # most intents define nothing: the model's column words (~1 ms to gather) are not needed
    found = []
    words = column_words(model)
    dialect = model.project.dialect if model.project else "duckdb"
    for definition in definitions:
        if definition.table not in model.table_by_name:
            found.append(f"'{definition.label}' is defined on '{definition.table}', which is not a table of the model.")
            continue
        if definition.related is not None:
            found += related_problems(definition.label, definition.table, definition.related, model) if \
                definition.kind == "condition" else [f"'{definition.label}' counts related rows, so it is a condition."]
            continue
        if definition.kind == "filtered":
            found += _filtered_problems(definition, model)
            continue
        if definition.kind == "ratio":
            defined = {d.name for d in definitions if d.kind in ("measure", "filtered", "ratio")}
            missing = [m for m in (definition.numerator, definition.denominator)
                       if m not in model.metric_by_name and m not in defined]
            if missing:
                found.append(f"'{definition.label}' divides metrics the model does not have: {', '.join(map(str, missing))}.")
            continue
        if definition.first_end is not None:
            problems = first_end_problems(definition.label, definition.table, definition.first_end, model) \
                if definition.kind == "measure" else [f"'{definition.label}' reads a date of related rows, so it is a measure."]
            if problems:
                found += problems
                continue
        if definition.weekdays:  # rebuilt from the days said, over the table's own date
            rebuilt = weekday_condition(model, definition.table, definition.weekdays, definition.label, definition.name)
            if rebuilt is None or rebuilt.expr != definition.expr:
                found.append(f"'{definition.label}' is a condition on days of the week I cannot read.")
            continue
        if definition.kind == "bands":  # the CASE is rebuilt from the bands said, over one column the rows reach
            known_column = any(t == definition.table and k == "numeric" and e == definition.column
                               for entries in words.values() for t, e, k in entries)
            if not known_column or definition.expr != bands_sql(definition.column, definition.bands, dialect):
                found.append(f"'{definition.label}' puts rows in bands I cannot read.")
            continue
        if definition.agg == "count_distinct":  # only the periods a table's rows fall on, built from its own date
            grain = definition.name.removeprefix(f"{definition.table}__").removesuffix("s_with_rows")
            if definition != period_count(model, definition.table, grain):
                found.append(f"'{definition.label}' counts something other than the periods its rows fall on.")
            continue
        try:
            tree = sqlglot.parse_one(definition.expr, read=dialect)
        except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
            found.append(f"'{definition.label}' is not a formula I can read.")
            continue
        allowed = _ALLOWED + (exp.DateDiff, exp.TimestampDiff, exp.Var, exp.Cast, exp.DataType, exp.Extract, exp.Interval,
                              exp.Sub)
        def known(column: exp.Column, table: str = definition.table,
                  first_end: FirstEnd | None = definition.first_end) -> bool:
            if first_end is not None and column.table == FIRST_END:
                return column.name.lower() == first_end.column.strip('"').lower()
            if column.table:  # by way of an entity: a table its rows belong to
                path = column.table.split("__")
                target = model.table_of_entity(path[-1])
                reached = model.join_path(table, target) if target else None
                if not target or not reached or [j.name[len(j.from_table) + 2:] for j in reached] != path:
                    return False
                table = target
            return any(t == table and e.strip('"').lower() == column.name.lower()
                       for entries in words.values() for t, e, _ in entries)

        if any(not isinstance(node, allowed) for node in tree.walk()) or \
                not all(known(c) for c in tree.find_all(exp.Column)):
            found.append(f"'{definition.label}' may only use columns of {definition.table}, numbers and arithmetic.")
    return found


def with_definitions(model: SemanticModel, definitions: list[Definition]) -> SemanticModel:
    """`model` with the definitions added (a copy; cached per model and definitions)."""
    definitions = [d for d in definitions if d.name not in model.metric_by_name
                   and d.name not in {dim.name for dim in model.dimensions}  # a model extended already
                   and (d.related is None or not related_problems(d.label, d.table, d.related, model))
                   and (d.first_end is None or not first_end_problems(d.label, d.table, d.first_end, model))]
    if not definitions or model.project is None:
        return model
    key = (id(model), tuple(d.model_dump_json() for d in definitions))
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is model:
        return cached[1]
    project: Project = model.project
    models = []
    for semantic_model in project.semantic_models:
        mine = [d for d in definitions if d.table == semantic_model.name]
        if not mine:
            models.append(semantic_model)
            continue
        measures = tuple(Measure(name=d.name, agg=d.agg, label=d.label,
                                 expr=first_end_sql(d.expr, d.table, d.first_end, model) if d.first_end else d.expr,
                                 agg_time_dimension=semantic_model.agg_time_dimension)
                         for d in mine if d.kind == "measure")
        measures += tuple(Measure(name=d.name, agg="sum_boolean", expr=_condition_sql(d, model), label=d.label,
                                  agg_time_dimension=semantic_model.agg_time_dimension)
                          for d in mine if d.kind == "filtered")
        flags = tuple(Dimension(name=d.name, type="categorical", label=d.label,
                                expr=related_sql(d.table, d.related, model) if d.related else d.expr,
                                meta={"kind": "flag", "defined": True}) for d in mine if d.kind == "condition")
        flags += tuple(Dimension(name=d.name, type="categorical", label=d.label, expr=d.expr,
                                 meta={"synonyms": [*_band_words(d.label)], "values": False})
                       for d in mine if d.kind == "bands")
        models.append(replace(semantic_model, measures=semantic_model.measures + measures,
                              dimensions=semantic_model.dimensions + flags))
    metrics = list(project.metrics) + [Metric(name=d.name, type="simple", label=d.label, measure=MeasureInput(d.name))
                                       for d in definitions if d.kind in ("measure", "filtered")]
    metrics += [Metric(name=d.name, type="ratio", label=d.label, numerator=MetricInput(str(d.numerator)),
                       denominator=MetricInput(str(d.denominator))) for d in definitions if d.kind == "ratio"]
    result = extended(model, Project(models, metrics, project.diagnostics, project.dialect))
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = (model, result)
    return result


_CACHE: dict[tuple[int, tuple[str, ...]], tuple[SemanticModel, SemanticModel]] = {}

def weekday_condition(model: SemanticModel, table: str, weekdays: list[int], label: str,
                      name: str) -> Definition | None:
    """Whether each row's own date falls on these days of the week ('weekends vs weekdays': the rows grouped
    by it), in the project's dialect; None when the table has no date of its own."""
    from agent.semantic.compile.sqlgen import iso_weekday  # the renderer's weekday; sqlgen knows no definitions

    spec = model.table_by_name.get(table)
    dated = model.dimension_by_name.get(spec.agg_time) if spec is not None and spec.agg_time else None
    own = next((s.expr for s in dated.sources if s.table == table and s.join is None), None) if dated else None
    if own is None or not weekdays or not set(weekdays) <= set(range(1, 8)):
        return None
    dialect = model.project.dialect if model.project is not None else "duckdb"
    day = iso_weekday(exp.cast(sqlglot.parse_one(own, read=dialect), "DATE"), dialect)
    condition = exp.In(this=day, expressions=[exp.Literal.number(d) for d in sorted(set(weekdays))])
    return Definition(name=name, label=label, table=table, kind="condition", expr=condition.sql(dialect=dialect),
                      weekdays=sorted(set(weekdays)))


def comparison_condition(model: SemanticModel, flt: Filter, name: str, label: str) -> Definition | None:
    """Whether each row meets one comparison of a number ('humidity > 90'), as a condition of the table that
    keeps the number (the rows grouped by it: 'when humidity was over 90 vs the rest'), built from `flt`, kept
    as its `where`; None when no table keeps the dimension as a column of its own."""
    from agent.semantic.compile.sqlgen import condition  # the renderer's comparisons; sqlgen knows no definitions

    dim = model.dimension_by_name.get(flt.field)
    own = next((s for s in dim.sources if s.join is None), None) if dim is not None else None
    if own is None:
        return None
    dialect = model.project.dialect if model.project is not None else "duckdb"
    sql = condition(flt.op, sqlglot.parse_one(own.expr, read=dialect), tuple(flt.values)).sql(dialect=dialect)
    return Definition(name=name, label=label, table=own.table, kind="condition", expr=sql, where=[flt])


def band_words() -> list[str]:
    """What people call the groups a number is cut into ('avg delay per band', 'how many in each bucket')."""
    from agent.text.vocabulary import english

    return [str(w) for w in english().get("band_words") or []]


def _band_words(label: str) -> list[str]:
    head = label.rsplit(" ", 1)[0]
    return [label, *band_words(), *(f"{head} {w}" for w in band_words())]


def _filtered_problems(definition: Definition, model: SemanticModel) -> list[str]:
    missing = [f.field for f in definition.where if _own_column(f.field, definition.table, model) is None]
    if missing or not definition.where:
        return [f"'{definition.label}' counts {definition.table} rows by what they do not hold: {', '.join(missing)}."]
    return []


def _own_column(field: str, table: str, model: SemanticModel) -> str | None:
    dim = model.dimension_by_name.get(field)
    return next((s.expr for s in dim.sources if s.table == table and s.join is None), None) if dim else None


def _condition_sql(definition: Definition, model: SemanticModel) -> str:
    """The conditions as SQL over the table's own columns, in the project's dialect."""
    from agent.semantic.compile.sqlgen import condition  # the renderer's comparisons; sqlgen knows no definitions

    dialect = model.project.dialect if model.project is not None else "duckdb"
    parts = [condition(f.op, sqlglot.parse_one(str(_own_column(f.field, definition.table, model)), read=dialect),
                       tuple(f.values)) for f in definition.where]
    return exp.and_(*parts).sql(dialect=dialect)


def _squash(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())
