"""A result preview as a monospace, aligned text table that fits one section block."""

from __future__ import annotations

import csv
import io
import math
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


def _is_numeric(values: list[Any]) -> bool:
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, (int, float, Decimal)) and not isinstance(v, bool) for v in present)


def render_table(
    columns: list[str], rows: list[list[Any]], *, max_chars: int, max_rows: int = MAX_ROWS
) -> TablePreview:
    """As many leading rows as fit in `max_chars` (and `max_rows`); columns that would not fit are dropped."""
    # A column of fractional numbers shows one number of decimals, so the figures line up.
    decimals = [
        2 if any(isinstance(row[i], float) and not row[i].is_integer() for row in rows[:max_rows] if i < len(row)) else None
        for i in range(len(columns))
    ]
    cells = [[cell(v, decimals[i] if i < len(decimals) else None) for i, v in enumerate(row)] for row in rows[:max_rows]]
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
