"""A reply as plain text for a terminal (`python -m agent`, the bot's console), and a result's values
as text with one number format per column, the same in Slack's table and a terminal."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.supervisor.reply import AgentReply

MAX_CELL = 24
PREVIEW_ROWS = 15


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
    if not is_numeric(values):
        return cell
    numbers = [float(v) for v in values if v is not None]
    if kind in ("fraction", "percent"):
        scale = 100.0 if kind == "fraction" else 1.0
        return lambda v: "" if v is None else f"{float(v) * scale:.1f}%"
    if all(n.is_integer() for n in numbers if math.isfinite(n)):
        return lambda v: "" if v is None else (cell(v) if isinstance(v, float) and not math.isfinite(v) else f"{int(v):,}")
    return lambda v: "" if v is None else (cell(v) if not math.isfinite(float(v)) else f"{float(v):,.2f}")


def is_numeric(values: list[Any]) -> bool:
    """Every present value is a number (booleans are not): the column is aligned and formatted as one."""
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, (int, float, Decimal)) and not isinstance(v, bool) for v in present)


def save_chart(directory: Path, name: str, png: bytes) -> str:
    """Charts go to files in a terminal; the reply text names the path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.png"
    path.write_bytes(png)
    return str(path)


def format_table(
    columns: list[str], rows: list[list[Any]], limit: int = PREVIEW_ROWS, formats: list[str | None] | None = None
) -> str:
    """An aligned text table; one number format per column, as in Slack's table."""
    shown = column_cells(columns, rows[:limit], formats or [])
    widths = [max([len(c)] + [len(r[i]) for r in shown]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)) for r in shown]
    if len(rows) > limit:
        more = len(rows) - limit
        lines.append(f"… {more} more row{'s' if more != 1 else ''}")
    return "\n".join(lines)


def format_reply_text(reply: AgentReply, *, chart_path: str | None = None) -> str:
    parts: list[str] = []
    if reply.error:
        parts.append(f"Sorry: {reply.error} (request id {reply.request_id})")
    elif reply.text and not (reply.ask_human and reply.text == reply.ask_human.question):
        parts.append(reply.text)
    if reply.sql:
        parts.append("SQL:\n" + "\n".join("    " + line for line in reply.sql.splitlines()))
    if reply.columns and reply.rows:
        noun = "row" if reply.row_count == 1 else "rows"
        parts.append(format_table(reply.columns, reply.rows, formats=reply.column_formats) + f"\n({reply.row_count:,} {noun})")
    if chart_path:
        parts.append(f"Chart: {chart_path}")
    if reply.ask_human:
        options = "  ".join(f"[{i}] {o.label}" for i, o in enumerate(reply.ask_human.options, 1))
        parts.append(reply.ask_human.question + (f"\n{options}" if options else ""))
    if reply.follow_ups:
        parts.append("You could also ask:\n" + "\n".join(f"  • {q}" for q in reply.follow_ups))
    return "\n\n".join(parts)
