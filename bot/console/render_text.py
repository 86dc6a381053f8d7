"""AgentReply as plain text, for the terminal (the CLI, the REPL, the bot's console mode)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.api import AgentReply
from bot.render.table import column_cells

PREVIEW_ROWS = 15


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
