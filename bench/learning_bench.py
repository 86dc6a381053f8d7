"""Learning the team's words, per development domain: a scripted person answers each question the bot
asks once and confirms "Remember …?"; then every question is asked again with nobody answering.

    python bench/learning_bench.py                   # the demo and every development domain that answers
    python bench/learning_bench.py --domain movies   # one (demo, pizza, bakeoff, movies, hr)
    python bench/learning_bench.py --smoke           # the demo's questions, and movies' first few if loaded

Prints per domain: right on the first pass, questions the bot asked (and words learned), right on the
second pass with no interaction, and whether the answers right before learning stayed the same. The
scripted person knows what they meant: of the offered choices they pick the one whose answer matches
the gold SQL (each tried in a session of its own), and answer nothing when none does. Exit status 1
when a learned question is not right the second time or an earlier right answer changed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from agent.api import AgentReply, Assistant, ChatContext, load_settings  # noqa: E402
from agent.semantic.compare import rows_match  # noqa: E402

DOMAINS_DIR = next((p / "shared/eval/domains" for p in REPO.parents if (p / "shared/eval/domains").exists()), None)
MOVIES_FILE = Path(tempfile.gettempdir()) / "dev_movies.duckdb"
DOMAINS: dict[str, dict[str, str]] = {
    "pizza": {"url": "postgresql://pizza_reader:pizza_reader@127.0.0.1:5432/dev_pizza", "schemas": "sales"},
    "bakeoff": {"url": "mysql://bakeoff_reader:bakeoff_reader@127.0.0.1:3306/dev_bakeoff", "schemas": ""},
    "movies": {"url": f"duckdb://{MOVIES_FILE}", "schemas": "catalog"},
    "hr": {"url": "postgresql://hr_reader:hr_reader@127.0.0.1:5432/dev_hr", "schemas": ""},
}
MAX_CONFIRMATIONS = 3
SMOKE_QUESTIONS = 6
PERSON = ChatContext(user="U-replay", channel="C-replay", workspace="replay")


@dataclass
class Replay:
    domain: str
    total: int = 0
    first_right: list[str] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    learned: dict[str, str] = field(default_factory=dict)  # question id -> "word = meaning"
    second_right: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # right before learning, different after
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.changed and all(i in self.second_right for i in self.learned)

    def lines(self) -> list[str]:
        words = "; ".join(f"{i}: {w}" for i, w in self.learned.items()) or "none"
        return [
            f"{self.domain}: first pass right {len(self.first_right)}/{self.total}, asked {len(self.asked)}, "
            f"learned {len(self.learned)}, second pass right with no interaction {len(self.second_right)}/{self.total}; "
            f"answers right before learning unchanged: {len(self.first_right) - len(self.changed)}/{len(self.first_right)} "
            f"({self.seconds:.0f} s)",
            f"  learned: {words}",
        ] + ([f"  CHANGED: {', '.join(self.changed)}"] if self.changed else []) + (
            [f"  not right after learning: {', '.join(i for i in self.learned if i not in self.second_right)}"]
            if not self.ok and not self.changed else [])


_sessions = iter(range(10**9))


def _session(domain: str) -> str:
    return f"replay-{domain}-{next(_sessions)}"


async def _through(assistant: Assistant, session: str, reply: AgentReply) -> AgentReply:
    """Run what the bot proposes (the person says Run to every confirmation)."""
    for _ in range(MAX_CONFIRMATIONS):
        if not (reply.ask_human and reply.ask_human.kind == "confirm_sql"):
            break
        reply = await assistant.reply(assistant.resume(session, "run", PERSON))
    return reply


def _right(item: dict[str, Any], reply: AgentReply, gold: dict[str, list[Any]]) -> bool:
    if item.get("sql") is None:  # a question a careful assistant asks back on
        return not reply.rows
    if reply.error or not reply.columns:
        return False
    return any(rows_match(columns, rows, reply.columns, reply.rows, ordered=bool(item.get("ordered")))
               for columns, rows in gold[item["id"]])


def _clarifies(reply: AgentReply) -> bool:
    return reply.ask_human is not None and reply.ask_human.kind == "clarify" and bool(reply.ask_human.term)


async def replay(assistant: Assistant, domain: str, questions: list[dict[str, Any]]) -> Replay:
    started = time.perf_counter()
    result = Replay(domain, total=len(questions))
    gold = {item["id"]: [_gold(assistant, sql) for sql in [item["sql"], *_alts(item)]] if item.get("sql") else []
            for item in questions}
    before: dict[str, list[list[Any]]] = {}
    for item in questions:  # first pass: the person answers each question the bot asks, once
        session = _session(domain)
        reply = await _through(assistant, session, await assistant.reply(assistant.ask(session, item["question"], PERSON)))
        if _right(item, reply, gold):
            result.first_right.append(item["id"])
            before[item["id"]] = reply.rows
        elif _clarifies(reply) and item.get("sql"):
            result.asked.append(item["id"])
            learned = await _answer_once(assistant, domain, item, reply, gold)
            if learned:
                result.learned[item["id"]] = learned
    for item in questions:  # second pass: nobody answers
        session = _session(domain)
        reply = await _through(assistant, session, await assistant.reply(assistant.ask(session, item["question"], PERSON)))
        if _right(item, reply, gold):
            result.second_right.append(item["id"])
        if item["id"] in before and reply.rows != before[item["id"]]:
            result.changed.append(item["id"])
    result.seconds = time.perf_counter() - started
    return result


async def _answer_once(assistant: Assistant, domain: str, item: dict[str, Any], asked: AgentReply,
                       gold: dict[str, list[Any]]) -> str | None:
    """The person's answer: the choice whose answer is right; its word remembered. None when no choice is."""
    assert asked.ask_human is not None
    for option in asked.ask_human.options:
        session = _session(domain)
        first = await assistant.reply(assistant.ask(session, item["question"], PERSON))
        if not _clarifies(first):
            return None
        answered = await assistant.reply(assistant.resume(session, option.value, PERSON))
        offer = answered.learn  # offered with the answer to the clarification (beside a confirmation, if any)
        reply = await _through(assistant, session, answered)
        if _right(item, reply, gold):
            if offer is None:
                return None
            taught = await assistant.learn_word(session, offer, PERSON)
            return f"{offer.word} = {offer.meaning}" if taught.ok else None
    return None


def _alts(item: dict[str, Any]) -> list[str]:
    alt = item.get("alt_sql") or []
    return [alt] if isinstance(alt, str) else list(alt)


def _gold(assistant: Assistant, sql: str) -> tuple[list[str], list[Any]]:
    result = assistant.context.warehouse.run(sql)
    return result.columns, [list(r) for r in result.rows]


def _questions(domain: str) -> list[dict[str, Any]]:
    if domain == "demo":
        path = REPO / "bench/data/learning_demo.json"
    else:
        assert DOMAINS_DIR is not None
        path = DOMAINS_DIR / domain / "questions.json"
    return json.loads(path.read_text(encoding="utf-8"))


def available(domain: str) -> str | None:
    """Why the domain cannot be replayed here, or None."""
    if domain == "demo":
        return None
    if DOMAINS_DIR is None:
        return "the shared eval folder is not beside this checkout"
    if domain == "movies" and not MOVIES_FILE.exists():
        return f"{MOVIES_FILE} is not loaded (python3 ../shared/eval/domains/movies/load.py)"
    return None


async def run_domain(domain: str, data_dir: Path, limit: int | None = None) -> Replay:
    spec = DOMAINS.get(domain, {})
    settings = load_settings(
        _env_file=None, data_dir=data_dir, redis_url=None, openai_api_key=None, openai_base_url=None,
        warehouse_url=spec.get("url"), warehouse_schemas=spec.get("schemas", ""),
        cpu_step_budget_s=120.0,  # a loaded machine is slow, not wrong: this bench counts answers, not time
    )
    assistant = Assistant.from_settings(settings)
    try:
        return await replay(assistant, domain, _questions(domain)[:limit])
    finally:
        await assistant.aclose()


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domain", action="append", choices=["demo", *DOMAINS])
    parser.add_argument("--smoke", action="store_true", help="the demo, and movies' first questions if loaded")
    args = parser.parse_args(argv)
    domains = args.domain or (["demo", "movies"] if args.smoke else ["demo", *DOMAINS])
    status = 0
    for domain in domains:
        why = available(domain)
        if why:
            print(f"{domain}: skipped, {why}")
            continue
        with tempfile.TemporaryDirectory(prefix=f"learning-{domain}-") as data_dir:
            limit = SMOKE_QUESTIONS if args.smoke and domain != "demo" else None
            try:
                result = await run_domain(domain, Path(data_dir), limit)
            except Exception as exc:  # noqa: BLE001 - a domain whose warehouse does not answer is reported, not fatal
                print(f"{domain}: could not run ({type(exc).__name__}: {exc})")
                continue
        print("\n".join(result.lines()), flush=True)
        status |= 0 if result.ok else 1
    return status


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
