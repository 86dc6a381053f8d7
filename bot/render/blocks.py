"""Pure Block Kit builders: AgentReply (and errors, progress, the edit modal) to Slack payloads.

No I/O here. Every builder stays inside Slack's limits: at most 50 blocks a message,
3000 characters a section, 2000 a button value, 75 a button label; anything longer is
split or trimmed, and the reader is told.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.api import AgentReply, AskHuman
from bot.render import actions
from bot.render.mrkdwn import escape, to_mrkdwn
from bot.render.rich_blocks import data_table_block, data_visualization_block
from bot.render.rich_blocks import feedback_block as native_feedback_block
from bot.render.table import render_table, to_csv

MAX_BLOCKS = 50
MAX_SECTION = 3000
MAX_BUTTON_TEXT = 75
MAX_FALLBACK_TEXT = 3000
MAX_ACTIONS_ELEMENTS = 25
MAX_FOLLOW_UPS = 5
MAX_MODAL_INPUT = 3000
FENCE = "```"


@dataclass(frozen=True)
class Rendered:
    text: str  # the notification / screen-reader fallback
    blocks: list[dict[str, Any]]
    csv: bytes | None = None  # attached when the preview table could not show every row
    # The same reply without Slack's newer blocks (data_table, data_visualization, feedback
    # buttons): what to send when a workspace or client refuses them as invalid_blocks.
    fallback_blocks: list[dict[str, Any]] | None = None
    stream_text: str = ""  # the answer's words, when they may be streamed (chat.startStream …)
    stream_blocks: list[dict[str, Any]] | None = None  # what chat.stopStream puts beneath them
    fallback_stream_blocks: list[dict[str, Any]] | None = None
    tail: list[dict[str, Any]] | None = None  # the blocks after the prose (SQL, table, buttons)


def section(mrkdwn: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": mrkdwn}}


def context(mrkdwn: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": mrkdwn[:MAX_SECTION]}]}


def button(label: str, action_id: str, value: str, style: str | None = None) -> dict[str, Any] | None:
    """A button, or None when its value cannot fit (the caller then offers another way to answer)."""
    if len(value) > actions.MAX_VALUE:
        return None
    text = label if len(label) <= MAX_BUTTON_TEXT else label[: MAX_BUTTON_TEXT - 1] + "…"
    element: dict[str, Any] = {
        "type": "button",
        "text": {"type": "plain_text", "text": text, "emoji": True},
        "action_id": action_id,
        "value": value,
    }
    if style in ("primary", "danger"):
        element["style"] = style
    return element


def actions_block(elements: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    kept = [e for e in elements if e is not None][:MAX_ACTIONS_ELEMENTS]
    return {"type": "actions", "elements": kept} if kept else None


def split_mrkdwn(text: str, limit: int = MAX_SECTION) -> list[str]:
    """Split on line boundaries into chunks of at most `limit`, closing and reopening a code fence at a cut."""
    chunks: list[str] = []
    lines: list[str] = []
    size = 0
    in_fence = False
    piece_limit = limit - 2 * (len(FENCE) + 1)  # room to reopen and close a fence around a hard-cut piece

    def flush() -> None:
        nonlocal lines, size
        body = "\n".join(lines) + ("\n" + FENCE if in_fence else "")
        if body.strip() and body.strip() != FENCE:
            chunks.append(body)
        lines = [FENCE] if in_fence else []
        size = len(FENCE) if in_fence else 0

    for line in text.split("\n"):
        pieces = [line[i : i + piece_limit] for i in range(0, len(line), piece_limit)] or [""]
        for piece in pieces:
            closing = len(FENCE) + 1
            if lines and size + 1 + len(piece) + closing > limit:
                flush()
            size += len(piece) + (1 if lines else 0)
            lines.append(piece)
            if piece.count(FENCE) % 2:
                in_fence = not in_fence
    in_fence = False
    flush()
    return chunks


def code_sections(code: str) -> list[dict[str, Any]]:
    return [section(chunk) for chunk in split_mrkdwn(f"{FENCE}\n{escape(code.strip())}\n{FENCE}")]


def _plain(markdown: str, limit: int = 300) -> str:
    flat = " ".join(markdown.replace("*", "").replace("`", "").replace("#", "").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _answer_value(ask: AskHuman, session_id: str, choice: str) -> str:
    """A button's value: the session, the choice, and which question it answers (`q`), so a click on a
    question answered since is told so instead of answering the session's next question."""
    if ask.id is None:
        return actions.encode(s=session_id, v=choice)
    return actions.encode(s=session_id, v=choice, q=ask.id)


def ask_human_blocks(ask: AskHuman, session_id: str, *, sql_already_shown: bool) -> list[dict[str, Any]]:
    blocks = [section(to_mrkdwn(ask.question)[:MAX_SECTION])]
    if ask.kind == "confirm_sql":
        if ask.sql and not sql_already_shown:
            blocks += code_sections(ask.sql)
        row = actions_block(
            [
                button("Run", actions.RUN, _answer_value(ask, session_id, "run"), "primary"),
                button("Edit", actions.EDIT, _answer_value(ask, session_id, "edit")),
                button("Cancel", actions.CANCEL, _answer_value(ask, session_id, "cancel"), "danger"),
            ]
        )
        return blocks + [row] if row else blocks

    buttons = [
        button(option.label, f"{actions.CHOOSE}_{i}", _answer_value(ask, session_id, option.value), option.style)
        for i, option in enumerate(ask.options)
    ]
    row = actions_block(buttons)
    if row:
        blocks.append(row)
    if len(row["elements"] if row else []) < len(ask.options):
        blocks.append(context("Some choices did not fit as buttons: reply in this thread with your choice."))
    readings = follow_up_block(ask.readings)
    if readings:  # a whole question instead: asked in the thread, it supersedes this one
        blocks += [context("Or one of the nearest questions I can answer:"), readings]
    return blocks


def follow_up_block(questions: list[str]) -> dict[str, Any] | None:
    return actions_block(
        [button(q, f"{actions.FOLLOW_UP}_{i}", actions.encode(q=q)) for i, q in enumerate(questions[:MAX_FOLLOW_UPS])]
    )


def learn_blocks(reply: AgentReply) -> list[dict[str, Any]]:
    """After a clarification was answered: the offer to remember the word for the whole workspace."""
    offer = reply.learn
    if offer is None:
        return []
    value = actions.encode(s=reply.session_id, w=offer.word, m=offer.meaning[:1500], k=offer.kind, n=offer.name)
    row = actions_block([button("Remember", actions.LEARN, value)])
    return [section(escape(offer.question)), row] if row else []


def feedback_block(session_id: str, request_id: str | None) -> dict[str, Any]:
    value = actions.encode(s=session_id, r=request_id)
    return {
        "type": "actions",
        "elements": [
            button("👍", actions.FEEDBACK_UP, value),
            button("👎", actions.FEEDBACK_DOWN, value),
        ],
    }


FEEDBACK_REASONS = (
    "The numbers look wrong",
    "It misread my question",
    "Hard to read",
    "Something else",
)


def feedback_reason_prompt(session_id: str, message_ts: str, request_id: str | None) -> Rendered:
    """After a thumbs-down: what was wrong? One tap records it; ignoring it is fine."""
    text = "Sorry that missed. What was wrong?"
    row = actions_block(
        [
            button(reason, f"{actions.FEEDBACK_REASON}_{i}", actions.encode(s=session_id, m=message_ts, r=request_id, why=reason))
            for i, reason in enumerate(FEEDBACK_REASONS)
        ]
    )
    return Rendered(text=text, blocks=[section(text)] + ([row] if row else []))


def _table_blocks(reply: AgentReply) -> tuple[list[dict[str, Any]], bytes | None]:
    preview = render_table(
        reply.columns, reply.rows, max_chars=MAX_SECTION - 2 * (len(FENCE) + 1), formats=reply.column_formats
    )
    total = max(reply.row_count, len(reply.rows))
    blocks = [section(f"{FENCE}\n{escape(preview.text)}\n{FENCE}")]
    notes = []
    if preview.rows_shown < total:
        notes.append(f"Showing {preview.rows_shown:,} of {total:,} rows.")
    if preview.columns_shown < len(reply.columns):
        notes.append(f"Showing {preview.columns_shown} of {len(reply.columns)} columns.")
    trimmed = preview.rows_shown < len(reply.rows) or preview.columns_shown < len(reply.columns)
    csv = to_csv(reply.columns, reply.rows) if trimmed else None
    if csv is not None:
        held = "the full result" if len(reply.rows) >= total else f"the first {len(reply.rows):,} rows"
        notes.append(f"CSV with {held} attached in this thread.")
    if notes:
        blocks.append(context(" ".join(notes)))
    return blocks, csv


def _native_table(reply: AgentReply) -> tuple[list[dict[str, Any]], bytes | None] | None:
    """The preview as Slack's sortable, paged data_table; None when it does not fit (the text table then)."""
    total = max(reply.row_count, len(reply.rows))
    caption = f"Result: {total:,} row{'s' if total != 1 else ''}"
    table = data_table_block(reply.columns, reply.rows, caption=caption, formats=reply.column_formats)
    if table is None:
        return None
    shown = len(table["rows"]) - 1
    blocks = [table]
    csv = None
    if shown < total:
        csv = to_csv(reply.columns, reply.rows) if shown < len(reply.rows) else None
        held = " CSV with the rows I have attached in this thread." if csv else ""
        blocks.append(context(f"Showing {shown:,} of {total:,} rows.{held}"))
    return blocks, csv


def _chart_blocks(reply: AgentReply, *, native: bool) -> list[dict[str, Any]]:
    """The native chart where it fits; what the chart leaves out is said in words either way."""
    if reply.chart is None:
        return []
    block = data_visualization_block(reply.chart.spec, reply.columns, reply.rows) if native else None
    note = [context(f"Chart: {escape(reply.chart.spec.note)}")] if reply.chart.spec.note else []
    return ([block] if block else []) + note


def render_reply(reply: AgentReply, *, retry_job_id: str | None = None) -> Rendered:
    """The reply with Slack's native table, chart and feedback blocks, and a fallback without them."""
    if reply.error:
        return render_error(reply.error, reply.request_id, retry_job_id)
    legacy = _render(reply, native=False)
    native = _render(reply, native=True)
    streamable = not reply.ask_human and bool(reply.text.strip())
    return Rendered(
        text=native.text,
        blocks=native.blocks,
        csv=native.csv,
        fallback_blocks=None if native.blocks == legacy.blocks else legacy.blocks,
        # Streamed, the answer's words arrive as markdown and the rest comes beneath them when it stops.
        stream_text=reply.text.strip() if streamable else "",
        stream_blocks=native.tail,
        fallback_stream_blocks=None if native.tail == legacy.tail else legacy.tail,
    )


def _render(reply: AgentReply, *, native: bool) -> Rendered:
    prose = reply.text.strip()
    if reply.ask_human and prose == reply.ask_human.question.strip():
        prose = ""  # the question is shown beside its buttons; once is enough
    answer = [section(chunk) for chunk in split_mrkdwn(to_mrkdwn(prose))] if prose else []
    tail: list[dict[str, Any]] = []
    if reply.sql:
        tail += code_sections(reply.sql)
    csv = None
    tail += _chart_blocks(reply, native=native)
    if reply.columns:
        table, csv = (_native_table(reply) if native else None) or _table_blocks(reply)
        tail += table
    tail += learn_blocks(reply)
    if reply.ask_human:
        tail += ask_human_blocks(reply.ask_human, reply.session_id, sql_already_shown=bool(reply.sql))
    else:
        follow_ups = follow_up_block(reply.follow_ups)
        if follow_ups:
            tail.append(follow_ups)
        tail.append(
            native_feedback_block(reply.session_id, reply.request_id)
            if native
            else feedback_block(reply.session_id, reply.request_id)
        )
    # Which part of the agent answered stays in the logs; a person sees only the request id.
    tail.append(context(f"Request `{reply.request_id or '-'}`"))

    # The reply's actionable tail always fits; the prose gives way first, with a note.
    room = MAX_BLOCKS - len(tail)
    if len(answer) > room:
        answer = answer[: max(room - 1, 0)] + [context("The answer was shortened to fit in one Slack message.")]
    blocks = (answer + tail)[:MAX_BLOCKS]

    fallback = _plain(reply.text) or (reply.ask_human.question if reply.ask_human else "Here is your result.")
    return Rendered(text=fallback[:MAX_FALLBACK_TEXT], blocks=blocks, csv=csv, tail=tail[:MAX_BLOCKS])


def render_error(message: str, request_id: str | None, retry_job_id: str | None) -> Rendered:
    blocks = [
        section(f":warning: {escape(message)}"[:MAX_SECTION]),
        context(f"Request id `{request_id or '-'}`: mention it if you ask for help."),
    ]
    retry = actions_block([button("Retry", actions.RETRY, actions.encode(j=retry_job_id), "primary")]) if retry_job_id else None
    if retry is not None:
        blocks.append(retry)
    return Rendered(text=message[:MAX_FALLBACK_TEXT], blocks=blocks)


def render_progress(label: str) -> Rendered:
    text = f":hourglass_flowing_sand: {label}"
    return Rendered(text=label, blocks=[context(escape(text))])


_QUESTION_ACTIONS = (actions.RUN, actions.EDIT, actions.CANCEL, actions.CHOOSE)


def settle_question(blocks: list[dict[str, Any]], user: str, choice_label: str) -> list[dict[str, Any]]:
    """The answered question message: its choice buttons replaced by who chose what, so nobody presses twice."""
    kept = [
        block
        for block in blocks
        if not (
            block.get("type") == "actions"
            and any(str(e.get("action_id", "")).startswith(_QUESTION_ACTIONS) for e in block.get("elements", []))
        )
    ]
    return (kept + [context(f"<@{user}> chose *{escape(choice_label)}*.")])[-MAX_BLOCKS:]


def edit_sql_modal(sql: str, private_metadata: str) -> dict[str, Any]:
    return {
        "type": "modal",
        "callback_id": actions.EDIT_SQL_VIEW,
        "private_metadata": private_metadata,
        "title": {"type": "plain_text", "text": "Edit SQL"},
        "submit": {"type": "plain_text", "text": "Run"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            {
                "type": "input",
                "block_id": actions.EDIT_SQL_BLOCK,
                "label": {"type": "plain_text", "text": "SQL to run"},
                "element": {
                    "type": "plain_text_input",
                    "action_id": actions.EDIT_SQL_INPUT,
                    "multiline": True,
                    "max_length": MAX_MODAL_INPUT,
                    "initial_value": sql[:MAX_MODAL_INPUT],
                },
            }
        ],
    }
