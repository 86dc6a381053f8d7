"""Slack's Block Kit limits as a checker: the stand-in refuses what Slack would refuse (invalid_blocks).

Written from Slack's reference pages (docs.slack.dev/reference/block-kit/...), independent of the
builders in bot/, so a builder that breaks a limit fails here rather than being trusted: required
fields, which text object type each field takes and its length, the limits of every block the bot
sends, and ids unique within one message (action_id, block_id).
"""

from __future__ import annotations

from typing import Any

MAX_BLOCKS = 50  # a message; a modal holds 100
MAX_SECTION_TEXT = 3000
MAX_SECTION_FIELDS = 10
MAX_FIELD_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTIONS_ELEMENTS = 25
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_ID = 255  # action_id, block_id
MAX_MARKDOWN_BLOCK = 12_000
MAX_TABLE_CHARS = 10_000
TEXT_TYPES = ("plain_text", "mrkdwn")


def block_problems(blocks: list[dict[str, Any]] | None, *, max_blocks: int = MAX_BLOCKS) -> list[str]:
    """Every broken limit, as "blocks[i]: what"; empty when Slack would accept the blocks."""
    blocks = blocks or []
    problems: list[str] = []
    if not isinstance(blocks, list) or not all(isinstance(b, dict) for b in blocks):
        return ["blocks must be a list of objects"]
    if len(blocks) > max_blocks:
        problems.append(f"more than {max_blocks} blocks")
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
        if len(str(block.get("block_id", ""))) > MAX_ID:
            problems.append(f"blocks[{i}]: block_id over {MAX_ID}")
        if block.get("type") == "data_table":
            table_chars += _cell_chars(block)
    if table_chars > MAX_TABLE_CHARS:
        problems.append("data_table cells hold more than 10,000 characters in one message")
    problems += _duplicates("block_id", [b.get("block_id") for b in blocks])
    problems += _duplicates("action_id", [e.get("action_id") for b in blocks for e in _interactive(b)])
    return problems


def view_problems(view: dict[str, Any] | None) -> list[str]:
    """A modal as views.open takes it: a title, at most 100 blocks, short button labels."""
    if not isinstance(view, dict):
        return ["view must be an object"]
    problems = [] if view.get("type") == "modal" else [f"view type {view.get('type')!r}"]
    problems += [f"title: {p}" for p in text_object(view.get("title"), ("plain_text",), 24)]
    for key in ("submit", "close"):
        if key in view:
            problems += [f"{key}: {p}" for p in text_object(view[key], ("plain_text",), 24)]
    if len(str(view.get("private_metadata", ""))) > 3000:
        problems.append("private_metadata over 3000")
    return problems + block_problems(view.get("blocks"), max_blocks=100)


def text_object(obj: Any, types: tuple[str, ...] = TEXT_TYPES, limit: int = MAX_SECTION_TEXT) -> list[str]:
    """A composition text object: one of `types`, with 1..limit characters."""
    if not isinstance(obj, dict):
        return ["needs a text object"]
    if obj.get("type") not in types:
        return [f"text type {obj.get('type')!r} where {' or '.join(types)} is required"]
    text = obj.get("text")
    if not isinstance(text, str) or not text:
        return ["text object needs text"]
    return [f"text over {limit} characters"] if len(text) > limit else []


def _duplicates(name: str, ids: list[Any]) -> list[str]:
    seen: set[str] = set()
    repeated: set[str] = set()
    for i in (str(i) for i in ids if i is not None):
        (repeated if i in seen else seen).add(i)
    return [f"duplicate {name} {i!r} in one message" for i in sorted(repeated)]


def _interactive(block: dict[str, Any]) -> list[dict[str, Any]]:
    elements = list(block.get("elements") or []) if block.get("type") in ("actions", "context_actions") else []
    if isinstance(block.get("accessory"), dict):
        elements.append(block["accessory"])
    if block.get("type") == "input" and isinstance(block.get("element"), dict):
        elements.append(block["element"])
    return [e for e in elements if isinstance(e, dict)]


def _section(block: dict) -> list[str]:
    if "text" not in block and "fields" not in block:
        return ["section needs text or fields"]
    problems = text_object(block["text"]) if "text" in block else []
    fields = block.get("fields")
    if fields is not None:
        if not isinstance(fields, list) or not 1 <= len(fields) <= MAX_SECTION_FIELDS:
            problems.append("section fields must be 1-10 text objects")
        else:
            problems += [f"fields: {p}" for f in fields for p in text_object(f, limit=MAX_FIELD_TEXT)]
    if isinstance(block.get("accessory"), dict) and block["accessory"].get("type") == "button":
        problems += _button(block["accessory"])
    return problems


def _header(block: dict) -> list[str]:
    return text_object(block.get("text"), ("plain_text",), MAX_HEADER_TEXT)


def _context(block: dict) -> list[str]:
    elements = block.get("elements") or []
    problems = [] if 1 <= len(elements) <= MAX_CONTEXT_ELEMENTS else ["context needs 1-10 elements"]
    for element in elements:
        if isinstance(element, dict) and element.get("type") == "image":
            problems += _image(element)
        else:
            problems += text_object(element)
    return problems


def _button(element: dict) -> list[str]:
    problems = [f"button {p}" for p in text_object(element.get("text"), ("plain_text",), MAX_BUTTON_TEXT)]
    if not element.get("action_id") or len(str(element["action_id"])) > MAX_ID:
        problems.append(f"button needs an action_id of 1-{MAX_ID} characters")
    if len(str(element.get("value", ""))) > MAX_BUTTON_VALUE:
        problems.append("button value over 2000")
    if element.get("style") not in (None, "primary", "danger"):
        problems.append(f"button style {element.get('style')!r}")
    return problems


def _actions(block: dict) -> list[str]:
    elements = block.get("elements") or []
    problems = [] if 1 <= len(elements) <= MAX_ACTIONS_ELEMENTS else ["actions needs 1-25 elements"]
    for element in elements:
        if element.get("type") == "button":
            problems += _button(element)
        elif not element.get("action_id"):
            problems.append(f"{element.get('type')!r} element needs an action_id")
    return problems


def _context_actions(block: dict) -> list[str]:
    elements = block.get("elements") or []
    problems = [] if 1 <= len(elements) <= 5 else ["context_actions needs 1-5 elements"]
    for element in elements:
        if element.get("type") not in ("feedback_buttons", "icon_button"):
            problems.append(f"context_actions cannot hold {element.get('type')!r}")
        if not element.get("action_id"):
            problems.append(f"{element.get('type')!r} needs an action_id")
        if element.get("type") == "feedback_buttons":
            for side in ("positive_button", "negative_button"):
                button = element.get(side) or {}
                problems += [f"feedback_buttons.{side} {p}" for p in text_object(button.get("text"), ("plain_text",), MAX_BUTTON_TEXT)]
                if "value" not in button:
                    problems.append(f"feedback_buttons.{side} needs a value")
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
    if _cell_chars(block) > MAX_TABLE_CHARS:
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
            label = s.get("label")
            if not isinstance(label, str) or not 1 <= len(label) <= 20:
                problems.append("pie segment label must be 1-20 characters")
            if not isinstance(s.get("value"), (int, float)) or not s["value"] > 0:
                problems.append("pie segment value must be a positive number")
        if "series" in chart or "axis_config" in chart:
            problems.append("a pie takes segments, not series or axis_config")
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
    if not categories:
        problems.append("axis_config needs categories")
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


def _image(block: dict) -> list[str]:
    problems = [] if block.get("image_url") or block.get("slack_file") else ["image needs image_url or slack_file"]
    return problems + ([] if block.get("alt_text") else ["image needs alt_text"])


def _input(block: dict) -> list[str]:
    problems = [f"label {p}" for p in text_object(block.get("label"), ("plain_text",), 2000)]
    element = block.get("element")
    if not isinstance(element, dict) or not element.get("action_id"):
        problems.append("input needs an element with an action_id")
    elif element.get("type") == "plain_text_input" and len(str(element.get("initial_value", ""))) > 3000:
        problems.append("plain_text_input initial_value over 3000")
    return problems


def _markdown(block: dict) -> list[str]:
    text = block.get("text")
    if not isinstance(text, str) or not text:
        return ["markdown block needs text"]
    return ["markdown over 12,000"] if len(text) > MAX_MARKDOWN_BLOCK else []


def _rich_text(block: dict) -> list[str]:
    return [] if block.get("elements") else ["rich_text needs elements"]


def _divider(block: dict) -> list[str]:
    return []


_CHECKS = {
    "section": _section,
    "header": _header,
    "context": _context,
    "actions": _actions,
    "context_actions": _context_actions,
    "data_table": _data_table,
    "data_visualization": _data_visualization,
    "divider": _divider,
    "markdown": _markdown,
    "input": _input,
    "image": _image,
    "rich_text": _rich_text,
}
