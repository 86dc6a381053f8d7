"""Days of the week set against each other ('weekends vs weekdays', 'saturdays vs the rest'): one row for the
days said first and one for the others, grouped by whether each row's own date falls on the first days."""

from __future__ import annotations

from agent.semantic.compile.definitions import weekday_condition
from agent.semantic.compile.intent import StructuredIntent, TimeFilter, base_table
from agent.semantic.model.runtime import SemanticModel
from agent.text.phrases import WEEKDAYS

_EVERY_DAY = frozenset(range(1, 8))
_DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def days_named(word: str) -> list[int] | None:
    """The days of the week a word names ('weekends' -> Saturday and Sunday), or None."""
    low = word.lower()
    for form in (low, low[:-1] if low.endswith("s") else low):
        if form in WEEKDAYS:
            return WEEKDAYS[form]
    return None


def days_beside(intent: StructuredIntent, first: list[int], second: list[int],
                model: SemanticModel) -> tuple[StructuredIntent, str] | None:
    """The reading grouped by whether a row's date falls on the `first` days, set beside the `second` days
    (every other day when []), and the words that say so; None when the days overlap or the rows have no
    date of their own."""
    if set(first) & set(second) or not first:
        return None
    table = base_table(intent, model)
    if table is None:
        return None
    label = days_label(first)
    name = "_".join(label.lower().split())
    while name in model.dimension_by_name or name in model.metric_by_name:
        name += "_days"
    definition = weekday_condition(model, table, first, label, name)
    if definition is None:
        return None
    both = set(first) | set(second)
    kept = sorted(both) if second and both != _EVERY_DAY else []
    time = (intent.time or TimeFilter()).model_copy(update={"weekdays": kept})
    updated = intent.model_copy(update={
        "definitions": [*intent.definitions, definition], "dimensions": [name, *intent.dimensions],
        "time": None if time.is_empty() else time})
    return updated, f"{label} beside {days_label(second) if second else 'the other days'}"


def days_label(days: list[int]) -> str:
    """'weekend' for Saturday and Sunday, 'weekday' for Monday to Friday, else the days' names."""
    named = next((word for word, listed in WEEKDAYS.items() if len(listed) > 1 and listed == sorted(days)), None)
    return named or " and ".join(_DAY_NAMES[d - 1] for d in sorted(days))
