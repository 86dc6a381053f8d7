"""Facts computed from a result's numbers: the only numbers an answer may state.

The result's shape decides what is worth computing: one value; a number per category
(total, top item and its share, bottom item, spread); a number over time (first and last,
change, peak and trough, trend); or, for anything else, the extremes. Column roles come from
the chart layer so the words and the chart read the result the same way.
"""

from __future__ import annotations

import re
from typing import Any

from agent.charts.roles import Role, column_roles, is_number, parse_time, time_part
from agent.chatbi.formatting import label, time_label, unit_of, value_label

RANKING_SIZE = 5
FLAT_TREND = 0.05  # a fitted change under 5% of the mean level reads as flat

# A sum of these is meaningless, so no total or share of total is stated for them.
_NOT_ADDITIVE = re.compile(
    r"(^|_)(avg|average|mean|median|min|minimum|max|maximum|pct|percent|percentage|rate|ratio|"
    r"share|per|std|stddev|var|variance)(_|$)"
)


def is_additive(column: str) -> bool:
    """A total of this column means something (flights, distance), unlike averages, rates or years."""
    return (
        not _NOT_ADDITIVE.search(column.lower())
        and unit_of(column) not in ("%", "°F", "mph")
        and time_part(column) is None
    )


def compute_facts(columns: list[str], types: list[str], rows: list) -> dict[str, Any]:
    facts: dict[str, Any] = {"row_count": len(rows)}
    missing = {c: n for i, c in enumerate(columns) if (n := sum(row[i] is None for row in rows))}
    if missing:
        facts["missing"] = missing
    if not rows:
        return {**facts, "shape": "empty"}
    roles = column_roles(columns, types, rows)
    numbers = [i for i, r in enumerate(roles) if r is Role.NUMBER]
    if len(rows) == 1:
        return {**facts, **_single_row(columns, rows[0], numbers)}
    if not numbers:
        return {**facts, "shape": "list"}
    measure = numbers[0]
    times = [i for i, r in enumerate(roles) if r is Role.TIME]
    categories = [i for i, r in enumerate(roles) if r is Role.CATEGORY]
    if not times and not categories and len(numbers) >= 2 and numbers[0] == 0 and _unique(rows, 0):
        # Only numbers, the first unique per row: it is a numeric group key ("engines, avg seats"),
        # read the same way the chart reads it.
        return {**facts, **_by_category(columns, rows, 0, numbers[1])}
    if times:
        axis = max(times, key=lambda i: _distinct(rows, i))
        if _unique(rows, axis):
            return {**facts, **_time_series(columns, rows, axis, measure)}
    elif categories and _unique(rows, categories[0]):
        return {**facts, **_by_category(columns, rows, categories[0], measure)}
    others = [i for i, r in enumerate(roles) if i != measure and r is not Role.NUMBER]
    return {**facts, **_breakdown(columns, rows, measure, others, roles)}


def _distinct(rows: list, index: int) -> int:
    # repr keeps list or struct values from the engine countable
    return len({repr(row[index]) for row in rows})


def _unique(rows: list, index: int) -> bool:
    return _distinct(rows, index) == len(rows)


def _single_row(columns: list[str], row: tuple, numbers: list[int]) -> dict[str, Any]:
    if len(columns) == 1:
        return {"shape": "single_value", "measure": columns[0], "value": row[0]}
    return {
        "shape": "single_row",
        "values": {c: row[i] for i, c in enumerate(columns) if i in numbers},
        "labels": {c: value_label(row[i]) for i, c in enumerate(columns) if i not in numbers},
    }


def _points(rows: list, label_index: int, measure: int, name_of) -> list[tuple[str, float]]:
    return [(name_of(row[label_index]), float(row[measure])) for row in rows if is_number(row[measure])]


def _item(point: tuple[str, float]) -> dict[str, Any]:
    return {"label": point[0], "value": point[1]}


def _by_category(columns: list[str], rows: list, category: int, measure: int) -> dict[str, Any]:
    key = label(columns[category])
    points = _points(rows, category, measure, lambda v: f"{key} {value_label(v)}" if is_number(v) else value_label(v))
    facts: dict[str, Any] = {"shape": "category", "category": columns[category], "measure": columns[measure]}
    if not points:
        return facts
    ranked = sorted(points, key=lambda p: -p[1])
    top, bottom = ranked[0], ranked[-1]
    facts.update(
        count=len(points),
        top=_item(top),
        bottom=_item(bottom),
        spread=top[1] - bottom[1],
        ranking=[_item(p) for p in ranked[:RANKING_SIZE]],
    )
    total = sum(p[1] for p in points)
    if is_additive(columns[measure]) and total > 0 and bottom[1] >= 0:
        facts["total"] = total
        facts["top"]["share_pct"] = top[1] / total * 100
        if len(points) > 3:
            facts["top3_share_pct"] = sum(p[1] for p in ranked[:3]) / total * 100
    return facts


def _time_series(columns: list[str], rows: list, axis: int, measure: int) -> dict[str, Any]:
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
    if first[1] != 0:
        facts["change_pct"] = (last[1] - first[1]) / abs(first[1]) * 100
    if is_additive(columns[measure]) and all(p[1] >= 0 for p in points):
        facts["total"] = sum(p[1] for p in points)
    return facts


def _time_key(value) -> tuple:
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
    columns: list[str], rows: list, measure: int, label_columns: list[int], roles: list[Role]
) -> dict[str, Any]:
    def row_label(row) -> str:
        return ", ".join(
            time_label(row[i], columns[i]) if roles[i] is Role.TIME else value_label(row[i]) for i in label_columns
        )

    points = [(row_label(row), float(row[measure])) for row in rows if is_number(row[measure])]
    facts: dict[str, Any] = {"shape": "breakdown", "measure": columns[measure]}
    if not points:
        return facts
    ranked = sorted(points, key=lambda p: -p[1])
    facts.update(count=len(points), top=_item(ranked[0]), bottom=_item(ranked[-1]))
    if is_additive(columns[measure]) and ranked[-1][1] >= 0:
        facts["total"] = sum(p[1] for p in points)
    return facts
