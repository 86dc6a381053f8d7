"""Slack's native result blocks: `data_table`, `data_visualization` and feedback buttons. Pure functions.

Limits, from Slack's Block Kit reference (docs.slack.dev, reference/block-kit/blocks/):
- data_table: a caption; 1 header row plus 1-100 rows, all the same length; 1-20 columns; at most
  10,000 characters across all cells (per table and per message); header cells are raw_text; a
  raw_number cell sorts numerically; page_size 1-100 (default 5).
- data_visualization: title 1-50 characters; a bar / area / line chart has 1-6 uniquely named series
  (name <= 20 characters) of 1-20 points whose labels match axis_config.categories (each <= 20
  characters; x_label and y_label <= 50); at most two of these blocks in one message. Slack also
  draws pies (`segments`), but the agent's charts are only bar and line (agent.charts.ChartSpec),
  so only those are built here.
- context_actions: 1-5 elements, feedback_buttons among them.
A builder returns None when the result does not fit; the caller then keeps the text table or
the PNG, which every reply carries anyway.
"""

from __future__ import annotations

import calendar
import math
from typing import Any

from agent.api import ChartError, ChartSpec, PreparedChart, column_cells, is_month_axis, prepare_chart
from bot.render import actions

TABLE_MAX_ROWS = 100
TABLE_MAX_COLUMNS = 20
TABLE_MAX_CHARS = 10_000
TABLE_PAGE_SIZE = 10
CHART_MAX_TITLE = 50
CHART_MAX_SERIES = 6
CHART_MAX_POINTS = 20
CHART_MAX_LABEL = 20
CHART_MAX_AXIS_LABEL = 50
CHARTS_PER_MESSAGE = 2
CONTEXT_ACTIONS_MAX = 5


def _fit(text: str, limit: int) -> str:
    text = " ".join(str(text).split()) or "-"
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def data_table_block(
    columns: list[str],
    rows: list[list[Any]],
    *,
    caption: str,
    formats: list[str | None] | None = None,
) -> dict[str, Any] | None:
    """The rows as a sortable, paged table; None when they do not fit Slack's limits whole.

    Slack refuses a table whose rows differ in length: every row has one cell per column, a
    short row padded with "–" and a long one cut to the columns."""
    if not columns or not rows or len(columns) > TABLE_MAX_COLUMNS:
        return None
    shown = rows[:TABLE_MAX_ROWS]
    texts = column_cells(columns, shown, formats or [])  # one text per column, "" past a short row's end
    header = [_fit(h, 200) for h in columns]
    table_rows: list[list[dict[str, Any]]] = [[{"type": "raw_text", "text": h} for h in header]]
    used = sum(len(h) for h in header)
    for row, cells in zip(shown, texts):
        out = []
        for i, text in enumerate(cells):
            value = row[i] if i < len(row) else None
            text = text or "–"
            used += len(text)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                out.append({"type": "raw_number", "value": value, "text": text})
            else:
                out.append({"type": "raw_text", "text": text})
        table_rows.append(out)
    if used > TABLE_MAX_CHARS:
        return None
    return {
        "type": "data_table",
        "caption": _fit(caption, 200),
        "rows": table_rows,
        "page_size": min(TABLE_PAGE_SIZE, len(shown)),
        "row_header_column_index": 0,
    }


def data_visualization_block(
    spec: ChartSpec, columns: list[str], rows: list[list[Any]]
) -> dict[str, Any] | None:
    """The chart as Slack draws it natively; None when it does not fit (the PNG is sent regardless)."""
    if spec.kind == "none":
        return None
    try:
        chart = prepare_chart(spec, columns, rows, top_n=CHART_MAX_POINTS)
    except ChartError:
        return None
    if not chart.series or len(chart.series) > CHART_MAX_SERIES or len(chart.x_values) > CHART_MAX_POINTS:
        return None  # cutting series or points here would drop data silently; the PNG shows them
    if chart.note:
        return None  # a cut, or points without a value: the PNG shows them and says so
    categories = _categories(chart)
    if categories is None:
        return None
    series = []
    for s in chart.series:
        points = [
            {"label": label, "value": _value(v)} for label, v in zip(categories, s.values) if not math.isnan(v)
        ]
        if not points:
            return None
        series.append({"name": _fit(s.name, CHART_MAX_LABEL), "data": points})
    if len({s["name"] for s in series}) != len(series):
        return None
    axis: dict[str, Any] = {"categories": categories}
    if chart.x_label:
        axis["x_label"] = _fit(chart.x_label, CHART_MAX_AXIS_LABEL)
    if chart.y_label:
        axis["y_label"] = _fit(chart.y_label, CHART_MAX_AXIS_LABEL)
    return {
        "type": "data_visualization",
        "title": _fit(chart.title or "Chart", CHART_MAX_TITLE),
        "chart": {"type": chart.kind, "series": series, "axis_config": axis},
    }


def _categories(chart: PreparedChart) -> list[str] | None:
    labels = [_fit(_x_text(v, chart), CHART_MAX_LABEL) for v in chart.x_values]
    return labels if len(set(labels)) == len(labels) else None  # a cut made two labels equal


def _x_text(value: Any, chart: PreparedChart) -> str:
    if is_month_axis(chart):
        return calendar.month_abbr[int(value)]
    if chart.x_kind == "date":
        return str(value.strftime("%Y-%m-%d") if (value.hour, value.minute) == (0, 0) else value.strftime("%m-%d %H:%M"))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _value(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 4)


def feedback_block(session_id: str, request_id: str | None) -> dict[str, Any]:
    """Slack's own thumbs up / down for AI answers, in a context_actions block."""

    def vote(text: str, choice: str) -> dict[str, Any]:
        return {"text": {"type": "plain_text", "text": text}, "value": actions.encode(s=session_id, r=request_id, v=choice)}

    return {
        "type": "context_actions",
        "elements": [
            {
                "type": "feedback_buttons",
                "action_id": actions.FEEDBACK,
                "positive_button": vote("👍", "up"),
                "negative_button": vote("👎", "down"),
            }
        ],
    }
