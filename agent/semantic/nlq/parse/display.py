"""Pass: the unit an answer is wanted in ('total air time in hours', 'the change, in minutes'): read
here so 'hours' is not taken for the hour of the day. The answer is in the measure's own unit; where
that is not the unit asked for, the reader says so rather than answer in another unit."""

from __future__ import annotations

from typing import Literal

from agent.semantic.compile.definitions import Definition, with_definitions
from agent.semantic.nlq.parse.comparisons import clean_number
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.state import consume_with_mentions

# 'on how many days …' counts the days that have rows (the groupings pass), not an amount of time
_PERIOD_CUES = {"on", "in", "for", "during", "over", "across"}


def display_unit_pass(draft: Draft) -> Draft:
    tokens, units = draft.tokens, draft.model.unit_words
    # 'how much did billings grow …, in percent?': a change asked in percent is a % change, no unit of the data
    changing = {w for text in draft.model.shapes.get("difference", []) for w in [text.lower()] if " " not in w}
    in_percent_is_a_change = any(t.low in changing for t in tokens)
    fillers = set(draft.model.coverage.get("fillers", []))  # 'in dollars pls'
    for i in range(len(tokens) - 1):
        word = tokens[i + 1].low
        if word in ("percent", "percentage", "%") and in_percent_is_a_change:
            continue
        if tokens[i].low == "in" and word in units and (i + 2 == len(tokens) or not tokens[i + 2].low.isalpha()
                                                         or tokens[i + 2].low in ("for", "by", "per", "and", "of")
                                                         or tokens[i + 2].low in fillers):
            draft.display_unit = word
            consume_with_mentions(draft.state, [i, i + 1])  # 'in hours' is no hour of the day
            return draft
    for i, token in enumerate(tokens):  # 'avg visit length per specialty (mins)': a unit alone in parentheses
        alone = not (i and tokens[i - 1].aside) and not (i + 1 < len(tokens) and tokens[i + 1].aside)
        if token.aside and alone and token.low in units and token.low not in ("percent", "percentage", "%"):
            draft.display_unit = token.low
            consume_with_mentions(draft.state, [i])
            return draft
    # 'how many hours did planes fly': hours of something, not the hour of day; only where the data measures
    # something in that unit (else 'how many days had orders' counts the days that have rows)
    measured = {d.unit for d in draft.model.dimensions if d.unit}
    for i in range(len(tokens) - 2):
        if (tokens[i].low, tokens[i + 1].low) == ("how", "many") and tokens[i + 2].low in units \
                and units[tokens[i + 2].low][0] in measured and not (i and tokens[i - 1].low in _PERIOD_CUES):
            draft.display_unit, draft.amount_in_unit = tokens[i + 2].low, True
            consume_with_mentions(draft.state, [i + 2])
            return draft
    if (said := _unit_beside_its_measure(draft)) is not None:
        draft.display_unit = tokens[said[0]].low
        consume_with_mentions(draft.state, said)
        return draft
    return draft


def _unit_beside_its_measure(draft: Draft) -> list[int] | None:
    """'dep delay minutes', 'minutes of dep delay', 'avg minutes behind schedule': a unit said right after a measure
    kept in that kind of unit, or right before it (with 'of' or without), names the measure's unit (never the hour of the day); the
    indexes to read, or None."""
    tokens, units, state = draft.tokens, draft.model.unit_words, draft.state

    model = draft.model

    def measured_in(start: int, end: int, unit: str) -> bool:
        measures = [e.name for m in state.mentions if m.start == start and m.end == end for e in m.of("dimension")]
        measures += [metric.measure for m in state.mentions if m.start == start and m.end == end
                     for e in m.of("metric") if (metric := model.metric_by_name.get(e.name)) and metric.measure]
        return any((d := model.dimension_by_name.get(name)) is not None and d.kind == "numeric" and d.unit == unit
                   for name in measures)

    for i, token in enumerate(tokens):
        if token.low not in units or token.low in ("percent", "percentage", "%") or any(
                m.start <= i < m.end and m.has("agg") for m in state.mentions):
            continue  # ('the min arrival delay': the least of it, not minutes)
        unit = units[token.low][0]
        if any(m.end == i and measured_in(m.start, m.end, unit) for m in state.mentions):
            return [i]
        if any(m.start == i + 1 and measured_in(m.start, m.end, unit) for m in state.mentions):
            return [i]  # 'avg minutes behind schedule'
        if i + 2 < len(tokens) and tokens[i + 1].low == "of" and any(
                m.start == i + 2 and measured_in(m.start, m.end, unit) for m in state.mentions):
            return [i, i + 1]
    return None


def unit_check(draft: Draft) -> str | None:
    """Why the answer cannot be given in the unit asked for, or None. A total, average, least or most of a
    measure kept in a smaller unit of the same kind ('air time' in minutes, asked in hours) is converted."""
    if draft.display_unit is None or draft.intent is None:
        return None
    _convert(draft)
    unit, factor = draft.model.unit_words[draft.display_unit]
    for name in draft.intent.all_metrics():
        metric = draft.model.metric_by_name.get(name)
        measure = draft.model.dimension_by_name.get(metric.measure) if metric and metric.measure else None
        if measure is None and draft.amount_in_unit:
            return (f"“How many {draft.display_unit}” asks for an amount in {draft.display_unit}, and I read a count "
                    f"({metric.label if metric else name}); say which measure you mean.")
        if measure is None or (measure.unit == unit and factor == 1):
            continue  # a count has no unit; the measure is kept in the unit asked for
        kept = f"in {measure.unit}" if measure.unit else "in a unit the model does not name"
        return (f"The data gives {measure.label} {kept}, and I can't show it in {draft.display_unit}; "
                f"ask without “in {draft.display_unit}” for the figure as it is kept.")
    return None


_AGGREGATES: dict[str, Literal["sum", "average", "min", "max"]] = {
    "sum": "sum", "avg": "average", "min": "min", "max": "max"}


def _convert(draft: Draft) -> None:
    """Each metric aggregating a measure kept in the unit the asked one is a multiple of, as a definition of
    the same aggregate over the measure divided by that multiple ('total air time in hours')."""
    intent, model = draft.intent, draft.model
    assert intent is not None and draft.display_unit is not None
    unit, factor = model.unit_words[draft.display_unit]
    if factor == 1 or intent.contrast is not None or intent.compare is not None:
        return
    renamed: dict[str, str] = {}
    definitions: list[Definition] = []
    for name in intent.metrics:
        metric = model.metric_by_name.get(name)
        measure = model.dimension_by_name.get(metric.measure) if metric and metric.measure else None
        source = next((s.expr for s in measure.sources if s.table == metric.table and s.join is None), None) \
            if metric and measure else None
        if metric is None or measure is None or source is None or measure.unit != unit \
                or metric.agg not in _AGGREGATES:
            continue
        new = f"{name}__in_{draft.display_unit}"
        definitions.append(Definition(name=new, label=f"{metric.label} in {draft.display_unit}", table=metric.table,
                                      kind="measure", expr=f"({source}) / {clean_number(factor)}.0",
                                      agg=_AGGREGATES[metric.agg]))
        renamed[name] = new
    if not renamed:
        return
    draft.intent = intent.model_copy(update={
        "metrics": [renamed.get(m, m) for m in intent.metrics],
        "order_by": [o.model_copy(update={"field": renamed.get(o.field, o.field)}) for o in intent.order_by],
        "having": [h.model_copy(update={"metric": renamed.get(h.metric, h.metric)}) for h in intent.having],
        "definitions": [*intent.definitions, *definitions]})
    draft.model = with_definitions(model, definitions)
