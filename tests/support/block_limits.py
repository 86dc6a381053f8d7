"""Slack's Block Kit limits as a checker: the stand-in refuses what Slack would refuse (invalid_blocks).

Written from Slack's reference pages (docs.slack.dev/reference/block-kit/...), independent of the
builders in bot/, so a builder that breaks a limit fails here rather than being trusted.
"""

from __future__ import annotations

from typing import Any

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTIONS_ELEMENTS = 25
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000


def block_problems(blocks: list[dict[str, Any]] | None) -> list[str]:
    """Every broken limit, as "blocks[i]: what"; empty when Slack would accept the blocks."""
    blocks = blocks or []
    problems: list[str] = []
    if len(blocks) > MAX_BLOCKS:
        problems.append(f"more than {MAX_BLOCKS} blocks")
    charts = [b for b in blocks if b.get("type") == "data_visualization"]
    if len(charts) > 2:
        problems.append("more than two data_visualization blocks in one message")
    table_chars = 0
    for i, block in enumerate(blocks):
        check = _CHECKS.get(block.get("type"))
        if check is None:
            problems.append(f"blocks[{i}]: unknown block type {block.get('type')!r}")
            continue
        problems += [f"blocks[{i}]: {p}" for p in check(block)]
        if block.get("type") == "data_table":
            table_chars += _cell_chars(block)
    if table_chars > 10_000:
        problems.append("data_table cells hold more than 10,000 characters in one message")
    return problems


def _section(block: dict) -> list[str]:
    text = (block.get("text") or {}).get("text", "")
    return [f"section text over {MAX_SECTION_TEXT}"] if len(text) > MAX_SECTION_TEXT else []


def _context(block: dict) -> list[str]:
    elements = block.get("elements") or []
    return [] if 1 <= len(elements) <= MAX_CONTEXT_ELEMENTS else ["context needs 1-10 elements"]


def _actions(block: dict) -> list[str]:
    elements = block.get("elements") or []
    problems = [] if 1 <= len(elements) <= MAX_ACTIONS_ELEMENTS else ["actions needs 1-25 elements"]
    for element in elements:
        if len(element.get("text", {}).get("text", "")) > MAX_BUTTON_TEXT:
            problems.append("button text over 75")
        if len(element.get("value", "")) > MAX_BUTTON_VALUE:
            problems.append("button value over 2000")
    return problems


def _context_actions(block: dict) -> list[str]:
    elements = block.get("elements") or []
    problems = [] if 1 <= len(elements) <= 5 else ["context_actions needs 1-5 elements"]
    for element in elements:
        if element.get("type") not in ("feedback_buttons", "icon_button"):
            problems.append(f"context_actions cannot hold {element.get('type')!r}")
        if element.get("type") == "feedback_buttons":
            for side in ("positive_button", "negative_button"):
                button = element.get(side) or {}
                if not button.get("text", {}).get("text") or "value" not in button:
                    problems.append(f"feedback_buttons.{side} needs text and value")
                elif len(button["value"]) > MAX_BUTTON_VALUE:
                    problems.append(f"feedback_buttons.{side} value over 2000")
    return problems


def _data_table(block: dict) -> list[str]:
    problems = []
    rows = block.get("rows") or []
    if not block.get("caption"):
        problems.append("data_table needs a caption")
    if not 2 <= len(rows) <= 101:
        problems.append("data_table needs a header and 1-100 rows")
    widths = {len(r) for r in rows}
    if len(widths) > 1:
        problems.append("data_table rows differ in length")
    if rows and not 1 <= len(rows[0]) <= 20:
        problems.append("data_table needs 1-20 columns")
    if rows and any(c.get("type") == "rich_text" for c in rows[0]):
        problems.append("data_table header cannot be rich_text")
    for row in rows:
        for c in row:
            kind = c.get("type")
            if kind == "raw_text" and not c.get("text"):
                problems.append("raw_text cell needs text")
            elif kind == "raw_number" and (not isinstance(c.get("value"), (int, float)) or not c.get("text")):
                problems.append("raw_number cell needs a number value and text")
            elif kind not in ("raw_text", "raw_number", "rich_text"):
                problems.append(f"data_table cell type {kind!r}")
    page = block.get("page_size")
    if page is not None and not 1 <= page <= 100:
        problems.append("page_size must be 1-100")
    if _cell_chars(block) > 10_000:
        problems.append("data_table cells over 10,000 characters")
    return problems


def _cell_chars(block: dict) -> int:
    return sum(len(str(c.get("text", ""))) for row in block.get("rows") or [] for c in row)


def _data_visualization(block: dict) -> list[str]:
    problems = []
    title = block.get("title") or ""
    if not 1 <= len(title) <= 50:
        problems.append("title must be 1-50 characters")
    chart = block.get("chart") or {}
    kind = chart.get("type")
    if kind == "pie":
        segments = chart.get("segments") or []
        if not 1 <= len(segments) <= 6:
            problems.append("pie needs 1-6 segments")
        for s in segments:
            if len(s.get("label", "")) > 20 or not (s.get("value", 0) > 0):
                problems.append("pie segment label over 20 or value not positive")
        return problems
    if kind not in ("bar", "area", "line"):
        return problems + [f"chart type {kind!r}"]
    series = chart.get("series") or []
    axis = chart.get("axis_config") or {}
    categories = axis.get("categories") or []
    if not 1 <= len(series) <= 6:
        problems.append("1-6 series")
    if len({s.get("name") for s in series}) != len(series):
        problems.append("series names must be unique")
    if any(len(c) > 20 for c in categories):
        problems.append("category over 20 characters")
    for key in ("x_label", "y_label"):
        if len(axis.get(key) or "") > 50:
            problems.append(f"{key} over 50 characters")
    for s in series:
        data = s.get("data") or []
        if not s.get("name") or len(s["name"]) > 20:
            problems.append("series name must be 1-20 characters")
        if not 1 <= len(data) <= 20:
            problems.append("series needs 1-20 points")
        if any(p.get("label") not in categories or not isinstance(p.get("value"), (int, float)) for p in data):
            problems.append("point labels must be axis categories, values numbers")
    return problems


def _always_fine(block: dict) -> list[str]:
    return []


_CHECKS = {
    "section": _section,
    "context": _context,
    "actions": _actions,
    "context_actions": _context_actions,
    "data_table": _data_table,
    "data_visualization": _data_visualization,
    "divider": _always_fine,
    "header": _always_fine,
    "markdown": lambda b: ["markdown over 12,000"] if len(b.get("text", "")) > 12_000 else [],
    "input": _always_fine,
    "image": _always_fine,
    "rich_text": _always_fine,
}
