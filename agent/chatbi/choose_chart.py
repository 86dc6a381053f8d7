"""Pick a chart for a query result from its shape: line for time, bar for categories, none otherwise."""

from __future__ import annotations

from collections.abc import Sequence

from agent.charts.prepare import names_in, prepare
from agent.charts.roles import Cell, Role, Row, column_roles
from agent.charts.spec import ChartSpec
from agent.chatbi.formatting import is_number, label as column_words
from agent.chatbi.meaning import ColumnMeaning

MAX_Y_COLUMNS = 4  # more lines or bars than this is a table, not a chart
MAX_TITLE = 90
SCALE_RATIO = 10


def choose_chart(
    columns: list[str],
    types: list[str],
    rows: Sequence[Row],
    *,
    top_n: int = 20,
    meanings: dict[str, ColumnMeaning] | None = None,
    reading: str = "",
    roles: Sequence[Role] | None = None,
) -> ChartSpec:
    """A declarative spec for the result; `kind="none"` when a chart would not help.

    The title says what the chart shows, from its columns' names and `reading` (how the question
    was read: its filters), never the conversation; axes carry names and units from `meanings`.
    `roles`: the columns' roles when the caller read them already.

    - a time-like column (DATE/TIMESTAMP, ISO date text, or an integer month/day/hour/...
      within its calendar range) becomes the x axis of a line chart;
    - otherwise a category column becomes the x axis of a bar chart;
    - a second category (or a second time column beside the x) splits the numbers into series;
    - a single row, or a result with no numbers, gets no chart.
    """
    meanings = meanings or {}
    if len(rows) < 2 or not columns:
        return ChartSpec(kind="none")
    distinct = [len({_hashable(row[i]) for row in rows}) for i in range(len(columns))]
    roles = column_roles(columns, types, rows) if roles is None else roles
    times = [c for c, r in zip(columns, roles) if r is Role.TIME]
    categories = [c for c, r in zip(columns, roles) if r is Role.CATEGORY]
    numbers = [c for c, r in zip(columns, roles) if r is Role.NUMBER]
    if not numbers:
        return ChartSpec(kind="none")

    def varies(column: str) -> bool:
        return distinct[columns.index(column)] > 1

    if times:
        # The finest calendar column is the axis ("year, month, n" plots months); a coarser
        # one, like a category, splits the line into series.
        x = max(times, key=lambda c: distinct[columns.index(c)])
        splitters = [c for c in categories + times if c != x and varies(c)]
        kind = "line"
    elif categories:
        # With two categories the one with fewer values makes the better legend.
        x, splitters, kind = categories[0], [c for c in categories[1:] if varies(c)], "bar"
        if splitters and distinct[columns.index(splitters[0])] > distinct[columns.index(x)]:
            x, splitters = splitters[0], [x]
    elif len(numbers) >= 2 and roles[0] is Role.NUMBER and distinct[0] == len(rows):
        # Only numbers, the first one unique per row: a numeric group key ("engines, avg seats").
        x, splitters, kind = columns[0], [], "bar"
        numbers = numbers[1:]
    else:
        return ChartSpec(kind="none")

    series = splitters[0] if splitters else None
    y = numbers[:1] if series else _same_scale(numbers, columns, rows)[:MAX_Y_COLUMNS]
    names = {**_names(meanings.get(x)), **_names(meanings.get(series) if series else None)}
    spec = ChartSpec(
        kind=kind, x=x, y=y, series=series,
        title=_title(reading, x, y, series, meanings),
        x_label=axis_label(x, meanings.get(x)),
        y_label=_y_axis(y, meanings),
        order="data" if kind == "bar" and _ordered_by_value(columns, rows, y[0]) else "value",
    )
    spec.names = names_in(names, columns, rows, spec)
    note = prepare(spec, columns, rows, top_n=top_n, types=types).note
    return spec.model_copy(update={"note": note})


def _hashable(value: Cell) -> object:
    try:
        hash(value)
    except TypeError:
        return repr(value)  # list or struct values from the engine
    return value


def _same_scale(numbers: list[str], columns: list[str], rows: Sequence[Row]) -> list[str]:
    """The first numeric column and those of a similar size: a count of 50,000 beside an
    average of 12 minutes would flatten the minutes to nothing."""

    def size(column: str) -> float:
        index = columns.index(column)
        return max((abs(row[index]) for row in rows if is_number(row[index])), default=0.0)

    first = size(numbers[0])
    return [numbers[0]] + [
        c for c in numbers[1:] if first and 1 / SCALE_RATIO <= size(c) / first <= SCALE_RATIO
    ]


def _words(column: str, meaning: ColumnMeaning | None) -> str:
    return (meaning.label if meaning is not None and meaning.label else None) or column_words(column)


def axis_label(column: str, meaning: ColumnMeaning | None) -> str:
    """An axis title: the column's name in words, with its unit ("average delay (minutes)")."""
    words = _words(column, meaning)
    if meaning is not None and meaning.fraction:
        return f"{words} (%)"
    unit = meaning.unit if meaning is not None else None
    return f"{words} ({unit})" if unit else words


def _y_axis(y: list[str], meanings: dict[str, ColumnMeaning]) -> str:
    if len(y) == 1:
        return axis_label(y[0], meanings.get(y[0]))
    units = {meaning.unit if (meaning := meanings.get(c)) else None for c in y}
    unit = units.pop() if len(units) == 1 else None
    return unit or ""


def _names(meaning: ColumnMeaning | None) -> dict[str, str]:
    return dict(meaning.names) if meaning is not None else {}


def _ordered_by_value(columns: list[str], rows: Sequence[Row], y: str) -> bool:
    """The rows come sorted on the measure (the question asked for an order): keep it."""
    index = columns.index(y)
    values = [row[index] for row in rows if is_number(row[index])]
    if len(values) < 3:
        return False
    ascending = all(a <= b for a, b in zip(values, values[1:]))
    descending = all(a >= b for a, b in zip(values, values[1:]))
    return ascending or descending


def _title(
    reading: str, x: str, y: list[str], series: str | None, meanings: dict[str, ColumnMeaning]
) -> str:
    measures = ", ".join(_words(c, meanings.get(c)) for c in y)
    title = f"{measures} by {_words(x, meanings.get(x))}"
    if series:
        title += f" and {_words(series, meanings.get(series))}"
    if reading:
        title += f", {reading}"
    title = title[:1].upper() + title[1:]
    return title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1].rstrip() + "…"
