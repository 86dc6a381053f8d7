"""Compile a StructuredIntent into one deterministic query in the warehouse's dialect.

The intent is checked against the parser's view of the model, then handed to `sqlgen` as a
metric query over the dbt semantic layer: dimensions become group-bys, value and calendar
filters become filters on dimensions, and the plan there guarantees measures are never
multiplied by joins. The same intent always gives the same SQL.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from agent.errors import AssistantError
from agent.semantic.compile.definitions import with_definitions
from agent.semantic.compile.intent import (StructuredIntent, base_table, contrast_columns, contrast_suffix,
                                           validate_intent)
from agent.semantic.model.runtime import SemanticModel, TableSpec
from agent.semantic.compile.reading import describe
from agent.semantic.compile.intent import Filter, MonthDay, Side, TimeFilter
from agent.semantic.compile.sqlgen import Contrast, GroupBy, MetricCondition, Query, QueryError, compile_query, dimension_filter
from agent.semantic.spec.where import ParsedFilter, Ref
from agent.text.words import plural_phrase


class IntentError(AssistantError):
    """The intent does not fit the semantic model; the message says what is wrong. `problems`: what
    `validate_intent` found, each sentence on its own, when the intent failed it ([] when it failed later)."""

    code = "intent"

    def __init__(self, user_message: str, *, problems: list[str] | None = None) -> None:
        super().__init__(user_message)
        self.problems = problems or []


@dataclass(frozen=True)
class CompiledQuery:
    sql: str
    tables: list[str]
    reason: str



def within_one_year(time: TimeFilter | None) -> bool:
    """The rows are of one calendar year: a month number (or a weekday) names one period of it, and the same one a
    year earlier is that period shifted by a year."""
    if time is None:
        return False
    if time.year is not None and not time.years:
        return True
    return time.start is not None and time.end is not None and time.start.year == time.end.year

def compile_intent(intent: StructuredIntent, model: SemanticModel, dialect: str = "duckdb") -> CompiledQuery:
    problems = validate_intent(intent, model)  # on the model as given: it adds the definitions itself
    if problems:
        raise IntentError(" ".join(problems), problems=problems)
    model = with_definitions(model, intent.definitions)
    table = base_table(intent, model)
    assert table is not None  # validate_intent guarantees one base table
    filters = _filters(intent.filters, intent.time, model, table, intent.time_dimension)
    if intent.drop_unknown_groups:
        filters += [dimension_filter(d, "not_null", ()) for d in intent.dimensions if model.time_grain(d) is None]
    metrics = list(intent.metrics) + [h.metric for h in intent.having if h.metric not in intent.metrics]
    contrasts: tuple[Contrast, ...] = ()
    if intent.contrast is not None:
        c = intent.contrast
        kind = ("percent" if c.percent else "ratio") if c.kind == "share" else c.kind
        shown = contrast_columns(intent)
        contrasts = (Contrast(f"{c.metric}__{contrast_suffix(c)}", kind, c.metric,
                              tuple(_side(c.first, model, table, intent.time_dimension)),
                              tuple(_side(c.second, model, table, intent.time_dimension)),
                              sides=(shown[0], shown[1]) if len(shown) >= 2 else None),)
    groups = {d: _group_by(d, intent, model) for d in intent.dimensions}
    keys = _keys_of_names(intent, model)
    time_dims = [groups[d].alias for d in intent.dimensions if model.dimension_by_name[d].kind == "time"]
    by_year = time_dims and (time_dims[0].endswith("extract_year") or time_dims[0].split("__")[-1] == "year")
    if intent.compare == "previous_year" and time_dims and not by_year and not within_one_year(intent.time) and not any(
            g.grain in ("day", "week", "month", "quarter") for g in groups.values()):
        # the previous row of a month-number column is the month before, not the year before
        raise IntentError("A comparison with the same period a year earlier needs the answer by date "
                          "(months of each year), which this question's grouping does not give.")
    query = Query(
        metrics=tuple(metrics),
        group_by=(*groups.values(), *keys),
        where=tuple(filters),
        having=tuple(MetricCondition(h.metric, h.op, (h.value,)) for h in intent.having),
        order_by=tuple((groups[o.field].alias if o.field in groups else o.field, o.descending) for o in intent.order_by),
        limit=intent.limit,
        limit_per=groups[intent.limit_per].alias if intent.limit_per in groups else intent.limit_per,
        compare=intent.compare,
        # the previous row is the period before, and the year before only where the rows are years: a year
        # earlier of months is the same month shifted by a year (an offset), never the month before
        compare_by=time_dims[0] if intent.compare and time_dims and (intent.compare == "previous_period" or by_year)
        else None,
        contrasts=contrasts,
        count_rows=intent.count_groups,
        count_name=_counted_name(intent, model),
        share_of_total=intent.share_of_total,
        absent=tuple(intent.absent),
    )
    try:
        compiled = compile_query(model.project, query, dialect)
    except QueryError as exc:
        raise IntentError(str(exc)) from None
    joined = [t for t in compiled.tables if t != model.table_by_name[table].table]
    return CompiledQuery(sql=compiled.sql, tables=compiled.tables, reason=_reason(intent, model, table, joined))


def _keys_of_names(intent: StructuredIntent, model: SemanticModel) -> list[GroupBy]:
    """Things grouped by their name are told apart by their key too, so two films both called
    'Psycho' stay two rows; the key groups the rows and is not shown. Not when the groups are counted:
    'how many titles' counts names."""
    if intent.count_groups:
        return []
    keys: list[GroupBy] = []
    for name in intent.dimensions:
        dim = model.dimension_by_name[name]
        own = next((s.table for s in dim.sources if s.join is None), None)
        if dim.kind != "categorical" or dim.identifier or own is None or model.name_dimension(own) != name:
            continue
        dbt_model = model.project.model_by_name.get(own) if model.project is not None else None
        entity = dbt_model.entity_name if dbt_model is not None else None
        if entity and entity not in intent.dimensions and all(k.name != entity for k in keys):
            keys.append(GroupBy(entity, shown=False))
    return keys


def _group_by(name: str, intent: StructuredIntent, model: SemanticModel) -> GroupBy:
    """A time grain reads as people count it: years as numbers (1996), and months or quarters as
    numbers too when the question fixes the year ('monthly orders for 1996': 1..12) or the answer has
    a column for the year."""
    grain = model.time_grain(name)
    if grain is None:
        return GroupBy(name)
    base, unit = grain
    base = intent.time_dimension or base  # 'per year (by order date)'
    one_year = within_one_year(intent.time)  # '… for 1996', '… this year', 'jan-sep 2024
    # 'revenue by quarter, 2024 vs 2023': the year is a column of its own, so the quarter is a number too
    by_year = any((g := model.time_grain(d)) is not None and g[1] == "year" for d in intent.dimensions if d != name)
    if unit == "year" or ((one_year or by_year) and unit in ("month", "quarter")):
        return GroupBy(base, f"extract_{unit}")
    return GroupBy(base, unit)


def _filters(filters: list[Filter], time: TimeFilter | None, model: SemanticModel, table: str,
             dated_by: str | None = None) -> list[ParsedFilter]:
    return [dimension_filter(f.field, f.op, tuple(f.values)) for f in filters] + _time_filters(
        time, model, table, dated_by)


def _side(side: Side, model: SemanticModel, table: str, dated_by: str | None = None) -> list[ParsedFilter]:
    return _filters(side.filters, side.time, model, table, dated_by)


def _time_filters(time: TimeFilter | None, model: SemanticModel, table: str,
                  dated_by: str | None = None) -> list[ParsedFilter]:
    """Calendar words as filters: on the date the question names (`dated_by`), else on the table's
    calendar-part dimensions where the model names them (year, month, day, hour), else on date
    parts of its time dimension."""
    if time is None:
        return []
    if time.relative is not None and time.start is None:
        raise IntentError(f"“{time.relative.words}” needs the latest date in the data to count back from.")
    spec = model.table_by_name[table]
    filters = []
    parts = (("year", [time.year] if time.year is not None else time.years, "extract_year"),
             ("month", time.months, "extract_month"), ("day", time.days, "extract_day"),
             ("hour", time.hours, "extract_hour"), ("weekday", time.weekdays, "extract_dow"))
    for part, values, extract in parts:
        if values:
            filters.append(_set_filter(*_part(spec, table, part, extract, dated_by), values))
    for op, bound in ((">=", time.from_year), ("<=", time.until_year)):  # 'since 2010', 'before 2000'
        if bound is not None:
            name, grain = _part(spec, table, "year", "extract_year", dated_by)
            filters.append(dimension_filter(name, op, (bound,), grain))
    if time.from_day is not None and time.to_day is not None:
        filters.append(_day_run(_part(spec, table, "month", "extract_month", dated_by),
                                _part(spec, table, "day", "extract_day", dated_by), time.from_day, time.to_day))
    if time.start is not None and time.end is not None:
        dated = dated_by or spec.agg_time
        if not dated:
            raise IntentError(f"The {table} data has no date to filter a range of dates on.")
        filters.append(dimension_filter(dated, "between", (time.start, time.end), _day_grain(model, table, dated)))
    return filters


def _part(spec: TableSpec, table: str, part: str, extract: str, dated_by: str | None = None) -> tuple[str, str | None]:
    """The dimension (and date part) holding one calendar part: that part of the date the question
    names, else the model's own column where it names one ('month'), else that part of the table's date."""
    if dated_by is not None:
        return dated_by, extract
    if part in spec.time:
        return spec.time[part], None
    if spec.agg_time:
        return spec.agg_time, extract
    raise IntentError(f"The {table} data has no date to filter by {part}.")


def _day_grain(model: SemanticModel, table: str, name: str) -> str | None:
    """A date column is compared as it is; a timestamp is cut to its day first, so the last day of a
    range keeps its afternoon."""
    dbt_model = model.project.model_by_name.get(table) if model.project is not None else None
    dim = dbt_model.dimension(name) if dbt_model is not None else None
    return None if dim is not None and dim.granularity in ("day", "week", "month", "quarter", "year") else "day"


def _day_run(month: tuple[str, str | None], day: tuple[str, str | None], first: MonthDay, last: MonthDay) -> ParsedFilter:
    """Calendar days from `first` to `last` in any year: within one month a BETWEEN on the day; across
    months the end of the first month, the months in between, the start of the last (wrapping the year)."""
    month_ref, day_ref = (Ref("time_dimension" if g else "dimension", n.split("__")[-1],
                              tuple(n.split("__")[:-1]), g) for n, g in (month, day))
    m, d = exp.column("__ref_0"), exp.column("__ref_1")

    def month_is(number: int) -> exp.Expr:
        return exp.EQ(this=m.copy(), expression=exp.Literal.number(number))

    if first.month == last.month and first.day <= last.day:
        condition: exp.Expr = exp.and_(month_is(first.month), exp.Between(
            this=d.copy(), low=exp.Literal.number(first.day), high=exp.Literal.number(last.day)))
    else:
        between, number = [], first.month % 12 + 1
        while number != last.month:
            between.append(number)
            number = number % 12 + 1
        parts: list[exp.Expr] = [exp.paren(exp.and_(month_is(first.month), exp.GTE(this=d.copy(), expression=exp.Literal.number(
            first.day))))]
        if len(between) == 1:
            parts.append(month_is(between[0]))
        elif between:
            parts.append(exp.In(this=m.copy(), expressions=[exp.Literal.number(n) for n in between]))
        parts.append(exp.paren(exp.and_(month_is(last.month), exp.LTE(this=d.copy(), expression=exp.Literal.number(
            last.day)))))
        condition = exp.paren(exp.or_(*parts))
    text = f"days {first.month}/{first.day} to {last.month}/{last.day}"
    return ParsedFilter(text=text, condition=condition, refs=(month_ref, day_ref))


def _set_filter(name: str, grain: str | None, values: list[int]) -> ParsedFilter:
    """One value '=', a run of consecutive values BETWEEN, anything else IN."""
    if len(values) == 1:
        return dimension_filter(name, "=", (values[0],), grain)
    if values == list(range(values[0], values[-1] + 1)):
        return dimension_filter(name, "between", (values[0], values[-1]), grain)
    return dimension_filter(name, "in", tuple(values), grain)


def _reason(intent: StructuredIntent, model: SemanticModel, table: str, joined: list[str]) -> str:
    return describe(intent, model)


def _counted_name(intent: StructuredIntent, model: SemanticModel) -> str:
    """What a count of groups counts, for its column: 'days' for groups by day, 'planes' by plane."""
    if len(intent.dimensions) != 1 or intent.dimensions[0] not in model.dimension_by_name:
        return "groups"
    return plural_phrase(model.dimension_by_name[intent.dimensions[0]].label.lower())
