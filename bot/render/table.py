"""A result preview as a monospace, aligned text table that fits one section block."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from agent.api import cell, column_cells, is_numeric

MAX_ROWS = 20


@dataclass(frozen=True)
class TablePreview:
    text: str  # without the code fence
    rows_shown: int
    columns_shown: int


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
    numeric = [is_numeric([row[i] for row in rows[:max_rows] if i < len(row)]) for i in range(len(columns))]

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
