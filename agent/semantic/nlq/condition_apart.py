"""A comparison of a number set against the rest of the rows ('avg dep delay when humidity was over 90 vs the
rest', 'when it was below freezing vs not'): one row for the rows that meet it and one for those that do not,
grouped by whether each row meets it; rows with no number at all are in neither."""

from __future__ import annotations

import re

from agent.semantic.compile.definitions import comparison_condition
from agent.semantic.compile.filters import Filter
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.compile.reading import filter_words
from agent.semantic.model.runtime import SemanticModel

_COMPARED = (">", ">=", "<", "<=")


def condition_beside_the_rest(intent: StructuredIntent, model: SemanticModel) -> StructuredIntent | None:
    """The reading grouped by its one comparison of a number instead of filtered by it; None when it has no
    such comparison, or another condition the rest could be set against."""
    compared = [f for f in intent.filters if f.op in _COMPARED and len(f.values) == 1
                and getattr(model.dimension_by_name.get(f.field), "kind", "") == "numeric"]
    flagged = [f for f in intent.filters if getattr(model.dimension_by_name.get(f.field), "kind", "") == "flag"]
    if len(compared) != 1 or flagged:  # beside a yes/no condition too, which one the rest is of is not said
        return None
    flt = compared[0]
    label = f"whether {filter_words(flt, model)}"
    name = "_".join(re.findall(r"[a-z0-9]+", label.lower().replace(">", " over ").replace("<", " under ")))
    while name in model.dimension_by_name or name in model.metric_by_name:
        name += "_rows"
    definition = comparison_condition(model, flt, name, label)
    if definition is None:
        return None
    filters = [f for f in intent.filters if f is not flt] + [Filter(field=flt.field, op="not_null")]
    return intent.model_copy(update={"definitions": [*intent.definitions, definition], "filters": filters,
                                     "dimensions": [name, *intent.dimensions]})
