"""Facts computed from a result's numbers: the only numbers an answer may state.

The result's shape decides what is worth computing: one value; a number per category
(total, top item and its share, bottom item, spread); a number over time (first and last,
change, peak and trough, trend); or, for anything else, the extremes. Column roles come from
the chart layer so the words and the chart read the result the same way.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agent.charts.roles import Cell, Role, Row, column_roles, parse_time, time_part
from agent.chatbi import meaning as meanings_
from agent.chatbi.formatting import is_number, label, time_label, value_label
from agent.chatbi.meaning import ColumnMeaning

RANKING_SIZE = 5
FLAT_TREND = 0.05  # a fitted change under 5% of the mean level reads as flat


@dataclass(frozen=True)
class Scope:
    """How much of the answer the rows are: all of it, or the first `limit` rows of a longer result.

    `whole_total` and `whole_count` are the measure's total and the number of rows without the
    limit, when they were queried; a share of a cut result is taken of them or not at all.
    """

    limit: int | None = None
    whole_total: float | None = None
    whole_count: int | None = None
    ranked_by: str | None = None  # the measure a ranking orders by, which the answer leads with


def is_additive(column: str, meaning: ColumnMeaning | None = None) -> bool:
    """A total of this column means something (flights, distance), unlike averages, rates or years."""
    return meanings_.is_additive(column, meaning) and time_part(column) is None


def compute_facts(
    columns: list[str],
    types: list[str],
    rows: Sequence[Row],
    *,
    meanings: dict[str, ColumnMeaning] | None = None,
    scope: Scope | None = None,
    roles: Sequence[Role] | None = None,
) -> dict[str, Any]:
    """`roles`: the columns' roles when the caller read them already (analyze reads them once for the
    facts, the chart and the follow-ups)."""
    meanings = meanings or {}
    scope = scope or Scope()
    facts: dict[str, Any] = {"row_count": len(rows)}
    missing = {c: n for i, c in enumerate(columns) if (n := sum(row[i] is None for row in rows))}
    if missing:
        facts["missing"] = missing
    if not rows:
        return {**facts, "shape": "empty"}
    roles = column_roles(columns, types, rows) if roles is None else roles
    numbers = [i for i, r in enumerate(roles) if r is Role.NUMBER]
    if len(rows) == 1:
        return {**facts, **_single_row(columns, rows[0], numbers)}
    if not numbers:
        return {**facts, "shape": "list"}
    # 'how much did each city change': the change, not the first period's value beside it
    # 'top 3 by flights per plane' beside the count of planes: the answer is about what was ranked
    ranked = next((i for i in numbers if columns[i] == scope.ranked_by), numbers[0])
    measure = next((i for i in numbers if meanings_.is_contrast(columns[i])), ranked)
    times = [i for i, r in enumerate(roles) if r is Role.TIME]
    categories = [i for i, r in enumerate(roles) if r is Role.CATEGORY]
    if not times and not categories and len(numbers) >= 2 and numbers[0] == 0 and _unique(rows, 0):
        # Only numbers, the first unique per row: it is a numeric group key ("engines, avg seats"),
        # read the same way the chart reads it.
        return {**facts, **_by_category(columns, rows, 0, numbers[1], meanings, scope)}
    if times:
        axis = max(times, key=lambda i: _distinct(rows, i))
        if _unique(rows, axis):
            return {**facts, **_time_series(columns, rows, axis, measure, meanings)}
    elif categories and _unique(rows, categories[0]):
        return {**facts, **_by_category(columns, rows, categories[0], measure, meanings, scope)}
    others = [i for i, r in enumerate(roles) if i != measure and r is not Role.NUMBER]
    return {**facts, **_breakdown(columns, rows, measure, others, roles, meanings)}


def _distinct(rows: Sequence[Row], index: int) -> int:
    # repr keeps list or struct values from the engine countable
    return len({repr(row[index]) for row in rows})


def _unique(rows: Sequence[Row], index: int) -> bool:
    return _distinct(rows, index) == len(rows)


def _single_row(columns: list[str], row: Row, numbers: list[int]) -> dict[str, Any]:
    if len(columns) == 1:
        return {"shape": "single_value", "measure": columns[0], "value": row[0]}
    return {
        "shape": "single_row",
        "values": {c: row[i] for i, c in enumerate(columns) if i in numbers},
        "labels": {c: value_label(row[i]) for i, c in enumerate(columns) if i not in numbers},
    }


def _points(rows: Sequence[Row], label_index: int, measure: int, name_of: Callable[[Cell], str]) -> list[tuple[str, float]]:
    return [(name_of(row[label_index]), float(row[measure])) for row in rows if is_number(row[measure])]


def _item(point: tuple[str, float]) -> dict[str, Any]:
    return {"label": point[0], "value": point[1]}


def _named(meaning: ColumnMeaning | None, value: Cell) -> str:
    """A code as its readable name where the model has one ("UA" -> "United Air Lines Inc. (UA)")."""
    text = value_label(value)
    name = meaning.names.get(text) if meaning is not None else None
    return f"{name} ({text})" if name and name != text else text


def _by_category(
    columns: list[str], rows: Sequence[Row], category: int, measure: int,
    meanings: dict[str, ColumnMeaning], scope: Scope,
) -> dict[str, Any]:
    category_meaning = meanings.get(columns[category])
    key = category_meaning.label if category_meaning is not None and category_meaning.label else label(columns[category])
    names = category_meaning.names if category_meaning is not None else {}
    points = _points(
        rows, category, measure,  # a month's number by its name ('March'), another number by the column's
        lambda v: names.get(value_label(v)) or f"{key} {value_label(v)}" if is_number(v) else _named(category_meaning, v),
    )
    facts: dict[str, Any] = {"shape": "category", "category": columns[category], "measure": columns[measure]}
    measure_meaning = meanings.get(columns[measure])
    if not points:
        return facts
    ranked = sorted(points, key=lambda p: -p[1])
    top, bottom = ranked[0], ranked[-1]
    if top[1] != bottom[1] and all(a[1] <= b[1] for a, b in zip(points, points[1:])):
        facts["from_bottom"] = True  # ranked from the lowest ('bottom 3', 'the fewest'): its first row answers
    facts.update(
        count=len(points),
        top=_item(top),
        bottom=_item(bottom),
        spread=top[1] - bottom[1],
        ranking=[_item(p) for p in ranked[:RANKING_SIZE]],
    )
    if meanings_.is_rate(columns[measure], measure_meaning):
        facts["rate"] = True
    total = sum(p[1] for p in points)
    if not (is_additive(columns[measure], measure_meaning) and total > 0 and bottom[1] >= 0):
        return facts
    cut = scope.limit is not None and len(rows) >= scope.limit
    if cut and scope.whole_total:
        # A top N's share is of everything, not of the N shown.
        facts.update(total=scope.whole_total, total_scope="all", whole_count=scope.whole_count)
    elif cut:
        facts.update(total=total, total_scope="shown")
    else:
        facts["total"] = total
    facts["top"]["share_pct"] = top[1] / facts["total"] * 100
    if len(points) > 3:
        facts["top3_share_pct"] = sum(p[1] for p in ranked[:3]) / facts["total"] * 100
    return facts


def _time_series(
    columns: list[str], rows: Sequence[Row], axis: int, measure: int, meanings: dict[str, ColumnMeaning]
) -> dict[str, Any]:
    measure_meaning = meanings.get(columns[measure])
    ordered = sorted(rows, key=lambda row: _time_key(row[axis]))
    points = _points(ordered, axis, measure, lambda v: time_label(v, columns[axis]))
    facts: dict[str, Any] = {"shape": "time_series", "time": columns[axis], "measure": columns[measure]}
    if not points:
        return facts
    first, last = points[0], points[-1]
    facts.update(
        points=len(points),
        first=_item(first),
        last=_item(last),
        peak=_item(max(points, key=lambda p: p[1])),
        trough=_item(min(points, key=lambda p: p[1])),
        trend=_trend([p[1] for p in points]),
    )
    if all(re.fullmatch(r"\d{2}:\d{2}", str(p[0])) for p in points):
        # hours of the day come round again: the first and the last hour are no start and end of a trend
        facts["cycle"] = "hours of the day"
        return facts
    facts["change"] = last[1] - first[1]
    if meanings_.is_rate(columns[measure], measure_meaning):
        facts["rate"] = True  # a change of a rate is in percentage points, never a percent of a percent
    elif first[1] * last[1] > 0:
        # Across zero or a change of sign a percent change means nothing (-0.2 to 3.6 is not +1,700%).
        facts["change_pct"] = (last[1] - first[1]) / abs(first[1]) * 100
    if is_additive(columns[measure], measure_meaning) and all(p[1] >= 0 for p in points):
        facts["total"] = sum(p[1] for p in points)
    return facts


def _time_key(value: Cell) -> tuple[int, Cell]:
    moment = parse_time(value)
    if moment is not None:
        return (0, moment.timestamp())
    return (1, value) if is_number(value) else (2, str(value))


STEADY_TREND_R2 = 0.5


def _trend(values: list[float]) -> str:
    """Direction of the least-squares line through the points, relative to their mean level."""
    n = len(values)
    if n < 3:
        return "flat" if n < 2 or values[0] == values[-1] else ("up" if values[-1] > values[0] else "down")
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    slope = sum((i - mean_x) * (v - mean_y) for i, v in enumerate(values)) / sum(
        (i - mean_x) ** 2 for i in range(n)
    )
    level = abs(mean_y) or max(abs(v) for v in values) or 1.0
    fitted_change = slope * (n - 1) / level
    if abs(fitted_change) < FLAT_TREND:
        return "flat"
    # A line that explains little of the movement (a seasonal rise and fall) is no trend to report.
    total = sum((v - mean_y) ** 2 for v in values)
    explained = sum((slope * (i - mean_x)) ** 2 for i in range(n))
    if total and explained / total < STEADY_TREND_R2:
        return "mixed"
    return "up" if fitted_change > 0 else "down"


def _breakdown(
    columns: list[str], rows: Sequence[Row], measure: int, label_columns: list[int], roles: Sequence[Role],
    meanings: dict[str, ColumnMeaning],
) -> dict[str, Any]:
    def row_label(row: Row) -> str:
        return ", ".join(
            time_label(row[i], columns[i]) if roles[i] is Role.TIME else _named(meanings.get(columns[i]), row[i])
            for i in label_columns
        )

    points = [(row_label(row), float(row[measure])) for row in rows if is_number(row[measure])]
    facts: dict[str, Any] = {"shape": "breakdown", "measure": columns[measure]}
    if not points:
        return facts
    ranked = sorted(points, key=lambda p: -p[1])
    facts.update(count=len(points), top=_item(ranked[0]), bottom=_item(ranked[-1]))
    if is_additive(columns[measure], meanings.get(columns[measure])) and ranked[-1][1] >= 0:
        facts["total"] = sum(p[1] for p in points)
    return facts
