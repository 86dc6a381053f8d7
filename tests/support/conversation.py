"""A Slack thread played turn by turn through the bot's real HTTP endpoint, each turn judged.

A turn is a message in the thread (the first one mentions the bot), signed as Slack signs it; the
bot's answer is read back from the Web API stand-in: the native data_table's cells, the SQL in a
code block, the buttons. When the answer is a confirmation, the turn's `confirm` ("run", "cancel",
"leave") is clicked. What the turn should do (`expect`) is the threads' contract:

- rows: a table whose columns hold the gold SQL's columns (same number of rows; numbers to 0.1%);
- sql: the SQL alone, no table; run, it gives the gold rows;
- ask: a question with a button for each meaning; with `choose`, the button whose label holds it
  is clicked and the answer that follows is judged against the gold;
- explain: words only, naming `must`, with no internal alias;
- cancelled: nothing run;
- decline: an ask the data cannot answer: nothing run (no table, no SQL), saying `must`.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

from bot.render import actions
from tests.support.slack_requests import click, mention, message

INTERNAL_NAMES = ("__q0", '"m0"', " m0 ", "CAST(")
FENCE = "```"


@dataclass
class Seen:
    """What the bot posted for one turn, read from the stand-in."""

    text: str = ""
    prose: str = ""  # the words, without the SQL shown beneath them
    sql: str | None = None
    columns: list[str] | None = None
    rows: list[list[Any]] | None = None
    buttons: list[dict[str, Any]] = field(default_factory=list)
    chart: str | None = None
    last: dict[str, Any] | None = None

    def button(self, prefix: str) -> dict[str, Any] | None:
        return next((b for b in self.buttons if b["action_id"].startswith(prefix)), None)


def _block_text(block: dict[str, Any]) -> str:
    if "text" in block and isinstance(block["text"], dict):
        return block["text"].get("text", "")
    return " ".join(str(e.get("text", "")) for e in block.get("elements", []) if isinstance(e, dict))


def read_messages(messages: list[dict[str, Any]]) -> Seen:
    seen = Seen(last=messages[-1] if messages else None)
    for msg in messages:
        seen.text += msg.get("text", "") + "\n"
        seen.prose += msg.get("text", "") + "\n"
        for block in msg.get("blocks", []):
            kind = block.get("type")
            if kind == "data_table":
                header, *body = block["rows"]
                seen.columns = [c["text"] for c in header]
                seen.rows = [[c["value"] if c["type"] == "raw_number" else c["text"] for c in row] for row in body]
            elif kind == "data_visualization":
                seen.chart = block.get("chart", {}).get("type") or block.get("chart_type") or "chart"
            elif kind == "actions":
                seen.buttons += [e for e in block["elements"] if e.get("type") == "button"]
            else:
                said = _block_text(block)
                if said.startswith(FENCE):
                    if "SELECT" in said.upper():
                        seen.sql = (seen.sql or "") + html.unescape(said.strip("`\n").strip()) + "\n"
                else:
                    seen.prose += said + "\n"
                seen.text += said + "\n"
    return seen


def _value(v: Any) -> Any:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, (int, float)):
        return round(float(v), 2)
    if v is None:
        return "–"
    try:
        return round(float(str(v).replace(",", "")), 2)
    except ValueError:
        return str(v)


def _columns(rows: list[list[Any]], width: int) -> list[list[Any]]:
    return [sorted((_value(r[i]) for r in rows), key=lambda x: (isinstance(x, str), x)) for i in range(width)]


def _close(a: list[Any], b: list[Any]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if not math.isclose(x, y, rel_tol=1e-3, abs_tol=0.01):
                return False
        elif str(x) != str(y) and not _cut_short(str(x), str(y)):
            return False
    return True


def _cut_short(full: str, shown: str) -> bool:
    """A long text shown cut, with an ellipsis, in a table cell."""
    return shown.endswith("…") and full.startswith(shown[:-1])


def holds_gold(rows: list[list[Any]], width: int, gold_rows: list[list[Any]], gold_width: int) -> bool:
    """Every gold column's values are one of the answer's columns, with as many rows."""
    if len(rows) != len(gold_rows):
        return False
    answer = _columns(rows, width)
    return all(any(_close(g, a) for a in answer) for g in _columns(gold_rows, gold_width))


class Conversation:
    """One thread in one channel, played through `bot` (a RunningBot) and read from `slack`."""

    def __init__(self, bot: Any, slack: Any, run_sql: Any, *, channel: str, root_ts: str) -> None:
        self.bot, self.slack, self.run_sql = bot, slack, run_sql
        self.channel, self.root_ts = channel, root_ts
        self.turns = 0

    def _messages(self) -> list[dict[str, Any]]:
        return [m for m in self.slack.thread(self.channel, self.root_ts) if m.get("bot_id")]

    async def _after(self, action) -> Seen:
        before = {m["ts"] for m in self._messages()}
        uploads = len(self.slack.calls_to("files.getUploadURLExternal"))
        await action()
        await self.bot.drain()
        seen = read_messages([m for m in self._messages() if m["ts"] not in before])
        drawn = [c for c in self.slack.calls_to("files.getUploadURLExternal")[uploads:]
                 if c.params.get("filename") == "chart.png"]
        if seen.chart is None and drawn:
            seen.chart = "picture"  # too many points for Slack's native chart: the drawn PNG only
        return seen

    async def say(self, text: str) -> Seen:
        self.turns += 1
        ts = f"{self.root_ts.split('.')[0]}.{self.turns + 1:02d}"
        if self.turns == 1:
            event = mention(text, ts=self.root_ts, channel=self.channel)
        else:
            event = message(text, ts=ts, channel=self.channel, thread_ts=self.root_ts)
        return await self._after(lambda: self.bot.send.event(event))

    async def press(self, seen: Seen, button: dict[str, Any]) -> Seen:
        label = button["text"]["text"]
        assert seen.last is not None
        payload = click(button["action_id"], button["value"], message=seen.last, channel=self.channel, label=label)
        return await self._after(lambda: self.bot.send.interaction(payload))

    async def turn(self, turn: dict[str, Any]) -> str | None:
        """Play one turn; None when it did what it should, else what went wrong."""
        seen = await self.say(turn["say"])
        run = seen.button(actions.RUN)
        confirm = turn.get("confirm", "run")
        if run is not None and confirm != "leave":
            if not seen.text.lstrip().startswith("Reading it as"):
                first = seen.text.strip().splitlines()[0][:120] if seen.text.strip() else ""
                if "Reading it as" not in seen.text:
                    return f"the confirmation does not lead with the reading: {first!r}"
            seen = await self.press(seen, seen.button(actions.CANCEL if confirm == "cancel" else actions.RUN) or run)
        return self.judge(turn, seen) if turn["expect"] != "ask" else await self._judge_ask(turn, seen)

    async def _judge_ask(self, turn: dict[str, Any], seen: Seen) -> str | None:
        choices = [b for b in seen.buttons if b["action_id"].startswith(actions.CHOOSE)]
        if not choices:
            return "no question with choices: " + _gist(seen)
        labels = [b["text"]["text"] for b in choices]
        for wanted in turn.get("options", []):
            if not any(wanted.lower() in label.lower() for label in labels):
                return f"no button for {wanted!r} among {labels}"
        if "choose" not in turn:
            return None
        chosen = next((b for b in choices if turn["choose"].lower() in b["text"]["text"].lower()), None)
        if chosen is None:
            return f"no button {turn['choose']!r} among {labels}"
        answer = await self.press(seen, chosen)
        run = answer.button(actions.RUN)
        if run is not None:
            answer = await self.press(answer, run)
        return self.judge({**turn, "expect": "rows"}, answer)

    def judge(self, turn: dict[str, Any], seen: Seen) -> str | None:
        expect = turn["expect"]
        if expect == "pending":
            return None if seen.button(actions.RUN) else "no confirmation left pending: " + _gist(seen)
        if expect == "cancelled":
            return "ran though cancelled" if seen.rows else None
        if expect == "decline":
            if seen.rows is not None or seen.sql:
                return "ran a query for an ask the data cannot answer: " + _gist(seen)
            missing = [w for w in turn.get("must", []) if w.lower() not in seen.text.lower()]
            return f"does not say {missing}: {_gist(seen)}" if missing or not seen.text.strip() else None
        if expect == "explain":
            if seen.rows:
                return "answered with rows, not words"
            if any(name in seen.prose for name in INTERNAL_NAMES):
                return "internal names: " + _gist(seen)
            missing = [w for w in turn.get("must", []) if w.lower() not in seen.text.lower()]
            return f"does not say {missing}: {_gist(seen)}" if missing else None
        gold = self.run_sql(turn["gold"])
        if expect == "sql":
            if seen.rows or not seen.sql:
                return "no SQL alone: " + _gist(seen)
            columns, rows = self.run_sql(seen.sql)
            return None if holds_gold(rows, len(columns), gold[1], len(gold[0])) else "the SQL gives other rows"
        if seen.rows is None or seen.columns is None:
            return "no table: " + _gist(seen)
        if not holds_gold(seen.rows, len(seen.columns), gold[1], len(gold[0])):
            answer = _columns(seen.rows, len(seen.columns))
            for g in _columns(gold[1], len(gold[0])):
                if not any(_close(g, a) for a in answer):
                    differ = [(x, y) for a in answer for x, y in zip(g, a) if str(x) != str(y)][:3]
                    return f"gold column {g[:5]} not in the answer (first differences {differ})"
            return f"other rows ({len(seen.rows)}, gold {len(gold[1])}): {seen.columns} {seen.rows[:3]} | {_gist(seen)}"
        if turn.get("chart") and seen.chart not in (turn["chart"], "picture"):
            return f"the chart is {seen.chart or 'none'}, not {turn['chart']}"
        return None


def _gist(seen: Seen) -> str:
    return " ".join(seen.text.split())[:220]
