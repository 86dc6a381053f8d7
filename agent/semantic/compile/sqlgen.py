"""Compile a metric query over a dbt semantic layer into one SQL statement, in any dialect.

The plan, in order:

1. Every requested metric is expanded into *leaves*: one measure with the filters, offset
   or cumulative window that reach it (a ratio's numerator and denominator, a derived
   metric's inputs; a metric's own filter is pushed down to all its leaves).
2. Leaves that share a semantic model, filters and time treatment are aggregated together
   in one CTE. **Fan-out guarantee:** a CTE reads the rows of its measures' own semantic
   model and joins other models only along many-to-one edges (a foreign entity to the
   model where that entity is primary, unique or natural), so each measured row appears
   once; it is then grouped by the requested dimensions. A dimension that can only be
   reached through a one-to-many edge is refused with a sentence, never joined.
3. The CTEs, each one row per group, are combined on the group-by columns (a keys CTE of
   their union, left-joined to each CTE with null-safe equality), so two measures from
   different models are never multiplied by each other's rows. Ratios are computed from
   the aggregated numerator and denominator (a ratio of sums, never an average of ratios).
4. Offsets (`offset_window`, period comparisons) aggregate the rows with their time moved
   forward by the window, so the value for period p is the value of p minus the window;
   time filters are applied to the moved time, so "June vs the month before" reads May.
   Cumulative leaves join each reported period to all rows up to its end (within the
   window, or since the start of the `grain_to_date` period); time filters choose the
   reported periods, not the rows summed.
5. Metric filters (HAVING), order, limit and top-N per group wrap the combined query.

Everything is built as a sqlglot expression tree and rendered once in the target dialect.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Literal

import sqlglot
from sqlglot import exp

from agent.errors import AssistantError
from agent.semantic.spec.dbt_spec import GRAIN_ORDER, Dimension, Metric, MetricInput, Project, SemanticModel
from agent.semantic.spec.where import ParsedFilter, Ref
from agent.warehouse.base import table_reference

DIALECTS = ("duckdb", "postgres", "mysql", "trino", "snowflake", "bigquery", "clickhouse")
# MetricFlow's date parts ('metric_time__extract_month'); extract_dow is ISO: 1 = Monday ... 7 = Sunday
DATE_PARTS = ("extract_year", "extract_quarter", "extract_month", "extract_day", "extract_dow", "extract_doy",
              "extract_hour")
# Dialects where a median or percentile is only approximate or needs a window: refused, not approximated.
_NO_EXACT_PERCENTILE = {"mysql", "trino", "bigquery"}
_OPS = {"=": exp.EQ, "!=": exp.NEQ, ">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}


class QueryError(AssistantError):
    """The query does not fit the semantic layer; the message says what is wrong."""

    code = "semantic_query"


def iso_weekday(date: exp.Expr, dialect: str) -> exp.Expr:
    """1 = Monday ... 7 = Sunday in every dialect (each spells it differently)."""
    if dialect == "postgres":
        return exp.Extract(this=exp.Var(this="ISODOW"), expression=date)
    if dialect == "mysql":
        return exp.Add(this=exp.Anonymous(this="WEEKDAY", expressions=[date]), expression=exp.Literal.number(1))
    return exp.DayOfWeekIso(this=date)


@dataclass(frozen=True)
class GroupBy:
    name: str  # a dimension, 'entity__dimension', an entity, or 'metric_time'
    grain: str | None = None
    shown: bool = True  # False: groups the rows (a thing's key beside its name) without being a column

    @property
    def alias(self) -> str:
        base = self.name.split("__")[-1] if self.name != "metric_time" else "metric_time"
        alias = f"{base}__{self.grain}" if self.grain else base
        return alias if self.shown else f"__key_{alias}"


@dataclass(frozen=True)
class MetricCondition:
    """A condition on an aggregated metric (SQL HAVING): 'more than 20,000 flights'."""

    metric: str
    op: str
    values: tuple[object, ...] = ()


@dataclass(frozen=True)
class Contrast:
    """One metric under two sets of conditions, set against each other: JFK vs Newark departures
    (ratio), Q2 minus Q1 (difference), June to July (pct_change: (first - second) / second * 100).
    A share is a ratio whose second side has no extra condition. `sides`: the names of the columns that
    show each side's own value before it (side_by_side: only those)."""

    name: str
    kind: Literal["ratio", "difference", "pct_change", "percent", "side_by_side"]  # percent: 100 * first / second
    metric: str
    first: tuple[ParsedFilter, ...]
    second: tuple[ParsedFilter, ...] = ()
    sides: tuple[str, str] | None = None


@dataclass(frozen=True)
class Query:
    metrics: tuple[str, ...]
    group_by: tuple[GroupBy, ...] = ()
    where: tuple[ParsedFilter, ...] = ()
    having: tuple[MetricCondition, ...] = ()
    order_by: tuple[tuple[str, bool], ...] = ()  # (metric or group-by alias, descending)
    limit: int | None = None
    limit_per: str | None = None  # top-N per group: the group-by alias the limit applies within
    compare: Literal["previous_period", "previous_year"] | None = None
    # compare along an ordinal group-by (a month number) instead of a time grain: the previous row's
    # value (LAG), with filters on that group-by applied after, so February still sees January
    compare_by: str | None = None
    contrasts: tuple[Contrast, ...] = ()
    count_rows: bool = False  # answer how many groups there are ('how many planes flew 400+ times')
    count_name: str = "groups"  # the column that count is in ('planes', 'days')
    share_of_total: bool = False  # each group's value as a percent of the sum over all groups
    # semantic models none of whose rows may point at a counted row ('customers who never ordered')
    absent: tuple[str, ...] = ()


@dataclass(frozen=True)
class Compiled:
    sql: str
    tables: list[str]
    columns: list[str]


# What the CTE builder reads a column with: (name, entity path, grain, shift, tagged) -> the expression.
ColumnOf = Callable[..., exp.Expr]
# A CTE's grouping: (semantic model, offset, cumulative settings, offset_to_grain).
CteKey = tuple[str, "tuple[int, str] | None", "tuple[tuple[int, str] | None, str | None, str] | None", "str | None"]
# A CTE: (name, query, whether it is shifted in time, the grain an offset_to_grain input starts at).
Cte = tuple[str, exp.Select, bool, "str | None"]
# How a time column is truncated to a grain.
Truncate = Callable[[exp.Expr, "str | None"], exp.Expr]


# -- leaves ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Leaf:
    measure: str
    filters: tuple[ParsedFilter, ...] = ()
    offset: tuple[int, str] | None = None
    # (window, grain_to_date, period_agg)
    cumulative: tuple[tuple[int, str] | None, str | None, str] | None = None
    fill: float | None = None
    to_grain: str | None = None  # offset_to_grain: the value at the start of this grain's period

    def cte_key(self, model: str) -> CteKey:
        return (model, self.offset, self.cumulative, self.to_grain)


@dataclass
class _Plan:
    project: Project
    dialect: str
    query: Query
    leaves: dict[_Leaf, str] = field(default_factory=dict)  # leaf -> column alias

    def leaf(self, leaf: _Leaf) -> exp.Expr:
        alias = self.leaves.setdefault(leaf, f"m{len(self.leaves)}")
        column: exp.Expr = exp.column(alias, table="__cte_of_" + alias)
        if leaf.fill is not None:
            column = exp.func("COALESCE", column, exp.Literal.number(leaf.fill))
        return column


def _metric_expr(plan: _Plan, name: str, filters: tuple[ParsedFilter, ...] = (),
                 offset: tuple[int, str] | None = None, seen: tuple[str, ...] = (),
                 to_grain: str | None = None) -> exp.Expr:
    if name in seen:
        raise QueryError(f"Metric '{name}' refers to itself.")
    metric = plan.project.metric_by_name.get(name)
    if metric is None:
        raise QueryError(f"'{name}' is not a metric of the semantic layer.")
    filters = filters + metric.filters
    seen = seen + (name,)
    if metric.type in ("simple", "cumulative"):
        assert metric.measure is not None
        cumulative = (metric.window, metric.grain_to_date, metric.period_agg) if metric.type == "cumulative" else None
        return plan.leaf(_Leaf(metric.measure.name, filters + metric.measure.filters, offset, cumulative,
                               metric.measure.fill_nulls_with, to_grain))
    if metric.type == "ratio":
        assert metric.numerator is not None and metric.denominator is not None
        num = _input_expr(plan, metric.numerator, filters, offset, seen, to_grain)
        den = _input_expr(plan, metric.denominator, filters, offset, seen, to_grain)
        return exp.Div(this=exp.cast(num, "DOUBLE"), expression=exp.func("NULLIF", den, exp.Literal.number(0)))
    tree = sqlglot.parse_one(metric.expr or "", read=plan.project.dialect)
    values = {(i.alias or i.name): _input_expr(plan, i, filters, offset, seen, to_grain) for i in metric.inputs}
    for column in list(tree.find_all(exp.Column)):
        if column.name in values:
            column.replace(exp.paren(values[column.name].copy()))
        else:
            raise QueryError(f"Metric '{name}' uses '{column.name}', which is not one of its input metrics.")
    return tree


def _input_expr(
    plan: _Plan,
    item: MetricInput,
    filters: tuple[ParsedFilter, ...],
    offset: tuple[int, str] | None,
    seen: tuple[str, ...],
    to_grain: str | None = None,
) -> exp.Expr:
    if item.offset_to_grain:
        if offset is not None or item.offset_window is not None or to_grain is not None:
            raise QueryError(f"offset_to_grain on '{item.name}' cannot be combined with another offset.")
        return _metric_expr(plan, item.name, filters + item.filters, None, seen, item.offset_to_grain)
    window = offset
    if item.offset_window is not None:
        if offset is not None and offset[1] != item.offset_window[1]:
            raise QueryError("Offsets in different grains cannot be stacked.")
        window = (item.offset_window[0] + (offset[0] if offset else 0), item.offset_window[1])
    return _metric_expr(plan, item.name, filters + item.filters, window, seen)


# -- the join graph -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Hop:
    entity: str
    target: SemanticModel


@dataclass(frozen=True)
class _Resolved:
    """How a dimension or entity is reached from a measure's model: the hops, then the SQL."""

    hops: tuple[_Hop, ...]
    model: SemanticModel
    expr: str
    dimension: Dimension | None


def _paths(project: Project, start: SemanticModel, max_hops: int = 4) -> list[tuple[_Hop, ...]]:
    """Every many-to-one path from `start` (breadth first, shortest first, no model twice)."""
    found: list[tuple[_Hop, ...]] = [()]
    queue: deque[tuple[SemanticModel, tuple[_Hop, ...]]] = deque([(start, ())])
    while queue:
        model, path = queue.popleft()
        if len(path) >= max_hops:
            continue
        visited = {start.name, *(h.target.name for h in path)}
        for entity in model.entities:
            for target in project.semantic_models:
                if target.name in visited:
                    continue
                key = target.entity(entity.name)
                if key is not None and key.type in ("primary", "unique", "natural"):
                    hop_path = path + (_Hop(entity.name, target),)
                    found.append(hop_path)
                    queue.append((target, hop_path))
    return found


def ways_to_reach(project: Project, start: str, name: str) -> list[tuple[str, ...]]:
    """The entity paths by which dimension `name` is reached from semantic model `start` when there are
    several equally short ones (the compiler would refuse it as ambiguous); else []."""
    model = project.model_by_name.get(start)
    if model is None:
        return []
    try:
        _resolve(project, model, name)
    except QueryError:
        found = [(path, path[-1].target if path else model) for path in _paths(project, model)]
        reached = [tuple(h.entity for h in path) for path, here in found if here.dimension(name) is not None]
        shortest = min((len(r) for r in reached), default=0)
        best = list(dict.fromkeys(r for r in reached if len(r) == shortest))
        return best if len(best) > 1 else []
    return []


def _resolve(project: Project, start: SemanticModel, name: str, entity_path: tuple[str, ...] = ()) -> _Resolved:
    """Find a dimension (or entity) by name from `start`, along many-to-one joins only."""
    options: list[_Resolved] = []
    for path in _paths(project, start):
        here = path[-1].target if path else start
        if entity_path and not _path_matches(tuple(h.entity for h in path), here, start, entity_path):
            continue
        dimension = here.dimension(name)
        if dimension is not None:
            options.append(_Resolved(path, here, dimension.expr, dimension))
            continue
        entity = here.entity(name)
        if entity is not None:
            options.append(_Resolved(path, here, entity.expr, None))
    if not options:
        reachable_elsewhere = any(m.dimension(name) or m.entity(name) for m in project.semantic_models)
        if reachable_elsewhere:
            raise QueryError(f"'{name}' cannot be combined with measures of '{start.name}' without counting "
                             "rows twice (it is only reachable through a one-to-many join).")
        raise QueryError(f"'{name}' is not a dimension of the semantic layer.")
    shortest = min(len(o.hops) for o in options)
    best = [o for o in options if len(o.hops) == shortest]
    if len({(tuple(h.entity for h in o.hops), o.model.name) for o in best}) > 1:
        choices = ", ".join("__".join([*(h.entity for h in o.hops), name]) for o in best)
        raise QueryError(f"'{name}' is ambiguous from '{start.name}': say which one ({choices}).")
    return best[0]


def _path_matches(hops: tuple[str, ...], here: SemanticModel, start: SemanticModel,
                  entity_path: tuple[str, ...]) -> bool:
    """Does 'entity__...__name' describe this join path? The path may start with the measure
    model's own entity ('flight__plane__seats'), may end with the target's ('plane__seats'), and one
    entity may name any path by way of it ('customer__r_name')."""
    own = (start.entity_name,) if start.entity_name else ()
    full = own + hops
    if len(entity_path) == 1 and entity_path[0] in full:
        return True  # 'customer__r_name': any path by way of the customer (the shortest wins)
    return entity_path in (hops, full) or (bool(hops) and hops[-len(entity_path):] == entity_path) or (
        not hops and here.entity_name is not None and entity_path == (here.entity_name,))


# -- the builder -------------------------------------------------------------------------------------------------

class _Builder:
    def __init__(self, plan: _Plan):
        self.plan = plan
        self.project = plan.project
        self.dialect = plan.dialect
        self.tables: list[str] = []

    # expressions -------------------------------------------------------------------------------------

    def parse(self, sql: str) -> exp.Expr:
        return sqlglot.parse_one(sql, read=self.project.dialect)

    def source(self, relation: str, alias: str) -> exp.Table:
        """The table a semantic model reads, as the warehouse names a table written so, under a quoted alias."""
        return table_reference(relation, self.dialect, alias)

    def qualified(self, sql: str, alias: str) -> exp.Expr:
        tree = self.parse(sql)
        for column in list(tree.find_all(exp.Column)):
            if not column.table:
                column.set("table", exp.to_identifier(alias, quoted=True))
        return tree

    def grain(self, expr: exp.Expr, grain: str | None) -> exp.Expr:
        if grain is None:
            return expr
        if grain == "hour":
            return exp.TimestampTrunc(this=exp.cast(expr, "TIMESTAMP"), unit=exp.Var(this="HOUR"))
        if grain in GRAIN_ORDER:
            # sqlglot's DateTrunc declares an __init__ without annotations
            truncated = exp.DateTrunc(  # type: ignore[no-untyped-call]
                this=exp.cast(expr, "DATE"), unit=exp.Var(this=grain.upper())
            )
            return exp.cast(truncated, "DATE")
        if grain == "extract_dow":
            return self.iso_weekday(exp.cast(expr, "DATE"))
        if grain not in DATE_PARTS:
            raise QueryError(f"'{grain}' is not a time grain ({', '.join(GRAIN_ORDER + DATE_PARTS)}).")
        part = grain.removeprefix("extract_").upper()
        if part == "DOY":
            return exp.DayOfYear(this=exp.cast(expr, "DATE"))
        return exp.Extract(this=exp.Var(this=part), expression=exp.cast(expr, "TIMESTAMP" if part == "HOUR" else "DATE"))

    def iso_weekday(self, date: exp.Expr) -> exp.Expr:
        return iso_weekday(date, self.dialect)

    def shifted(self, expr: exp.Expr, offset: tuple[int, str] | None) -> exp.Expr:
        if offset is None:
            return expr
        count, unit = offset
        if unit == "week":
            count, unit = count * 7, "day"
        if unit == "quarter":
            count, unit = count * 3, "month"
        moved = exp.DateAdd(this=exp.cast(expr, "TIMESTAMP" if unit == "hour" else "DATE"),
                            expression=exp.Literal.number(count), unit=exp.Var(this=unit.upper()))
        return moved

    # one CTE per group of leaves -------------------------------------------------------------------------------

    def cte(self, model: SemanticModel, leaves: list[tuple[_Leaf, str]]) -> exp.Select:
        alias = model.name
        joins: dict[tuple[str, ...], exp.Join] = {}
        offset = leaves[0][0].offset
        cumulative = leaves[0][0].cumulative
        time_dim = self.agg_time(model, leaves[0][0].measure)

        def column(name: str, entity_path: tuple[str, ...] = (), grain: str | None = None,
                   shift: bool = True, tagged: bool = False) -> exp.Expr:
            if name == "metric_time":
                if time_dim is None:
                    raise QueryError(f"The measures of '{model.name}' have no time dimension (agg_time_dimension).")
                *dated_path, name = time_dim.split("__")  # 'order__o_orderdate': the date of the row it belongs to
                entity_path = tuple(dated_path)
            try:
                found = _resolve(self.project, model, name, entity_path)
            except QueryError:
                tag = self.tag(model, name, joins) if tagged and not entity_path else None
                if tag is None:
                    raise
                return self.grain(tag, grain)
            table_alias = self.join_path(model, found.hops, joins)
            expr = self.qualified(found.expr, table_alias)
            is_agg_time = time_dim is not None and found.dimension is not None \
                and found.dimension.name == time_dim.split("__")[-1] \
                and tuple(h.entity for h in found.hops) == tuple(time_dim.split("__")[:-1])
            if shift and offset is not None and is_agg_time:
                expr = self.shifted(expr, offset)
            return self.grain(expr, grain)

        select: list[exp.Expr] = []
        group: list[exp.Expr] = []
        for item in self.plan.query.group_by:
            *path, name = item.name.split("__")
            expr = column(name, tuple(path), item.grain, tagged=True)
            select.append(exp.alias_(expr, item.alias, quoted=True))
            group.append(expr)

        def sql_of(ref: Ref) -> exp.Expr:
            return column(ref.name, ref.entity_path, ref.grain)

        where = [f for f in self.plan.query.where
                 if not (leaves[0][0].to_grain and self.is_time_filter(f, model))]  # the period start may lie outside
        conditions = [self.filter_condition(f, model, alias, sql_of) for f in where]
        conditions += [self.absent(model, alias, other) for other in self.plan.query.absent]
        # filters every leaf shares restrict the rows; the others only their own aggregate
        shared = [f for f in leaves[0][0].filters if all(f.text in {g.text for g in leaf.filters} for leaf, _ in leaves)]
        row_filters = [self.condition(f, sql_of) for f in shared]
        own = {name: [self.condition(f, sql_of) for f in leaf.filters if f.text not in {g.text for g in shared}]
               for leaf, name in leaves}
        source = self.source(model.relation, alias)
        self.tables.append(model.relation)
        for leaf, name in leaves:
            select.append(exp.alias_(self.aggregate(leaf.measure, alias, own[name], column), name, quoted=True))

        if cumulative is not None:
            return self.cumulative_cte(model, leaves, source, joins, column, conditions, row_filters, own)

        query = exp.select(*select).from_(source)
        for join in joins.values():
            query = query.join(join)
        restricted = conditions + row_filters
        if restricted:
            query = query.where(exp.and_(*restricted))
        if group:
            query = query.group_by(*group)
        return query

    def cumulative_cte(
        self,
        model: SemanticModel,
        leaves: list[tuple[_Leaf, str]],
        source: exp.Expr,
        joins: dict[tuple[str, ...], exp.Join],
        column: ColumnOf,
        conditions: list[exp.Expr],
        row_filters: list[exp.Expr],
        own: dict[str, list[exp.Expr]],
    ) -> exp.Select:
        """Reported periods (chosen by the time filters) joined to every row up to their first day
        (period_agg 'first') or their end ('last')."""
        settings = leaves[0][0].cumulative
        assert settings is not None  # called for the leaves of a cumulative metric only
        window, to_date, period_agg = settings
        times = [g for g in self.plan.query.group_by if g.name == "metric_time"
                 or g.name.split("__")[-1] == self.agg_time(model, leaves[0][0].measure)]
        aggs = [exp.alias_(self.aggregate(leaf.measure, model.name, own[name], column), name, quoted=True)
                for leaf, name in leaves]
        if not times:  # no periods asked for: everything accumulated, i.e. a plain aggregate
            query = exp.select(*aggs).from_(source)
            for join in joins.values():
                query = query.join(join)
            where = conditions + row_filters
            return query.where(exp.and_(*where)) if where else query
        period = times[0]
        dated_by = self.project.model_by_name[model.name].dimension(self.agg_time(model, leaves[0][0].measure) or "")
        grain = period.grain or (dated_by.granularity if dated_by is not None else None) or "day"
        if grain not in GRAIN_ORDER:
            raise QueryError("A cumulative metric needs a time grain (day, week, month, quarter or year).")
        row_time = column(period.name.split("__")[-1], grain=grain)
        periods = exp.select(exp.alias_(row_time.copy(), "period", quoted=True)).distinct().from_(source.copy())
        for join in joins.values():
            periods = periods.join(join.copy())
        if conditions:
            periods = periods.where(exp.and_(*[c.copy() for c in conditions]))
        p = exp.column("period", table="__periods", quoted=True)
        # 'first' (MetricFlow's default): the value on the first day of each period, i.e. the rows up to
        # that day; 'last': the rows up to the period's end, i.e. every row of a period not after it
        non_time = [c for c, f in zip(conditions, self.plan.query.where) if not self.is_time_filter(f, model)]
        reach, bound = row_time, p.copy()
        bound_expr: exp.Expr = bound
        if period_agg == "first" and grain in ("week", "month", "quarter", "year"):
            reach = column(period.name.split("__")[-1], grain="day")
            # the period where the data starts reports its first day with data, as MetricFlow does
            first = exp.select(exp.Min(this=reach.copy())).from_(source.copy())
            for join in joins.values():
                first = first.join(join.copy())
            if non_time + row_filters:
                first = first.where(exp.and_(*[c.copy() for c in non_time + row_filters]))
            bound_expr = exp.func("GREATEST", p.copy(), first.subquery())
        on: list[exp.Expr] = [exp.LTE(this=reach.copy(), expression=bound_expr)]
        if window is not None:
            on.append(exp.GT(this=reach.copy(), expression=self.shifted(bound.copy(), (-window[0], window[1]))))
        if to_date is not None:
            on.append(exp.EQ(this=self.grain(reach.copy(), to_date), expression=self.grain(p.copy(), to_date)))
        others = [g for g in self.plan.query.group_by if g is not period]
        select = [exp.alias_(p.copy(), period.alias, quoted=True)]
        group: list[exp.Expr] = [p.copy()]
        for item in others:
            *path, name = item.name.split("__")
            expr = column(name, tuple(path), item.grain)
            select.append(exp.alias_(expr, item.alias, quoted=True))
            group.append(expr.copy())
        query = exp.select(*select, *aggs).from_(periods.subquery("__periods"))
        query = query.join(source, on=exp.and_(*on), join_type="inner")
        for join in joins.values():
            query = query.join(join)
        where = non_time + row_filters
        if where:
            query = query.where(exp.and_(*where))
        return query.group_by(*group)

    def tag(self, model: SemanticModel, name: str, joins: dict[tuple[str, ...], exp.Join]) -> exp.Expr | None:
        """A dimension of a link table (dbt meta `bridge`: 'genre' of movie_genres) that tags this model's rows
        through an entity both have: joined so each row counts once in each of its tags ('average rating by
        genre'). Only for grouping: a filter on a tag stays a semi-join, and other one-to-many joins are refused."""
        for other in self.project.semantic_models:
            dimension = other.dimension(name)
            if dimension is None or other is model:
                continue
            for entity in other.meta.get("bridge") or ():
                here, there = model.entity(entity), other.entity(entity)
                if here is None or there is None:
                    continue
                alias = f"{other.name}__tag"
                if ("__tag", other.name) not in joins:
                    on = exp.EQ(this=self.qualified(there.expr, alias), expression=self.qualified(here.expr, model.name))
                    # inner: a row with no tag is in no tag's group
                    joins[("__tag", other.name)] = exp.Join(this=self.source(other.relation, alias), on=on)
                    self.tables.append(other.relation)
                return self.qualified(dimension.expr, alias)
        return None

    def filter_condition(
        self, parsed: ParsedFilter, model: SemanticModel, alias: str, sql_of: Callable[[Ref], exp.Expr]
    ) -> exp.Expr:
        """A filter on this model's rows; one on a model whose rows point here (one-to-many) becomes
        a semi-join, `key IN (SELECT key FROM other WHERE ...)`, which can never multiply rows."""
        try:
            return self.condition(parsed, sql_of)
        except QueryError:
            names = {r.name for r in parsed.refs}
            # this model's own thing first ('movies' whose genre...), then the things its rows belong to
            # ('ratings of movies whose genre...')
            entities = [e for e in (model.primary,) if e is not None]
            entities += [e for e in model.entities if e is not model.primary]
            for entity in entities:
                for other in self.project.semantic_models:
                    key = other.entity(entity.name)
                    if other is model or key is None or not all(other.dimension(n) for n in names):
                        continue
                    if entity is not model.primary and not other.meta.get("bridge"):
                        continue  # only a link table's tags say something of the thing itself
                    inner_alias = f"{other.name}__semi"
                    inner = exp.select(self.qualified(key.expr, inner_alias)).from_(
                        self.source(other.relation, inner_alias))
                    inner = inner.where(self.condition(parsed, self._on_model(other, inner_alias)))
                    self.tables.append(other.relation)
                    return exp.In(this=self.qualified(entity.expr, alias), query=inner.subquery())
            raise

    def absent(self, model: SemanticModel, alias: str, other_name: str) -> exp.Expr:
        """NOT EXISTS a row of `other_name` pointing at this row: an anti-join that cannot multiply rows."""
        entity = model.primary
        other = self.project.model_by_name.get(other_name)
        key = other.entity(entity.name) if other is not None and entity is not None else None
        if other is None or key is None or entity is None:
            raise QueryError(f"'{other_name}' has no rows that point at '{model.name}' rows.")
        inner_alias = f"{other.name}__absent"
        inner = exp.select(exp.Literal.number(1)).from_(self.source(other.relation, inner_alias)).where(
            exp.EQ(this=self.qualified(key.expr, inner_alias), expression=self.qualified(entity.expr, alias)))
        self.tables.append(other.relation)
        return exp.Not(this=exp.Exists(this=inner))

    def is_time_filter(self, parsed: ParsedFilter, model: SemanticModel) -> bool:
        names = {r.name for r in parsed.refs}
        return bool(names & {"metric_time", *(d.name for d in model.dimensions if d.type == "time")})

    def agg_time(self, model: SemanticModel, measure: str) -> str | None:
        return self.project.measure(measure).agg_time_dimension or model.agg_time_dimension

    def join_path(self, model: SemanticModel, hops: tuple[_Hop, ...], joins: dict[tuple[str, ...], exp.Join]) -> str:
        here, here_alias = model, model.name
        for i in range(len(hops)):
            key = tuple(h.entity for h in hops[: i + 1])
            hop = hops[i]
            alias = "__".join(key)
            if key not in joins:
                near, far = here.entity(hop.entity), hop.target.entity(hop.entity)
                if near is None or far is None:  # a hop is found through an entity both models have
                    raise QueryError(f"'{hop.entity}' does not join {here.name} to {hop.target.name}.")
                left = self.qualified(near.expr, here_alias)
                right = self.qualified(far.expr, alias)
                table = self.source(hop.target.relation, alias)
                joins[key] = exp.Join(this=table, kind="LEFT", on=exp.EQ(this=left, expression=right))
                self.tables.append(hop.target.relation)
            here, here_alias = hop.target, alias
        return here_alias

    def _on_model(self, model: SemanticModel, alias: str) -> Callable[[Ref], exp.Expr]:
        """A filter's references read as `model`'s own dimensions under `alias` (a semi-join's rows)."""

        def sql_of(ref: Ref) -> exp.Expr:
            dimension = model.dimension(ref.name)
            if dimension is None:  # the semi-join is chosen for a model that has every name
                raise QueryError(f"'{ref.name}' is not a dimension of {model.name}.")
            return self.grain(self.qualified(dimension.expr, alias), ref.grain)

        return sql_of

    def condition(self, parsed: ParsedFilter, sql_of: Callable[[Ref], exp.Expr]) -> exp.Expr:
        tree = parsed.condition.copy()
        holders = parsed.placeholders()
        for column in list(tree.find_all(exp.Column)):
            ref = holders.get(column.name)
            if ref is not None:
                column.replace(_atomic(sql_of(ref)))
        return tree

    def aggregate(self, measure_name: str, alias: str, only_where: Sequence[exp.Expr] = (),
                  reach: ColumnOf | None = None) -> exp.Expr:
        """The measure's aggregate; `only_where` limits it to some rows (CASE WHEN ... THEN value END,
        which every aggregate skips as NULL), so measures with different filters share one scan.
        A column qualified by an entity path ('order.o_orderdate', a question's own definition) is
        read from the row this one belongs to, through the many-to-one join `reach` adds."""
        measure = self.project.measure(measure_name)
        tree = self.parse(measure.expr)
        owner = self.project.measure_owner.get(measure_name)
        own = {alias, owner.relation.split(".")[-1]} if owner is not None else {alias}
        for column in list(tree.find_all(exp.Column)):
            if column.table and reach is not None and column.table not in own:
                try:
                    column.replace(reach(column.name, tuple(column.table.split("__"))))
                except QueryError:
                    pass  # a table name written in the YAML's SQL: left as written
            elif not column.table:
                column.set("table", exp.to_identifier(alias, quoted=True))
        value = tree
        agg = measure.agg
        if agg == "sum_boolean":
            value = exp.Case(ifs=[exp.If(this=value, true=exp.Literal.number(1))], default=exp.Literal.number(0))
            agg = "sum"
        if only_where:
            value = exp.Case(ifs=[exp.If(this=exp.and_(*[c.copy() for c in only_where]), true=value)])
        if agg == "sum":
            return exp.Sum(this=value)
        if agg == "count":
            return exp.Count(this=value)
        if agg == "count_distinct":
            return exp.Count(this=exp.Distinct(expressions=[value]))
        if agg == "average":
            return exp.Avg(this=value)
        if agg == "min":
            return exp.Min(this=value)
        if agg == "max":
            return exp.Max(this=value)
        if self.dialect in _NO_EXACT_PERCENTILE:
            raise QueryError(f"{self.dialect.capitalize()} has no exact {agg} aggregate, so '{measure.name}' "
                             "cannot be computed there.")
        fraction = 0.5 if agg == "median" else float(measure.percentile or 0.5)
        kind = exp.PercentileDisc if measure.discrete_percentile else exp.PercentileCont
        return exp.WithinGroup(this=kind(this=exp.Literal.number(fraction)),
                               expression=exp.Order(expressions=[exp.Ordered(this=value)]))


_PATTERNS = {"starts_with": "{}%", "ends_with": "%{}", "contains": "%{}%"}


def condition(op: str, left: exp.Expr, values: tuple[object, ...]) -> exp.Expr:
    """`left <op> values` as the compiler writes a filter ('rating = 5', 'origin IN (...)')."""
    return _op(op, left, values)


def _op(op: str, left: exp.Expr, values: tuple[object, ...]) -> exp.Expr:
    lits = [_literal(v) for v in values]
    if op == "!=" and len(values) == 1 and isinstance(values[0], bool):
        # 'not a test agent': a row with no agent at all (NULL) is not one either, and stays
        return exp.NEQ(this=exp.Coalesce(this=left, expressions=[_literal(not values[0])]), expression=lits[0])
    if op in _OPS:
        return _OPS[op](this=left, expression=lits[0])
    if op == "between":
        return exp.Between(this=left, low=lits[0], high=lits[1])
    if op == "in":
        return exp.In(this=left, expressions=lits)
    if op in _PATTERNS:  # case-blind on every engine: 'ends in brass' finds 'BRASS'
        text = str(values[0]).lower()
        wild = any(c in text for c in "%_!")
        if wild:  # a literal % or _ in what was typed is matched as itself
            text = text.replace("!", "!!").replace("%", "!%").replace("_", "!_")
        like = exp.Like(this=exp.Lower(this=left), expression=exp.Literal.string(_PATTERNS[op].format(text)))
        return exp.Escape(this=like, expression=exp.Literal.string("!")) if wild else like
    if op == "is_null":
        return exp.Is(this=left, expression=exp.Null())
    if op == "not_null":
        return exp.Not(this=exp.Is(this=left, expression=exp.Null()))
    raise QueryError(f"'{op}' is not a comparison the compiler knows.")


def _literal(value: object) -> exp.Expr:
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, date):
        return exp.cast(exp.Literal.string(value.isoformat()), "DATE")
    if not isinstance(value, (int, float)):
        return exp.Literal.string(str(value))
    return exp.Literal.number(value)


# -- the whole query ---------------------------------------------------------------------------------------------

def compile_query(project: Project, query: Query, dialect: str = "duckdb") -> Compiled:
    if dialect not in DIALECTS:
        raise QueryError(f"Dialect '{dialect}' is not one of {', '.join(DIALECTS)}.")
    if not query.metrics and not query.contrasts:
        raise QueryError("The query names no metric.")
    deferred: list[ParsedFilter] = []
    if query.compare and query.compare_by:
        if query.compare_by not in {g.alias for g in query.group_by}:
            raise QueryError("A comparison with the previous row needs that column among the group-bys.")
        dated = {(m.agg_time_dimension or "").split("__")[-1] for m in project.semantic_models} - {""}
        compare_by = query.compare_by

        def compared_part(ref: Ref) -> str:  # a filter on the measures' own date at the compared grain is that grain
            name = "metric_time" if ref.name in dated and compare_by.startswith("metric_time__") else ref.name
            return f"{name}__{ref.grain}" if ref.grain else name

        deferred = [f for f in query.where if {compared_part(r) for r in f.refs} == {query.compare_by}]
        query = replace(query, where=tuple(f for f in query.where if f not in deferred))
    plan = _Plan(project, dialect, query)
    outputs: list[tuple[str, exp.Expr]] = []
    time_groups = [g for g in query.group_by if g.grain in GRAIN_ORDER or g.name == "metric_time"]
    for contrast in query.contrasts:
        first = _metric_expr(plan, contrast.metric, filters=contrast.first)
        second = _metric_expr(plan, contrast.metric, filters=contrast.second)
        if contrast.sides is not None:
            outputs += [(contrast.sides[0], first.copy()), (contrast.sides[1], second.copy())]
        if contrast.kind != "side_by_side":
            outputs.append((contrast.name, _contrast(contrast.kind, first, second)))
    for name in query.metrics:
        outputs.append((name, _metric_expr(plan, name)))
        if query.compare and query.compare_by:
            continue  # computed over the combined rows below
        if query.compare:
            if not time_groups:
                raise QueryError("A comparison with an earlier period needs the answer grouped by a time grain.")
            grain = time_groups[0].grain or "day"
            offset = (1, "year") if query.compare == "previous_year" else (1, grain)
            current = outputs[-1][1]
            previous = _metric_expr(plan, name, offset=offset)
            outputs += [
                (f"{name}__previous", previous),
                (f"{name}__change", exp.Sub(this=current.copy(), expression=previous.copy())),
                (f"{name}__pct_change", exp.Mul(this=exp.Div(
                    this=exp.cast(exp.Sub(this=current.copy(), expression=previous.copy()), "DOUBLE"),
                    expression=exp.func("NULLIF", previous.copy(), exp.Literal.number(0))),
                    expression=exp.Literal.number(100))),
            ]

    if query.share_of_total:
        if not query.group_by:
            raise QueryError("A share of the total needs groups to share it out (by what?).")
        for name in query.metrics:
            value = next(expr for output, expr in outputs if output == name)
            # over the grouped rows, before any LIMIT, so a top 10's shares are of the whole total
            total = exp.Window(this=exp.Sum(this=value.copy()), over="OVER")
            outputs.append((f"{name}__share", exp.Mul(this=exp.Div(
                this=exp.cast(value.copy(), "DOUBLE"), expression=exp.func("NULLIF", total, exp.Literal.number(0))),
                expression=exp.Literal.number(100))))

    builder = _Builder(plan)
    groups: dict[CteKey, list[tuple[_Leaf, str]]] = {}
    owners: dict[CteKey, SemanticModel] = {}
    for leaf, alias in plan.leaves.items():
        owner = project.measure_owner.get(leaf.measure)
        if owner is None:
            raise QueryError(f"Measure '{leaf.measure}' is not defined in any semantic model.")
        key = leaf.cte_key(owner.name)
        groups.setdefault(key, []).append((leaf, alias))
        owners[key] = owner
    ctes: list[Cte] = []
    cte_of: dict[str, str] = {}
    for n, (key, leaves) in enumerate(groups.items()):
        name = f"__q{n}"
        leaf = leaves[0][0]
        ctes.append((name, builder.cte(owners[key], leaves), leaf.offset is not None or leaf.to_grain is not None,
                     leaf.to_grain))
        for _, alias in leaves:
            cte_of[alias] = name

    keys = [g.alias for g in query.group_by]
    time_keys = {g.alias for g in query.group_by if g.grain in GRAIN_ORDER}
    if any(c[3] for c in ctes) and not time_keys:
        raise QueryError("offset_to_grain needs the answer grouped by a time grain.")
    outer, union = _combine(ctes, keys, time_keys, builder.grain)
    for name, expr in outputs:
        expr = expr.copy()
        for column in list(expr.find_all(exp.Column)):
            if column.table.startswith("__cte_of_"):
                column.set("table", exp.to_identifier(cte_of[column.name]))
                column.set("this", exp.to_identifier(column.name, quoted=True))
        outer = outer.select(exp.alias_(expr, name, quoted=True))
    columns = [g.alias for g in query.group_by if g.shown] + [name for name, _ in outputs]
    if query.compare and query.compare_by:
        outer, columns = _previous_row(outer, query, columns, deferred)
    outer = _wrap(outer, query, columns, plan)
    for cte_name, cte_query, *_ in ctes:
        outer = outer.with_(cte_name, as_=cte_query)
    if union is not None:
        outer = outer.with_("__keys", as_=union)
    sql = outer.sql(dialect=dialect, pretty=True)
    return Compiled(sql=sql, tables=list(dict.fromkeys(builder.tables)), columns=columns)


def _contrast(kind: str, first: exp.Expr, second: exp.Expr) -> exp.Expr:
    if kind == "difference":
        return exp.Sub(this=first, expression=second)
    denominator = exp.func("NULLIF", second.copy(), exp.Literal.number(0))
    if kind == "ratio":
        return exp.Div(this=exp.cast(first, "DOUBLE"), expression=denominator)
    if kind == "percent":
        return exp.Mul(this=exp.Div(this=exp.cast(first, "DOUBLE"), expression=denominator),
                       expression=exp.Literal.number(100))
    change = exp.cast(exp.paren(exp.Sub(this=first, expression=second)), "DOUBLE")
    return exp.Mul(this=exp.Div(this=change, expression=denominator), expression=exp.Literal.number(100))


def _previous_row(
    outer: exp.Select, query: Query, columns: list[str], deferred: list[ParsedFilter]
) -> tuple[exp.Select, list[str]]:
    """Each metric beside its value in the previous row along `compare_by` (LAG), then the
    filters on `compare_by`, so the first reported row still has its predecessor."""
    by = query.compare_by
    assert by is not None  # called for a query that compares rows only
    others = [g.alias for g in query.group_by if g.alias != by]
    inner = outer.subquery("__grouped")
    select: list[exp.Expr] = [exp.column(c, quoted=True) for c in columns]
    names = list(columns)
    for metric in query.metrics:
        current = exp.column(metric, quoted=True)
        previous = exp.Window(this=exp.Anonymous(this="LAG", expressions=[current.copy()]),
                              partition_by=[exp.column(o, quoted=True) for o in others] or None,
                              order=exp.Order(expressions=[exp.Ordered(this=exp.column(by, quoted=True))]))
        select += [exp.alias_(previous, f"{metric}__previous", quoted=True),
                   exp.alias_(exp.Sub(this=current.copy(), expression=previous.copy()), f"{metric}__change", quoted=True),
                   exp.alias_(_contrast("pct_change", current.copy(), previous.copy()), f"{metric}__pct_change",
                              quoted=True)]
        names += [f"{metric}__previous", f"{metric}__change", f"{metric}__pct_change"]
    compared = exp.select(*select).from_(inner)
    result = exp.select(*[exp.column(n, quoted=True) for n in names]).from_(compared.subquery("__compared"))
    conditions: list[exp.Expr] = []
    for parsed in deferred:
        tree = parsed.condition.copy()
        for column in list(tree.find_all(exp.Column)):
            if column.name in parsed.placeholders():
                column.replace(exp.column(by, quoted=True))
        conditions.append(tree)
    if conditions:
        result = result.where(exp.and_(*conditions))
    return result, names


def _combine(
    ctes: list[Cte], keys: list[str], time_keys: AbstractSet[str] = frozenset(), truncate: Truncate | None = None
) -> tuple[exp.Select, exp.Expr | None]:
    """One row per group: straight from a single CTE, else a keys CTE (returned second) joined to each.
    A CTE of an offset_to_grain input joins each period to the start of its grain's period."""
    if len(ctes) == 1 and not ctes[0][3]:
        name = ctes[0][0]
        return exp.select(*[exp.column(k, table=name, quoted=True) for k in keys]).from_(name), None
    if not keys:
        outer = exp.select().from_(ctes[0][0])
        for name, *_ in ctes[1:]:
            outer = outer.join(name, join_type="cross")
        return outer, None
    sources = [c for c in ctes if not c[2]] or ctes  # offset rows never add periods of their own
    union: exp.Expr = exp.select(*[exp.column(k, quoted=True) for k in keys]).from_(sources[0][0])
    for name, *_ in sources[1:]:
        union = exp.union(union, exp.select(*[exp.column(k, quoted=True) for k in keys]).from_(name), distinct=True)
    outer = exp.select(*[exp.column(k, table="__keys", quoted=True) for k in keys]).from_("__keys")
    for name, _, _, to_grain in ctes:
        on = []
        for k in keys:
            key: exp.Expr = exp.column(k, table="__keys", quoted=True)
            if to_grain and k in time_keys and truncate is not None:
                key = truncate(key, to_grain)
            on.append(exp.NullSafeEQ(this=key, expression=exp.column(k, table=name, quoted=True)))
        outer = outer.join(name, on=exp.and_(*on), join_type="left")
    return outer, union


def _wrap(outer: exp.Select, query: Query, columns: list[str], plan: _Plan) -> exp.Select:
    """HAVING, top-N per group, order and limit, on the combined rows by their names."""
    names = set(columns)
    for item in query.having:
        if item.metric not in names:
            raise QueryError(f"A condition on '{item.metric}' needs it among the metrics asked for.")
    for name, _ in query.order_by:
        if name not in names:
            raise QueryError(f"Ordering by '{name}' needs it among the metrics or group-bys.")
    order = [exp.Ordered(this=exp.column(n, quoted=True), desc=d, nulls_first=False) for n, d in query.order_by]
    order += [exp.Ordered(this=exp.column(g.alias, quoted=True), nulls_first=False)
              for g in query.group_by if g.alias not in dict(query.order_by)]
    needs_wrapper = bool(query.having or query.limit_per or query.count_rows
                         or not all(g.shown for g in query.group_by))  # a key grouped on, not shown
    if not needs_wrapper:
        if order:
            outer = outer.order_by(*order)
        return outer.limit(query.limit) if query.limit is not None else outer
    inner = outer.subquery("__result")
    wrapped = exp.select(*[exp.column(c, quoted=True) for c in columns]).from_(inner)
    conditions = [_op(h.op, exp.column(h.metric, quoted=True), h.values) for h in query.having]
    if query.limit_per:
        if query.limit is None or query.limit_per not in names:
            raise QueryError("Top-N per group needs a number and a group-by to rank within.")
        rank = exp.Window(this=exp.RowNumber(), partition_by=[exp.column(query.limit_per, quoted=True)],
                          order=exp.Order(expressions=[o.copy() for o in order]))
        ranked = exp.select("*", exp.alias_(rank, "__rank", quoted=True)).from_(inner)
        if conditions:
            ranked = ranked.where(exp.and_(*conditions))
        wrapped = exp.select(*[exp.column(c, quoted=True) for c in columns]).from_(ranked.subquery("__ranked"))
        wrapped = wrapped.where(exp.LTE(this=exp.column("__rank", quoted=True),
                                        expression=exp.Literal.number(query.limit)))
        order = [exp.Ordered(this=exp.column(query.limit_per, quoted=True), nulls_first=False)] + [
            o for o in order if o.this.name != query.limit_per]
        return wrapped.order_by(*order)
    if conditions:
        wrapped = wrapped.where(exp.and_(*conditions))
    if query.count_rows:
        return exp.select(exp.alias_(exp.Count(this=exp.Star()), query.count_name, quoted=True)).from_(
            wrapped.subquery("__groups"))
    if order:
        wrapped = wrapped.order_by(*order)
    return wrapped.limit(query.limit) if query.limit is not None else wrapped


def replace_grain(group: GroupBy, grain: str | None) -> GroupBy:
    return replace(group, grain=grain)


def dimension_filter(name: str, op: str, values: tuple[object, ...], grain: str | None = None) -> ParsedFilter:
    """A structured filter ('origin = JFK') as the same placeholder form the YAML filters use."""
    *path, element = name.split("__")
    ref = Ref("time_dimension" if grain else "dimension", element, tuple(path), grain)
    return ParsedFilter(text=f"{name}{'__' + grain if grain else ''} {op} {list(values)}",
                        condition=_op(op, exp.column("__ref_0"), values), refs=(ref,))


def metric_of(project: Project, name: str) -> Metric:
    return project.metric_by_name[name]


def _atomic(node: exp.Expr) -> exp.Expr:
    """A dimension's SQL standing in for one column of a filter: a condition or arithmetic in
    parentheses, so `attrition = 'Yes'` compared with TRUE stays `(attrition = 'Yes') = TRUE`."""
    if isinstance(node, (exp.Column, exp.Literal, exp.Func, exp.Paren, exp.Cast, exp.Dot, exp.Boolean)):
        return node
    return exp.Paren(this=node)
