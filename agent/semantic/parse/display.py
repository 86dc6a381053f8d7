"""Pass: the unit an answer is wanted in ('total air time in hours', 'the change, in minutes'): read
here so 'hours' is not taken for the hour of the day. The answer is in the measure's own unit; where
that is not the unit asked for, the reader says so rather than answer in another unit."""

from __future__ import annotations

from agent.semantic.parse.draft import Draft


def display_unit_pass(draft: Draft) -> Draft:
    tokens, units = draft.tokens, draft.model.unit_words
    for i in range(len(tokens) - 1):
        word = tokens[i + 1].low
        if tokens[i].low == "in" and word in units and (i + 2 == len(tokens) or not tokens[i + 2].low.isalpha()
                                                         or tokens[i + 2].low in ("for", "by", "per", "and", "of")):
            draft.display_unit = word
            draft.state.consume(i, i + 1)
            return draft
    return draft


def unit_check(draft: Draft) -> str | None:
    """Why the answer cannot be given in the unit asked for, or None."""
    if draft.display_unit is None or draft.intent is None:
        return None
    unit, factor = draft.model.unit_words[draft.display_unit]
    for name in draft.intent.all_metrics():
        metric = draft.model.metric_by_name.get(name)
        measure = draft.model.dimension_by_name.get(metric.measure) if metric and metric.measure else None
        if measure is None or (measure.unit == unit and factor == 1):
            continue  # a count has no unit; the measure is kept in the unit asked for
        kept = f"in {measure.unit}" if measure.unit else "in a unit the model does not name"
        return (f"The data gives {measure.label} {kept}, and I can't show it in {draft.display_unit}; "
                f"ask without “in {draft.display_unit}” for the figure as it is kept.")
    return None
