"""How a question was read, in one line a person can check ("Number of flights by month, where
departure delay > 60 minutes, in 2013"), so a misreading is visible before anyone trusts a number."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import date

from agent.semantic.compile.definitions import with_definitions
from agent.semantic.compile.related import related_words
from agent.semantic.compile.intent import Contrast, Filter, MonthDay, Side, StructuredIntent, TimeFilter
from agent.semantic.model.runtime import SemanticModel
from agent.text.words import plural_phrase

_OPS = {"=": "is", "!=": "is not", ">": ">", ">=": "≥", "<": "<", "<=": "≤", "in": "is one of",
        "between": "between", "is_null": "is unknown", "not_null": "is known",
        "starts_with": "starts with", "ends_with": "ends with", "contains": "contains"}
_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def describe(intent: StructuredIntent, model: SemanticModel) -> str:
    model = with_definitions(model, intent.definitions)
    label = _metric_labels(model)
    if intent.contrast is not None:
        head = _contrast(intent.contrast, model, label)
    else:
        head = ", ".join(label(m) for m in intent.metrics)
    # 'users who never gave a 5-star rating': groups with none of the rows a filtered count counts
    with_none = [h for h in intent.having if h.op == "=" and h.value == 0 and _filtered(intent, h.metric)]
    only_none = bool(with_none) and all(m in {h.metric for h in with_none} for m in intent.metrics)
    groups = ", ".join(plural_phrase(_dim(model, d)) for d in intent.dimensions)
    if intent.count_groups:
        head = "How many " + (groups or "groups") + ("" if only_none else f" ({head})")
    elif only_none and groups:
        head = groups[:1].upper() + groups[1:]  # 'which users never …': the users themselves
    elif intent.dimensions:
        head += " by " + ", ".join(_dim(model, d) for d in intent.dimensions)
    parts = [head]
    conditions = [filter_words(f, model) for f in intent.filters] + time_words(intent.time)
    if conditions:
        parts.append("where " + " and ".join(conditions))
    for other in intent.absent:
        spec = model.table_by_name.get(other)
        parts.append(f"with no {spec.entity_words[0] if spec and spec.entity_words else other}")
    if intent.share_of_total:
        parts.append("with each one's share of the total")
    if intent.time_dimension:
        parts.append(f"dated by {_dim(model, intent.time_dimension)}")
    parts += [f"with no {label(h.metric)}" for h in with_none]
    if kept := [h for h in intent.having if h not in with_none]:
        parts.append("keeping groups where " + " and ".join(
            f"{label(h.metric).lower()} {_OPS[h.op]} {_number(h.value)}" for h in kept))
    if intent.compare:
        parts.append("with the change from the " + ("previous period" if intent.compare == "previous_period"
                                                     else "same period a year earlier"))
    if intent.drop_unknown_groups:
        parts.append("leaving out unknown " + ", ".join(_dim(model, d) for d in intent.dimensions))
    if intent.order_by:
        order = intent.order_by[0]
        parts.append(f"{'highest' if order.descending else 'lowest'} {_field(order.field, model, label)} first")
    if intent.limit is not None:
        per = f" per {_dim(model, intent.limit_per)}" if intent.limit_per else ""
        lowest = bool(intent.order_by) and not intent.order_by[0].descending
        parts.append(f"{'bottom' if lowest else 'top'} {intent.limit}{per}")
    for definition in intent.definitions:  # what the question's own words were taken to mean
        if definition.kind == "filtered" or definition.kind == "condition" and definition.where:
            continue  # its label says it: 'ratings where rating is 5', 'whether humidity > 90 percent'
        if definition.kind == "bands":  # 'distance band = under 500, 500-1000, over 1000 (of distance)'
            column = next((d.label for d in model.dimensions if any(
                src.table == definition.table and src.expr == definition.column for src in d.sources)),
                definition.column)
            parts.append(f"{definition.label} = {', '.join(definition.bands)} (of {column})")
            continue
        if definition.agg == "count_distinct":  # the periods an average per day divides by (period_count)
            dividing = next((d.label.rsplit(" per ", 1)[0] for d in intent.definitions
                             if d.kind == "ratio" and d.denominator == definition.name), None)
            parts.append(f"{definition.label} = the different {definition.label} with {dividing}" if dividing else
                         f"{definition.label} = the different {definition.label} with rows that meet the conditions")
            continue
        if definition.weekdays:  # 'weekend = Saturday, Sunday (by flight date)': the days, not the SQL
            dated = model.table_by_name[definition.table].agg_time if definition.table in model.table_by_name else None
            days = ", ".join(_WEEKDAYS[d - 1] for d in definition.weekdays)
            parts.append(f"{definition.label} = {days}" + (f" (by {_dim(model, dated)})" if dated else ""))
            continue
        if definition.kind == "measure" and _TIME_BETWEEN.fullmatch(definition.label):
            continue  # its label names both dates and the unit: 'average days from order date to shipped at'
        if definition.kind == "ratio":  # 'revenue per order': the two metrics it divides, by their labels
            formula = f"{label(definition.numerator or '').lower()} / {label(definition.denominator or '').lower()}"
        else:
            formula = definition.expr if definition.kind == "condition" else f"{definition.agg}({definition.expr})"
        if definition.related is not None:
            formula = related_words(definition.table, definition.related, model)
        parts.append(f"{definition.label} = {formula}")
    return "; ".join(parts) + "."


_TIME_BETWEEN = re.compile(r"(?:average|median|total|longest|shortest|maximum|minimum) (?:days|hours|minutes|weeks) from .+ to .+")


def _filtered(intent: StructuredIntent, metric: str) -> bool:
    return any(d.name == metric and d.kind == "filtered" for d in intent.definitions)


def _metric_labels(model: SemanticModel) -> Callable[[str], str]:
    return lambda name: model.metric_by_name[name].label if name in model.metric_by_name else name


def _dim(model: SemanticModel, name: str) -> str:
    dim = model.dimension_by_name.get(name)
    return dim.label if dim else name


def _field(name: str, model: SemanticModel, label: Callable[[str], str]) -> str:
    for suffix, words in (("__pct_change", "% change in "), ("__change", "change in "), ("__previous", "previous "),
                          ("__ratio", "ratio of "), ("__difference", "difference in "), ("__share", "share of "), ("__pct", "percent of ")):
        if name.endswith(suffix):
            return words + label(name.removesuffix(suffix)).lower()
    metric, _, side = name.rpartition("__")
    if metric in model.metric_by_name:  # one side of a contrast shown on its own ('…__2023')
        return f"{label(metric).lower()} ({side.replace('_', ' ')})"
    return label(name).lower() if name in model.metric_by_name else _dim(model, name)


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def filter_words(flt: Filter, model: SemanticModel) -> str:
    dim = model.dimension_by_name.get(flt.field)
    if dim is not None and dim.kind == "flag" and flt.op in ("=", "!=") and len(flt.values) == 1:
        return dim.label if bool(flt.values[0]) == (flt.op == "=") else f"not {dim.label}"
    if dim is not None and dim.kind == "time" and flt.op == "is_null":
        return f"{dim.label} not set"  # 'deleted at not set': a date that marks rows, never an unknown amount
    if dim is not None and dim.kind == "time" and flt.op == "not_null":
        return f"{dim.label} set"  # 'escalated at set': the event happened to the rows
    unit = f" {dim.unit}" if dim is not None and dim.unit and flt.op in (">", ">=", "<", "<=", "between") else ""
    values = " and ".join(_number(v) for v in flt.values) if flt.op == "between" else ", ".join(
        _number(v) for v in flt.values)
    said = f", for ‘{flt.said}’" if flt.said else ""
    return f"{_dim(model, flt.field)} {_OPS[flt.op]} {values}{unit}{said}".rstrip()


def time_words(time: TimeFilter | None) -> list[str]:
    if time is None or time.is_empty():
        return []
    bits = []
    if time.months:
        bits.append("month " + _run([calendar.month_name[m] for m in time.months], time.months))
    if time.days:
        bits.append("day " + _run([str(d) for d in time.days], time.days))
    if time.hours:
        bits.append("hour " + ", ".join(map(str, time.hours)))
    if time.weekdays:
        bits.append("weekday " + ", ".join(_WEEKDAYS[d - 1] for d in time.weekdays))
    if time.year is not None:
        bits.append(f"year {time.year}")
    if time.years:
        bits.append("years " + _run([str(y) for y in time.years], time.years))
    if time.from_year is not None or time.until_year is not None:
        bits.append("years " + " ".join(f"{word} {year}" for word, year in (("from", time.from_year),
                                                                          ("until", time.until_year)) if year))
    if time.from_day is not None and time.to_day is not None:
        bits.append(f"days {_month_day(time.from_day)} to {_month_day(time.to_day)}")
    if time.start is not None and time.end is not None:
        dates = _dates(time.start, time.end)
        if time.relative is not None:
            period = time.relative
            whole = " whole" if period.whole else ""
            latest = f"the latest{whole} {period.grain}" if period.count == 1 else \
                f"the latest {period.count} {period.grain}s"
            bits.append(f"{period.words} ({dates}, {latest} in the data)")
        else:
            bits.append(f"dates {dates}")
    elif time.relative is not None:
        bits.append(time.relative.words)
    return bits


def _run(names: list[str], numbers: list[int]) -> str:
    """'24 to 30' for three or more consecutive values, else the values listed."""
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{names[0]} to {names[-1]}"
    return ", ".join(names)


def _month_day(day: MonthDay) -> str:
    return f"{calendar.month_name[day.month]} {day.day}"


def _dates(start: date, end: date) -> str:
    """Whole months read as months ('June 2013', 'April to June 2013', '2013'); other runs as dates."""
    whole = start.day == 1 and end.day == calendar.monthrange(end.year, end.month)[1]
    if not whole:
        return start.isoformat() if start == end else f"{start.isoformat()} to {end.isoformat()}"
    if (start.month, end.month) == (1, 12) and start.year == end.year:
        return str(start.year)
    first = calendar.month_name[start.month] + ("" if start.year == end.year else f" {start.year}")
    last = f"{calendar.month_name[end.month]} {end.year}"
    return last if (start.year, start.month) == (end.year, end.month) else f"{first} to {last}"


def _side(side: Side, model: SemanticModel) -> str:
    return " and ".join([filter_words(f, model) for f in side.filters] + time_words(side.time)) or "all"


def _contrast(contrast: Contrast, model: SemanticModel, label: Callable[[str], str]) -> str:
    metric = label(contrast.metric).lower()
    first, second = _side(contrast.first, model), _side(contrast.second, model)
    if contrast.kind == "share":
        return f"{'Percent' if contrast.percent else 'Share'} of {metric} where {first}"
    if contrast.kind == "ratio":
        return f"Ratio of {metric} ({first}) to ({second})"
    if contrast.kind == "difference":
        return f"Difference in {metric}: ({first}) minus ({second})"
    if contrast.kind == "side_by_side":
        return f"{metric.capitalize()}, ({first}) beside ({second})"
    return f"% change in {metric} from ({second}) to ({first})"
