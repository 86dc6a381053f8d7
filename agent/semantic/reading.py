"""How a question was read, in one line a person can check ("Number of flights by month, where
departure delay > 60 minutes, in 2013"), so a misreading is visible before anyone trusts a number."""

from __future__ import annotations

import calendar

from agent.semantic.intent import Contrast, Filter, Side, StructuredIntent, TimeFilter
from agent.semantic.definitions import with_definitions
from agent.semantic.model import SemanticModel

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
    if intent.count_groups:
        head = "How many " + (", ".join(_dim(model, d) for d in intent.dimensions) or "groups") + f" ({head})"
    elif intent.dimensions:
        head += " by " + ", ".join(_dim(model, d) for d in intent.dimensions)
    parts = [head]
    conditions = [_filter(f, model) for f in intent.filters] + _time(intent.time)
    if conditions:
        parts.append("where " + " and ".join(conditions))
    for other in intent.absent:
        spec = model.table_by_name.get(other)
        parts.append(f"with no {spec.entity_words[0] if spec and spec.entity_words else other}")
    if intent.share_of_total:
        parts.append("with each one's share of the total")
    if intent.time_dimension:
        parts.append(f"dated by {_dim(model, intent.time_dimension)}")
    if intent.having:
        parts.append("keeping groups where " + " and ".join(
            f"{label(h.metric).lower()} {_OPS[h.op]} {_number(h.value)}" for h in intent.having))
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
        parts.append(f"top {intent.limit}{per}")
    for definition in intent.definitions:  # what the question's own words were taken to mean
        formula = definition.expr if definition.kind == "condition" else f"{definition.agg}({definition.expr})"
        parts.append(f"{definition.label} = {formula}")
    return "; ".join(parts) + "."


def _metric_labels(model: SemanticModel):
    return lambda name: model.metric_by_name[name].label if name in model.metric_by_name else name


def _dim(model: SemanticModel, name: str) -> str:
    dim = model.dimension_by_name.get(name)
    return dim.label if dim else name


def _field(name: str, model: SemanticModel, label) -> str:
    for suffix, words in (("__pct_change", "% change in "), ("__change", "change in "), ("__previous", "previous "),
                          ("__ratio", "ratio of "), ("__difference", "difference in "), ("__share", "share of ")):
        if name.endswith(suffix):
            return words + label(name.removesuffix(suffix)).lower()
    return label(name).lower() if name in model.metric_by_name else _dim(model, name)


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _filter(flt: Filter, model: SemanticModel) -> str:
    dim = model.dimension_by_name.get(flt.field)
    if dim is not None and dim.kind == "flag" and flt.op == "=":
        return dim.label if flt.values[0] else f"not {dim.label}"
    unit = f" {dim.unit}" if dim is not None and dim.unit and flt.op in (">", ">=", "<", "<=", "between") else ""
    values = " and ".join(_number(v) for v in flt.values) if flt.op == "between" else ", ".join(
        _number(v) for v in flt.values)
    return f"{_dim(model, flt.field)} {_OPS[flt.op]} {values}{unit}".rstrip()


def _time(time: TimeFilter | None) -> list[str]:
    if time is None or time.is_empty():
        return []
    bits = []
    if time.months:
        bits.append("month " + ", ".join(calendar.month_name[m] for m in time.months))
    if time.days:
        bits.append("day " + ", ".join(map(str, time.days)))
    if time.hours:
        bits.append("hour " + ", ".join(map(str, time.hours)))
    if time.weekdays:
        bits.append("weekday " + ", ".join(_WEEKDAYS[d - 1] for d in time.weekdays))
    if time.year is not None:
        bits.append(f"year {time.year}")
    return bits


def _side(side: Side, model: SemanticModel) -> str:
    return " and ".join([_filter(f, model) for f in side.filters] + _time(side.time)) or "all"


def _contrast(contrast: Contrast, model: SemanticModel, label) -> str:
    metric = label(contrast.metric).lower()
    first, second = _side(contrast.first, model), _side(contrast.second, model)
    if contrast.kind == "share":
        return f"Share of {metric} where {first}"
    if contrast.kind == "ratio":
        return f"Ratio of {metric} ({first}) to ({second})"
    if contrast.kind == "difference":
        return f"Difference in {metric}: ({first}) minus ({second})"
    return f"% change in {metric} from ({second}) to ({first})"
