"""Follow-up questions for an answered intent, written so the offline parser reads them back.

Each suggestion is one step from the question just answered: the same measure over time,
broken down by another dimension, or its top five groups. Filters of the original
question are kept, phrased the way the parser understands them.
"""

from __future__ import annotations

from agent.semantic.compile.intent import Filter, OrderBy, StructuredIntent, TimeFilter, base_table, validate_intent
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.model.values import ValueIndex

_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December"]
_OTHER_GRAINS = ["day_of_week", "hour", "month"]
_OP_WORDS = {">": "more than", "<": "less than", ">=": "at least", "<=": "at most"}


def suggest_follow_ups(intent: StructuredIntent, model: SemanticModel, values: ValueIndex, n: int = 3) -> list[str]:
    return [question for question, _ in follow_up_intents(intent, model, values)[:n]]


def follow_up_intents(
    intent: StructuredIntent, model: SemanticModel, values: ValueIndex
) -> list[tuple[str, StructuredIntent]]:
    """(question, the intent it stands for) pairs, most useful first."""
    table = base_table(intent, model)
    if table is None or not intent.metrics or any(m not in model.metric_by_name for m in intent.metrics) \
            or not all(_known(f, model) for f in [*intent.dimensions, *(f.field for f in intent.filters)]):
        return []  # a measure or field the question defined itself (a formula) has no follow-up wording
    metric = intent.metrics[0]
    label = model.metric_by_name[metric].label
    phrased = [(f, said) for f in intent.filters if (said := _phrase_filter(f, model)) is not None]
    filters = [f for f, _ in phrased]
    time_said = _phrase_time(intent.time) if intent.time is not None else None
    time = intent.time if time_said else None
    time_suffix = " " + time_said if time_said else ""
    suffix = "".join(" " + said for _, said in phrased) + time_suffix
    used = set(intent.dimensions) | {f.field for f in filters}
    pairs: list[tuple[str, StructuredIntent]] = []

    if model.table_by_name[table].time and not any(model.dimension_by_name[d].kind == "time" for d in intent.dimensions):
        single_month = time is not None and len(time.months) == 1
        grain, word = ("day", "Daily") if single_month else ("month", "Monthly")
        pairs.append((f"{word} {label.lower()}{suffix}",
                      StructuredIntent(metrics=[metric], dimensions=[grain], filters=filters, time=time)))
    breakdowns = [d for d in _breakdown_dimensions(model, table) if d not in used]
    for dim in breakdowns[:2]:
        dim_label = model.dimension_by_name[dim].label
        pairs.append((f"{label} by {dim_label}{suffix}",
                      StructuredIntent(metrics=[metric], dimensions=[dim], filters=filters, time=time)))
        plural = " ".join(_plural(dim_label, model))
        pairs.append((f"Top 5 {plural} by {label.lower()}{suffix}",
                      StructuredIntent(metrics=[metric], dimensions=[dim], filters=filters, time=time,
                                       order_by=[OrderBy(field=metric, descending=True)], limit=5)))
    for flt in filters:
        # compare the filtered value with its peers: "from EWR" -> "by origin airport"
        if model.dimension_by_name[flt.field].kind == "categorical" and len(intent.dimensions) <= 1:
            rest = [f for f in filters if f is not flt]
            rest_suffix = "".join(" " + said for f, said in phrased if f is not flt) + time_suffix
            dims = [*intent.dimensions, flt.field]
            by = " and ".join(model.dimension_by_name[d].label for d in dims)
            pairs.append((f"{label} by {by}{rest_suffix}",
                          StructuredIntent(metrics=[metric], dimensions=dims, filters=rest, time=time)))
            break
    time_dims = [d for d in intent.dimensions if model.dimension_by_name[d].kind == "time"]
    if len(intent.dimensions) == 1 and time_dims:
        for grain in _OTHER_GRAINS:
            if grain != time_dims[0] and grain in model.dimension_by_name:  # a model may have no 'day_of_week'
                pairs.append((f"{label} by {model.dimension_by_name[grain].label}{suffix}",
                              StructuredIntent(metrics=[metric], dimensions=[grain], filters=filters, time=time)))
                break
    measure = model.metric_by_name[metric].measure
    if measure is not None and len(intent.dimensions) <= 1:
        by = f" by {model.dimension_by_name[intent.dimensions[0]].label}" if intent.dimensions else ""
        for sibling in (m for m in model.metrics if m.measure == measure and m.name not in intent.metrics):
            pairs.append((f"{sibling.label}{by}{suffix}",
                          StructuredIntent(metrics=[sibling.name], dimensions=list(intent.dimensions),
                                           filters=filters, time=time)))
            break
    valid = [(q, i) for q, i in pairs if not validate_intent(i, model)]
    # alternate kinds of step so the first three are varied
    return sorted(valid, key=lambda pair: (pairs.index(pair) % 2, pairs.index(pair)))[:6]


def _breakdown_dimensions(model: SemanticModel, table: str) -> list[str]:
    """Dimensions on the table's own rows whose values people know by name, then the rest."""
    direct = [d for d in model.dimensions if d.kind == "categorical"
              and any(s.table == table and s.join is None for s in d.sources)]
    known = [d.name for d in direct if d.values]
    return known if len(known) >= 2 else known + [d.name for d in direct if not d.values]


def _known(field: str, model: SemanticModel) -> bool:
    try:
        model.dimension_by_name[field]
    except KeyError:
        return False
    return True


def _phrase_filter(flt: Filter, model: SemanticModel) -> str | None:
    dim = model.dimension_by_name[flt.field]
    if dim.kind == "categorical" and flt.op == "=" and dim.values:
        cue = dim.value_cues[0] if dim.value_cues else "for"
        return f"{cue} {flt.values[0]}"
    if dim.kind == "numeric" and flt.op in _OP_WORDS:
        if dim.unit == dim.label:  # "with more than 200 seats"
            return f"with {_OP_WORDS[flt.op]} {flt.values[0]} {dim.unit}"
        unit = f" {dim.unit}" if dim.unit else ""
        return f"with {dim.label} {_OP_WORDS[flt.op]} {flt.values[0]}{unit}"
    return None


def _phrase_time(time: TimeFilter) -> str | None:
    if time.days or time.hours or time.year is not None or not time.months:
        return None
    months = time.months
    if len(months) == 1:
        return f"in {_MONTH_NAMES[months[0] - 1]}"
    if months == list(range(months[0], months[-1] + 1)):
        return f"from {_MONTH_NAMES[months[0] - 1]} through {_MONTH_NAMES[months[-1] - 1]}"
    return None


def _plural(text: str, model: SemanticModel) -> tuple[str, ...]:
    words = model.phrases[text]
    forms = sorted(model.noun_phrases[text], key=lambda f: (not f[-1].endswith("s"), f))
    return forms[0] if not words[-1].endswith("s") else words
