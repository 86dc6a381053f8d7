"""A result preview as a monospace, aligned text table that fits one section block."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

MAX_CELL = 24
MAX_ROWS = 20


@dataclass(frozen=True)
class TablePreview:
    text: str  # without the code fence
    rows_shown: int
    columns_shown: int


def cell(value: Any, decimals: int | None = None) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if decimals is not None:
            return f"{value:,.{decimals}f}"
        if value.is_integer():
            return f"{value:,.0f}"
        return f"{value:,.1f}" if abs(value) >= 1000 else f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    if isinstance(value, Decimal):
        return cell(float(value))
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d") if value.time() == datetime.min.time() else value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    text = " ".join(str(value).split())
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def column_cells(columns: list[str], rows: list[list[Any]], formats: list[str | None]) -> list[list[str]]:
    """Every cell as text, one number format per column: 9,705 and 17,283, never 9705 beside 17,283;
    a share shown as 40.3% when the agent says the column holds fractions ("fraction") or percents."""
    width = len(columns)
    per_column: list[Any] = []
    for i in range(width):
        values = [row[i] for row in rows if i < len(row)]
        kind = formats[i] if i < len(formats) else None
        per_column.append(_column_formatter(values, kind))
    return [[per_column[i](row[i]) if i < len(row) else "" for i in range(width)] for row in rows]


def _column_formatter(values: list[Any], kind: str | None) -> Callable[[Any], str]:
    if not _is_numeric(values):
        return cell
    numbers = [float(v) for v in values if v is not None]
    if kind in ("fraction", "percent"):
        scale = 100.0 if kind == "fraction" else 1.0
        return lambda v: "" if v is None else f"{float(v) * scale:.1f}%"
    if all(n.is_integer() for n in numbers if math.isfinite(n)):
        return lambda v: "" if v is None else (cell(v) if isinstance(v, float) and not math.isfinite(v) else f"{int(v):,}")
    return lambda v: "" if v is None else (cell(v) if not math.isfinite(float(v)) else f"{float(v):,.2f}")


def _is_numeric(values: list[Any]) -> bool:
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, (int, float, Decimal)) and not isinstance(v, bool) for v in present)


def render_table(
    columns: list[str],
    rows: list[list[Any]],
    *,
    max_chars: int,
    max_rows: int = MAX_ROWS,
    formats: list[str | None] | None = None,
) -> TablePreview:
    """As many leading rows as fit in `max_chars` (and `max_rows`); columns that would not fit are dropped."""
    cells = column_cells(columns, rows[:max_rows], formats or [])
    header = [cell(c) for c in columns]
    widths = [max([len(header[i])] + [len(r[i]) for r in cells if i < len(r)]) for i in range(len(columns))]
    numeric = [_is_numeric([row[i] for row in rows[:max_rows] if i < len(row)]) for i in range(len(columns))]

    # Keep the widest prefix of columns whose line still fits a typical reading width.
    shown_cols = len(columns)
    while shown_cols > 1 and sum(widths[:shown_cols]) + 2 * (shown_cols - 1) > 110:
        shown_cols -= 1

    def line(values: list[str]) -> str:
        parts = []
        for i in range(shown_cols):
            value = values[i] if i < len(values) else ""
            parts.append(value.rjust(widths[i]) if numeric[i] else value.ljust(widths[i]))
        return "  ".join(parts).rstrip()

    lines = [line(header), "  ".join("-" * w for w in widths[:shown_cols])]
    used = sum(len(x) + 1 for x in lines)
    shown = 0
    for row in cells:
        text = line(row)
        if used + len(text) + 1 > max_chars:
            break
        lines.append(text)
        used += len(text) + 1
        shown += 1
    return TablePreview(text="\n".join(lines), rows_shown=shown, columns_shown=shown_cols)


def to_csv(columns: list[str], rows: list[list[Any]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return buffer.getvalue().encode("utf-8")
