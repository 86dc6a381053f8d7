"""Threads as a conversation: each turn of bench/data/threads_dev.json and threads_slack.json (threads
written blind the way Slack users type) asked in its own Slack-like session, through the offline
assistant on the demo warehouse, scored right / wrong / asked.

- right: the turn did what it should (rows that hold the gold SQL's columns, SQL that gives them,
  a clarifying question, a "why" in the model's words, a confirmation that leads with the reading);
- wrong: numbers that are not the gold's (confidently wrong), or words with internal names;
- asked: no answer where one was due (a refusal, a needless question, an error).
A turn the data cannot answer ('decline', e.g. another year than the data holds) is right when it is
declined or asked about before anything runs, naming `must` (what the data holds, or the word not
understood); wrong when it is answered with rows; 'asked' when it runs a query that comes back empty.

A thread is right when every one of its turns is. Run from the repo root:
    python bench/thread_bench.py [--smoke] [--data FILE ...] [--show]
--smoke runs the first three threads of each file, to check the bench itself works. Each file's
figures are printed, then the whole.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.api import Assistant  # noqa: E402
from agent.settings import load_settings  # noqa: E402

DATA = [Path(__file__).with_name("data") / name for name in ("threads_dev.json", "threads_slack.json")]
INTERNAL_NAMES = ("__q0", '"m0"', " m0", "CAST(", "__")


def _value(v, scale: float = 1):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return round(float(v) * scale, 2)
    return str(v)


def _columns(columns: list[str], rows: list[list], scale: float = 1) -> list[list]:
    return [sorted((_value(r[i], scale) for r in rows), key=lambda x: (isinstance(x, str), x))
            for i in range(len(columns))]


def _answer_columns(columns: list[str], rows: list[list]) -> list[list]:
    """The answer's columns as the gold may spell them: as they are, a share in percent (0.03 is 3%), and a
    key of two parts apart ('JFK-HNL' holds the origin JFK and the destination HNL)."""
    found = _columns(columns, rows) + _columns(columns, rows, 100)
    for i in range(len(columns)):
        parts = [str(r[i]).split("-") for r in rows]
        if rows and all(isinstance(r[i], str) and len(p) == 2 for r, p in zip(rows, parts)):
            found += _columns(["first", "second"], [p for p in parts])
    return found


def _close(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if not math.isclose(x, y, rel_tol=1e-3, abs_tol=0.01):
                return False
        elif x != y:
            return False
    return True


def holds_gold(columns: list[str], rows: list[list], gold_columns: list[str], gold_rows: list[list]) -> bool:
    """Every gold column's values appear as one of the answer's columns (as `_answer_columns` spells them),
    with as many rows."""
    if len(rows) != len(gold_rows):
        return False
    answer = _answer_columns(columns, rows)
    return all(any(_close(g, a) for a in answer) for g in _columns(gold_columns, gold_rows))


async def run_turn(assistant: Assistant, session: str, turn: dict, gold, confirmations: Counter) -> tuple[str, str]:
    """(score, a note) for one turn; `confirmations` counts those that lead with the reading."""
    reply = await assistant.reply(assistant.ask(session, turn["say"]))
    confirm = turn.get("confirm", "run")
    if reply.ask_human and reply.ask_human.kind == "confirm_sql":
        confirmations["shown"] += 1
        confirmations["reading first"] += reply.ask_human.question.startswith("Reading it as:")
        if confirm == "leave":
            return ("right", "left pending") if turn["expect"] == "pending" else ("asked", "confirmation left")
        reply = await assistant.reply(assistant.resume(session, confirm))
    expect = turn["expect"]
    said = (reply.text or "") + " " + (reply.error or "")
    if expect == "pending":
        return "asked", "no confirmation to leave pending"
    if expect == "cancelled":
        return ("right", "") if reply.rows is None or not reply.rows else ("wrong", "ran though cancelled")
    if expect == "decline":  # the data cannot answer it: saying so (or asking) is right, numbers are not
        if reply.rows:
            return "wrong", f"answered an ask the data cannot answer: {reply.columns} {reply.rows[:2]}"
        if reply.columns:
            return "asked", "ran a query that could only come back empty: " + said.strip()[:100]
        missing = [w for w in turn.get("must", []) if w.lower() not in said.lower()]
        if missing:
            return "asked", f"does not say {missing}: " + said.strip()[:100]
        return ("right", "") if said.strip() or reply.ask_human else ("asked", "said nothing")
    if expect == "ask":
        if reply.ask_human and reply.ask_human.kind != "confirm_sql":
            return "right", ""
        return ("wrong", "answered without asking") if reply.rows else ("asked", said[:120])
    if expect == "explain":
        if reply.rows or not reply.text:
            return "asked", said[:120]
        if any(name in reply.text for name in INTERNAL_NAMES):
            return "wrong", "internal names: " + reply.text[:150]
        missing = [w for w in turn.get("must", []) if w.lower() not in reply.text.lower()]
        return ("right", "") if not missing else ("wrong", f"does not say {missing}")
    gold_columns, gold_rows = gold
    if expect == "sql":
        if not reply.sql or reply.rows:
            return "asked", "no SQL alone: " + said[:120]
        result = assistant.context.warehouse.run(reply.sql)
        ok = holds_gold(result.columns, [list(r) for r in result.rows], gold_columns, gold_rows)
        return ("right", "") if ok else ("wrong", "SQL gives other rows")
    if not reply.columns or reply.rows is None:
        return "asked", said.strip()[:160]
    if not holds_gold(reply.columns, reply.rows, gold_columns, gold_rows):
        return "wrong", f"{reply.columns} {reply.rows[:3]} | {said.strip()[:100]}"
    if turn.get("chart") and (reply.chart.spec.kind if reply.chart else "none") != turn["chart"]:
        return "wrong", "chart is " + (reply.chart.spec.kind if reply.chart else "none")
    return "right", ""


async def main(sets: dict[str, list[dict]], show: bool) -> int:
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(_env_file=None, data_dir=folder, openai_api_key=None, openai_base_url=None,
                                 redis_url=None, warehouse_url=None)
        assistant = Assistant.from_settings(settings)
        try:
            totals = []
            for name, threads in sets.items():
                print(f"== {name}")
                totals.append(await _run_set(assistant, name, threads, show))
        finally:
            await assistant.aclose()
    if len(totals) > 1:
        scores = sum((t[0] for t in totals), Counter())
        print(f"\nall: {scores['right']}/{sum(scores.values())} turns right, {scores['wrong']} wrong, "
              f"{scores['asked']} asked; {sum(t[1] for t in totals)}/{sum(t[2] for t in totals)} threads right")
    return 0


async def _run_set(assistant: Assistant, name: str, threads: list[dict], show: bool) -> tuple[Counter, int, int]:
    """One file's threads, each in its own session: its figures printed; (turn scores, threads right, threads)."""
    scores: Counter = Counter()
    by_kind: dict[str, Counter] = defaultdict(Counter)
    threads_right = 0
    confirmations: Counter = Counter()
    for number, thread in enumerate(threads):
        session = f"bench-{name}-{number}"
        all_right = True
        for turn in thread["turns"]:
            gold = None
            if turn.get("gold"):
                result = assistant.context.warehouse.run(turn["gold"])
                gold = (result.columns, [list(r) for r in result.rows])
            try:
                score, note = await run_turn(assistant, session, turn, gold, confirmations)
            except Exception as exc:  # a crash is a turn not answered, and is shown
                score, note = "asked", f"crashed: {exc!r}"[:160]
            scores[score] += 1
            by_kind[turn.get("kind", "?")][score] += 1
            all_right &= score == "right"
            if show or score != "right":
                print(f"  [{score:5}] {thread['id']}: {turn['say']!r} {note}")
        threads_right += all_right
    turns = sum(scores.values())
    print(f"turns: {scores['right']}/{turns} right, {scores['wrong']} wrong, {scores['asked']} asked/refused")
    print(f"threads right start to finish: {threads_right}/{len(threads)}")
    print(f"confirmations leading with the reading: {confirmations['reading first']}/{confirmations['shown']}")
    for kind, counts in sorted(by_kind.items()):
        print(f"  {kind:15} {counts['right']}/{sum(counts.values())} right, {counts['wrong']} wrong, {counts['asked']} asked")
    return scores, threads_right, len(threads)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="the first three threads of each file only")
    parser.add_argument("--data", type=Path, nargs="+", default=DATA)
    parser.add_argument("--show", action="store_true", help="print every turn, not only the misses")
    args = parser.parse_args()
    sets = {path.stem: json.loads(path.read_text())["threads"][: 3 if args.smoke else None] for path in args.data}
    sys.exit(asyncio.run(main(sets, args.show)))
