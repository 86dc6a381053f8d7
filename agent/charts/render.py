"""Draw a chart spec as a PNG with matplotlib's Agg canvas.

Each call builds its own `Figure` and `FigureCanvasAgg` and never touches pyplot, so no
global backend or "current figure" is involved and renders can run in parallel threads.

The figure is laid out (constrained layout) once, then saved: `savefig` on a figure that has a
layout engine would first draw the whole figure without rendering it, only to run the engine, then
draw it again to render. That first draw's ticks and text layout are thrown away (about a seventh
of a chart's CPU); running the engine is all it was for. The PNG is the same, byte for byte.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Sequence

from agent.charts.library import (
    AutoDateLocator, Axes, ConciseDateFormatter, ConstrainedLayoutEngine, Figure, FigureCanvasAgg, FixedLocator,
    FuncFormatter, MaxNLocator,
)
from agent.charts.prepare import PreparedChart, is_month_axis, prepare
from agent.charts.roles import Cell, Row
from agent.charts.spec import ChartSpec

MAX_LABEL = 24
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MARKERS_UP_TO = 40  # points per line; beyond that markers only clutter
BAR_LABELS_UP_TO = 15  # bars; beyond that value labels overlap


def render_png(
    spec: ChartSpec,
    columns: list[str],
    rows: Sequence[Row],
    *,
    top_n: int = 20,
    size: tuple[float, float] = (8, 4.5),
    dpi: int = 100,
    types: list[str] | None = None,
) -> bytes:
    """The chart as PNG bytes, exactly size*dpi pixels; raises ChartError for a spec that does not fit."""
    chart = prepare(spec, columns, rows, top_n=top_n, types=types)
    figure = Figure(figsize=size, dpi=dpi)  # laid out below, once (see the module's doc)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    if chart.kind == "line":
        _draw_lines(axes, chart)
    else:
        _draw_bars(axes, chart)
    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: format_number(value)))
    axes.set_xlabel(chart.x_label or chart.x_name)
    if chart.y_label:
        axes.set_ylabel(chart.y_label)
    axes.grid(axis="y", alpha=0.3)
    axes.spines[["top", "right"]].set_visible(False)
    if len(chart.series) > 1:
        axes.legend(fontsize=8, frameon=False)
    figure.suptitle(textwrap.fill(chart.title, 80), fontsize=12)
    if chart.note:
        axes.set_title(chart.note, fontsize=9, color="0.35")
    ConstrainedLayoutEngine().execute(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def _draw_lines(axes: Axes, chart: PreparedChart) -> None:
    marker = "o" if len(chart.x_values) <= MARKERS_UP_TO else None
    if chart.x_kind == "category":
        positions = list(range(len(chart.x_values)))
        _category_ticks(axes, positions, chart.x_values)
    else:
        positions = chart.x_values
    for series in chart.series:
        axes.plot(positions, series.values, marker=marker, markersize=3, linewidth=1.6, label=series.name)
    if chart.x_kind == "date":
        locator = AutoDateLocator()
        axes.xaxis.set_major_locator(locator)
        axes.xaxis.set_major_formatter(ConciseDateFormatter(locator))
    elif is_month_axis(chart):
        months = sorted({int(v) for v in chart.x_values})
        axes.xaxis.set_major_locator(FixedLocator(months))
        axes.xaxis.set_major_formatter(
            FuncFormatter(lambda value, _: MONTHS[int(value) - 1] if 1 <= value <= 12 else "")
        )
    elif chart.x_kind == "number":
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: format_number(value, thousands=False)))


def _draw_bars(axes: Axes, chart: PreparedChart) -> None:
    count = len(chart.series)
    width = 0.8 / max(count, 1)
    positions = list(range(len(chart.x_values)))
    for i, series in enumerate(chart.series):
        offsets = [p - 0.4 + width * (i + 0.5) for p in positions]
        bars = axes.bar(offsets, series.values, width=width, label=series.name)
        if count == 1 and len(positions) <= BAR_LABELS_UP_TO:
            labels = ["" if math.isnan(v) else format_number(v) for v in series.values]
            axes.bar_label(bars, labels=labels, fontsize=7, padding=2)
    _category_ticks(axes, positions, chart.x_values)
    axes.margins(x=0.01)


def _category_ticks(axes: Axes, positions: list[int], labels: list[Cell]) -> None:
    texts = [_shorten(str(label)) for label in labels]
    crowded = len(texts) > 8 or max((len(t) for t in texts), default=0) > 8
    axes.set_xticks(positions, texts, rotation=45 if crowded else 0, ha="right" if crowded else "center", fontsize=8)


def _shorten(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def format_number(value: float, *, thousands: bool = True) -> str:
    """12345.6 -> '12,346', 3.14159 -> '3.14', 2.0 -> '2'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    separator = "," if thousands else ""
    if abs(value) >= 100 or float(value).is_integer():
        return f"{value:{separator}.0f}"
    if abs(value) >= 1:
        return f"{value:{separator}.1f}".rstrip("0").rstrip(".")
    return f"{value:.3g}"
