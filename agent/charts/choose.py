"""Pick a chart for a query result from its shape: line for time, bar for categories, none otherwise."""

from __future__ import annotations

from agent.charts.prepare import prepare
from agent.charts.roles import Role, column_roles, is_number
from agent.charts.spec import ChartSpec

MAX_Y_COLUMNS = 4  # more lines or bars than this is a table, not a chart
MAX_TITLE = 90
SCALE_RATIO = 10


def choose_chart(
    columns: list[str], types: list[str], rows: list, question: str = "", *, top_n: int = 20
) -> ChartSpec:
    """A declarative spec for the result; `kind="none"` when a chart would not help.

    - a time-like column (DATE/TIMESTAMP, ISO date text, or an integer month/day/hour/...
      within its calendar range) becomes the x axis of a line chart;
    - otherwise a category column becomes the x axis of a bar chart;
    - a second category (or a second time column beside the x) splits the numbers into series;
    - a single row, or a result with no numbers, gets no chart.
    """
    if len(rows) < 2 or not columns:
        return ChartSpec(kind="none", title=_title(question, None, []))
    distinct = [len({_hashable(row[i]) for row in rows}) for i in range(len(columns))]
    roles = column_roles(columns, types, rows)
    times = [c for c, r in zip(columns, roles) if r is Role.TIME]
    categories = [c for c, r in zip(columns, roles) if r is Role.CATEGORY]
    numbers = [c for c, r in zip(columns, roles) if r is Role.NUMBER]
    if not numbers:
        return ChartSpec(kind="none", title=_title(question, None, []))

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
        return ChartSpec(kind="none", title=_title(question, None, []))

    series = splitters[0] if splitters else None
    y = numbers[:1] if series else _same_scale(numbers, columns, rows)[:MAX_Y_COLUMNS]
    spec = ChartSpec(kind=kind, x=x, y=y, series=series, title=_title(question, x, y, series))
    note = prepare(spec, columns, rows, top_n=top_n, types=types).note
    return spec.model_copy(update={"note": note})


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return repr(value)  # list or struct values from the engine
    return value


def _same_scale(numbers: list[str], columns: list[str], rows: list) -> list[str]:
    """The first numeric column and those of a similar size: a count of 50,000 beside an
    average of 12 minutes would flatten the minutes to nothing."""

    def size(column: str) -> float:
        index = columns.index(column)
        return max((abs(row[index]) for row in rows if is_number(row[index])), default=0.0)

    first = size(numbers[0])
    return [numbers[0]] + [
        c for c in numbers[1:] if first and 1 / SCALE_RATIO <= size(c) / first <= SCALE_RATIO
    ]


def _title(question: str, x: str | None, y: list[str], series: str | None = None) -> str:
    text = " ".join(question.split()).rstrip("?.! ")
    if text:
        text = text[0].upper() + text[1:]
        return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1].rstrip() + "…"
    if x is None:
        return ""
    title = f"{', '.join(y)} by {x}"
    return f"{title} and {series}" if series else title
