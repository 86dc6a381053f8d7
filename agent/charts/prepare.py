"""From a chart spec and a result to the exact series to draw: checked, cleaned and cut to size.

Both the chooser (to write the "top 20 of 105" note) and the renderer use this, so the
note always describes what the picture shows.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from agent.charts.roles import Cell, Role, Row, column_role, is_number, parse_time, time_part
from agent.charts.spec import ChartSpec
from agent.errors import AssistantError

MAX_SERIES = 8
BLANK_LABEL = "(blank)"


class ChartError(AssistantError):
    """A chart spec that does not fit the result (unknown column, text where numbers are needed)."""

    code = "chart"


@dataclass
class Series:
    name: str
    values: list[float]  # NaN where the result had no value


@dataclass
class PreparedChart:
    kind: str
    title: str
    x_name: str
    x_values: list[Cell]  # datetimes, numbers or category labels
    x_kind: str  # "date", "number" or "category"
    series: list[Series] = field(default_factory=list)
    y_label: str = ""
    note: str | None = None
    x_label: str = ""


def spec_from_data(data: dict[str, Any], columns: list[str], rows: Sequence[Row]) -> ChartSpec:
    """A spec proposed as plain data (e.g. by a model) turned into a checked ChartSpec."""
    try:
        spec = ChartSpec.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "chart"
        raise ChartError(f"The chart description is not valid ({where}: {first['msg']}).") from None
    check_spec(spec, columns, rows)
    return spec


def check_spec(spec: ChartSpec, columns: list[str], rows: Sequence[Row]) -> None:
    """x, y and series must name result columns, and y columns must hold numbers."""
    if spec.kind == "none":
        return
    if spec.x is None:
        raise ChartError(f"A {spec.kind} chart needs an x column; the result has {_names(columns)}.")
    if not spec.y:
        raise ChartError(f"A {spec.kind} chart needs at least one y column; the result has {_names(columns)}.")
    for role, name in [("x", spec.x), *(("y", y) for y in spec.y), ("series", spec.series)]:
        if name is not None and name not in columns:
            raise ChartError(
                f"The chart's {role} column '{name}' is not in the result, which has {_names(columns)}."
            )
    for name in spec.y:
        index = columns.index(name)
        bad = next((row[index] for row in rows if row[index] is not None and not is_number(row[index])), None)
        if bad is not None:
            raise ChartError(f"The chart plots '{name}' as a number, but it holds {bad!r}.")


def names_in(names: dict[str, str], columns: list[str], rows: Sequence[Row], spec: ChartSpec) -> dict[str, str]:
    """`names` that `prepare` may look up for `spec` on this result: the values its x and series columns
    hold, and its column names. A column's names can be a whole code list (every airport of a country),
    which each chart spec, and the session keeping it, would otherwise carry."""
    keys = {c for c in (spec.x, spec.series, *spec.y) if c is not None}
    for column in (spec.x, spec.series):
        if column is not None:
            index = columns.index(column)
            for row in rows:
                keys.update((str(row[index]), _label(row[index])))
    return {key: name for key, name in names.items() if key in keys}


def prepare(
    spec: ChartSpec, columns: list[str], rows: Sequence[Row], *, top_n: int = 20, types: list[str] | None = None
) -> PreparedChart:
    check_spec(spec, columns, rows)
    x = spec.x
    if spec.kind == "none" or x is None:  # a chart without x: refused by check_spec already
        raise ChartError("This result is answered without a chart.")
    x_index = columns.index(x)
    if spec.kind == "line":
        x_type = (types or [""] * len(columns))[x_index]
        x_role = column_role(x, x_type, [row[x_index] for row in rows])
        chart = _line(spec, x, columns, rows, x_index, x_role)
    else:
        chart = _bar(spec, x, columns, rows, x_index, top_n)
    chart.title = spec.title or _default_title(spec)
    chart.x_label = spec.x_label or x
    if spec.y_label:
        chart.y_label = spec.y_label
    if spec.names:
        if chart.x_kind == "category":
            chart.x_values = [spec.names.get(str(v), v) for v in chart.x_values]
        for s in chart.series:
            s.name = spec.names.get(s.name, s.name)
    return chart


def _line(spec: ChartSpec, x: str, columns: list[str], rows: Sequence[Row], x_index: int, x_role: Role) -> PreparedChart:
    raw = [row[x_index] for row in rows]
    dates: list[dt.datetime | None] | None = None
    if x_role is Role.TIME and not all(is_number(v) for v in raw if v is not None):
        dates = [None if v is None else parse_time(v) for v in raw]  # parsed once: results can be long
        if any(d is None for d, v in zip(dates, raw) if v is not None):
            dates = None
    as_dates = dates is not None
    keys: list[Cell] = dates if dates is not None else [v if v is None or is_number(v) else str(v) for v in raw]
    keyed = [(key, row) for key, row in zip(keys, rows) if key is not None]
    x_values = sorted({key for key, _ in keyed})
    position = {key: i for i, key in enumerate(x_values)}
    series, note = _series(spec, columns, [row for _, row in keyed], [key for key, _ in keyed], position)
    if len(keyed) < len(rows):
        # A point needs a place on the time axis; say how many rows had none.
        missing = len(rows) - len(keyed)
        left_out = f"{missing} row{'s' if missing != 1 else ''} without a {spec.x_label or x} {'are' if missing != 1 else 'is'} left out."
        note = f"{note} {left_out}" if note else left_out
    if as_dates:
        x_kind = "date"
    elif all(is_number(v) for v in x_values):
        x_kind = "number"
    else:
        x_kind = "category"
    return PreparedChart(
        kind="line", title="", x_name=x, x_values=x_values, x_kind=x_kind,
        series=series, y_label=_y_label(spec), note=note,
    )


def _bar(spec: ChartSpec, x: str, columns: list[str], rows: Sequence[Row], x_index: int, top_n: int) -> PreparedChart:
    labels = [_label(row[x_index]) for row in rows]
    categories = list(dict.fromkeys(labels))
    position = {label: i for i, label in enumerate(categories)}
    series, series_note = _series(spec, columns, rows, labels, position)
    notes = [series_note] if series_note else []
    totals = [sum(_finite(s.values[i]) for s in series) for i in range(len(categories))]
    if spec.order == "value":
        # Bars read best by size; the rows' own order is kept only when they were sorted as asked.
        order = sorted(range(len(categories)), key=lambda i: (-totals[i], i))
    else:
        order = list(range(len(categories)))
    if len(categories) > top_n:
        kept = set(sorted(range(len(categories)), key=lambda i: (-totals[i], i))[:top_n])
        order = [i for i in order if i in kept]
        measure = spec.y_label or (spec.y[0] if len(spec.y) == 1 or spec.series else "total")
        notes.insert(0, f"Showing the top {top_n} of {len(position)} {spec.x_label or x} by {measure}.")
    empty = [categories[i] for i in order if all(math.isnan(s.values[i]) for s in series)]
    if empty:
        shown = ", ".join(spec.names.get(c, c) for c in empty[:5]) + (" and others" if len(empty) > 5 else "")
        notes.append(f"No value for {shown}.")
    categories = [categories[i] for i in order]
    for s in series:
        s.values = [s.values[i] for i in order]
    return PreparedChart(
        kind="bar", title="", x_name=x, x_values=categories, x_kind="category",
        series=series, y_label=_y_label(spec), note=" ".join(notes) or None,
    )


def _series(
    spec: ChartSpec, columns: list[str], rows: Sequence[Row], keys: Sequence[Cell], position: dict[Cell, int]
) -> tuple[list[Series], str | None]:
    """One Series per y column, or per value of the series column (largest first, capped)."""
    width = len(position)
    if spec.series is None:
        result = []
        for name in spec.y:
            index = columns.index(name)
            values = [math.nan] * width
            for key, row in zip(keys, rows):
                slot = position[key]
                if math.isnan(values[slot]):
                    values[slot] = _number(row[index])
            result.append(Series(name, values))
        return result, None
    y_index = columns.index(spec.y[0])
    s_index = columns.index(spec.series)
    by_name: dict[str, list[float]] = {}
    for key, row in zip(keys, rows):
        values = by_name.setdefault(_label(row[s_index]), [math.nan] * width)
        slot = position[key]
        if math.isnan(values[slot]):
            values[slot] = _number(row[y_index])
    names = sorted(by_name, key=lambda n: -sum(abs(_finite(v)) for v in by_name[n]))
    note = None
    if len(names) > MAX_SERIES:
        note = f"Showing the {MAX_SERIES} largest of {len(names)} {spec.series} values; the rest are in the table."
        names = names[:MAX_SERIES]
    return [Series(name, by_name[name]) for name in names], note


def _number(value: Cell) -> float:
    return float(value) if is_number(value) else math.nan


def _finite(value: float) -> float:
    return 0.0 if math.isnan(value) else value


def _label(value: Cell) -> str:
    if value is None:
        return BLANK_LABEL
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return str(value)


def _y_label(spec: ChartSpec) -> str:
    return spec.y[0] if len(spec.y) == 1 else ""


def _default_title(spec: ChartSpec) -> str:
    title = f"{', '.join(spec.y)} by {spec.x}"
    return f"{title} and {spec.series}" if spec.series else title


def _names(columns: list[str]) -> str:
    return ", ".join(f"'{c}'" for c in columns) or "no columns"


def is_month_axis(chart: PreparedChart) -> bool:
    return (
        chart.x_kind == "number"
        and time_part(chart.x_name) == "month"
        and all(float(v).is_integer() and 1 <= v <= 12 for v in chart.x_values)
    )
