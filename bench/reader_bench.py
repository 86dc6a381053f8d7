"""How the offline reader does on every development set: right / wrong / asked per set and category.

Each question goes through the real assistant in this process (the offline model, the graph, the
warehouse; a confirmation is answered with Run), as `python -m agent ask --yes --json` would, and
is judged like ../shared/eval/domains/score.py judges it (that script's own matching, imported):

  right  every gold column matched row for row (extra columns and names do not matter)
  wrong  rows that match no reading; on a question that should be asked back, any rows
  asked  asked back (a clarification, a table choice) or answered in words without a query
  error  the reply's error or a crash

    python bench/reader_bench.py                       # every set: dev, dev2, tpch, the four domains
    python bench/reader_bench.py --sets hr,pizza       # some of them
    python bench/reader_bench.py --sets pizza --url duckdb:///tmp/copy.duckdb   # the product on another copy
    python bench/reader_bench.py --smoke               # three questions of the demo set
    python bench/reader_bench.py --verbose             # every question's outcome, with the SQL when wrong
    python bench/reader_bench.py --extra /path/shop    # also a warehouse in the domains' format (meta.json
                                                       # gives its URL); bench/data/domains/* by name:
    python3 bench/data/domains/bikeshop/load.py && python bench/reader_bench.py --sets bikeshop

Far faster than score.py (no process per question), so it can run after every change; score.py
through the command line stays the judge of record. The domains must be loaded (score.py loads
them; see ../shared/eval/domains/README.md); TPC-H is loaded into a DuckDB file here when missing.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = next((p / "shared" for p in REPO.parents if (p / "shared/eval").is_dir()), Path("/work/shared"))
EVAL = SHARED / "eval"
DOMAINS = ("pizza", "bakeoff", "movies", "hr")
DEMO_SETS = {"dev": "dev_questions.json", "dev2": "dev_questions2.json"}
EXTRA_DOMAINS = REPO / "bench/data/domains"  # warehouses of our own making: load.py, meta.json, questions.json
PROBES = {"probe": REPO / "bench/data/demo_probe.json"}  # our own questions on the demo, written away from the sets
TPCH_FILE = Path(tempfile.gettempdir()) / "reader_bench_tpch.duckdb"
OUTCOMES = ("right", "wrong", "asked", "error")


def _score_module() -> ModuleType:
    """score.py's matching and its gold-side connections, without its private venv."""
    sys.path.insert(0, str(EVAL / "domains"))
    spec = importlib.util.spec_from_file_location("domain_score", EVAL / "domains" / "score.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class DuckGold:
    """The gold side on a DuckDB file (the demo, TPC-H), answering like score.Warehouse."""

    def __init__(self, path: Path, norm):
        import duckdb

        self._con = duckdb.connect(str(path), read_only=True)
        self._norm = norm

    def run(self, sql: str):
        cur = self._con.execute(sql)
        return [d[0] for d in cur.description], [[self._norm(v) for v in row] for row in cur.fetchall()]

    def close(self) -> None:
        self._con.close()


def _extra_domains(score: ModuleType, folders: list[Path]) -> dict[str, Path]:
    """More warehouses in the domains' format, each registered with score.py's gold side by its meta.json."""
    found = {}
    for folder in [*sorted(p.parent for p in EXTRA_DOMAINS.glob("*/meta.json")), *folders]:
        score._common.DOMAINS[folder.name] = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        found[folder.name] = folder
    return found


def _questions(name: str, extras: dict[str, Path]) -> list[dict[str, Any]]:
    """One format for every set: id, question, sql, alt_sql (list), ordered, category, expect."""
    if name in DOMAINS or name in extras:
        folder = extras.get(name) or EVAL / "domains" / name
        return json.loads((folder / "questions.json").read_text(encoding="utf-8"))
    path = PROBES.get(name) or EVAL / (DEMO_SETS[name] if name in DEMO_SETS else "tpch/questions.json")
    items = []
    for raw in json.loads(path.read_text(encoding="utf-8")):
        if raw.get("expect") == "ask":
            items.append({"id": raw["id"], "question": raw["q"], "sql": None, "expect": "ask", "category": "ask"})
            continue
        alt = raw.get("alt_sql")
        items.append({"id": raw["id"], "question": raw["q"], "sql": raw["sql"],
                      "alt_sql": alt if isinstance(alt, list) else [alt] if alt else [],
                      "ordered": bool(raw.get("ordered")), "category": raw.get("category", "-")})
    return items


async def _ask(assistant, question: str) -> dict[str, Any]:
    """The reply as `python -m agent ask --yes --json` prints it."""
    session = "bench-" + uuid.uuid4().hex[:8]
    reply = await assistant.reply(assistant.ask(session, question))
    for _ in range(3):
        if not (reply.ask_human and reply.ask_human.kind == "confirm_sql"):
            break
        reply = await assistant.reply(assistant.resume(session, "run"))
    return {"answer": reply.text, "sql": reply.sql, "columns": reply.columns, "rows": reply.rows,
            "ask_human": reply.ask_human.model_dump() if reply.ask_human else None, "error": reply.error}


async def _run_set(name: str, url: str | None, score: ModuleType, items: list[dict], verbose: bool) -> list[dict]:
    from agent.api import Assistant, load_settings

    data_dir = tempfile.mkdtemp(prefix=f"reader-bench-{name}-")
    fields: dict[str, Any] = {"data_dir": data_dir, "openai_api_key": None, "redis_url": None,
                              "semantic_model_path": None, "catalog_path": None, "policy_path": None}
    gold: Any
    if name in score._common.DOMAINS:
        fields["warehouse_url"] = url or score._common.DOMAINS[name]["url"]
        source = score._common.DOMAINS[name]["url"]
        gold = _duck_copy(source.removeprefix("duckdb://"), data_dir, score) if source.startswith("duckdb://") \
            else score.Warehouse(name)
    elif name == "tpch":
        _load_tpch()
        fields["warehouse_url"] = url or f"duckdb://{TPCH_FILE}"
        gold = _duck_copy(str(TPCH_FILE), data_dir, score)
    else:
        fields["warehouse_url"] = url
        gold = None  # the demo's own file, once the assistant has built it
    settings = load_settings(_env_file=None, **fields)
    assistant = Assistant.from_settings(settings)
    if gold is None:
        gold = _duck_copy(str(Path(data_dir) / "nycflights13.duckdb"), data_dir, score)
    results, cache = [], {}
    try:
        for item in items:
            started = time.monotonic()
            try:
                reply, problem = await _ask(assistant, item["question"]), None
            except Exception as exc:  # a crash is an outcome, not the end of the bench
                reply, problem = None, f"crash: {type(exc).__name__}: {exc}"
            outcome, detail = score.classify(item, reply, problem, gold, cache)
            results.append({**item, "set": name, "outcome": outcome, "detail": detail,
                            "seconds": time.monotonic() - started, "got_sql": (reply or {}).get("sql") or ""})
            if verbose:
                good = outcome == ("asked" if item.get("expect") == "ask" else "right")
                print(f"{name:<7} {item['id']:<6} {item['category']:<18} {outcome.upper() if not good else 'ok':<6} "
                      f"{item['question']}", flush=True)
                if not good:
                    print(f"{'':<16}{detail}")
                    if outcome == "wrong" and results[-1]["got_sql"]:
                        print(f"{'':<16}sql: {' '.join(results[-1]['got_sql'].split())[:300]}")
    finally:
        await assistant.aclose()
        gold.close()
    return results


def _duck_copy(path: str, folder: str, score: ModuleType) -> DuckGold:
    """The gold side reads a copy: DuckDB refuses a second opening of a file with other settings."""
    copy = Path(folder) / ("gold-" + Path(path).name)
    shutil.copyfile(path, copy)
    return DuckGold(copy, score.norm)


def _load_tpch() -> None:
    if TPCH_FILE.exists():
        return
    subprocess.run([sys.executable, str(EVAL / "tpch" / "load.py"), str(TPCH_FILE)], check=True,
                   stdout=subprocess.DEVNULL)


def _good(result: dict) -> bool:
    return result["outcome"] == ("asked" if result.get("expect") == "ask" else "right")


def report(results: list[dict]) -> None:
    for name in dict.fromkeys(r["set"] for r in results):
        rows = [r for r in results if r["set"] == name]
        counts = "  ".join(f"{o} {sum(r['outcome'] == o for r in rows)}" for o in OUTCOMES)
        print(f"{name}: {sum(map(_good, rows))}/{len(rows)}   {counts}")
        for category in sorted({r["category"] for r in rows}):
            group = [r for r in rows if r["category"] == category]
            counts = "  ".join(f"{o} {sum(r['outcome'] == o for r in group)}" for o in OUTCOMES if
                               any(r['outcome'] == o for r in group))
            print(f"    {category:<20} {sum(map(_good, group))}/{len(group):<3} {counts}")
    wrong = sum(r["outcome"] == "wrong" for r in results)
    print(f"all: {sum(map(_good, results))}/{len(results)}   confidently wrong: {wrong}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", help="comma-separated: dev, dev2, probe, tpch, " + ", ".join(DOMAINS)
                        + "; the folders of bench/data/domains by name, once loaded (default: all but those)")
    parser.add_argument("--extra", action="append", default=[], type=Path,
                        help="another domain folder (questions.json, meta.json); its name becomes a set")
    parser.add_argument("--ids", help="comma-separated question ids")
    parser.add_argument("--url", help="run the product on this WAREHOUSE_URL instead (one set only)")
    parser.add_argument("--smoke", action="store_true", help="three demo questions: the bench itself works")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--out", help="write every outcome to this JSON file")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    score = _score_module()
    extras = _extra_domains(score, args.extra)
    every = ["dev", "dev2", "probe", "tpch", *DOMAINS]  # bench/data/domains/* by name, once loaded (their load.py)
    sets = ["dev"] if args.smoke else [s for s in args.sets.split(",") if s] if args.sets else every
    wanted = set(args.ids.split(",")) if args.ids else None
    results: list[dict] = []
    for name in sets:
        items = _questions(name, extras)
        items = items[:3] if args.smoke else [i for i in items if wanted is None or i["id"] in wanted]
        if items:
            results += asyncio.run(_run_set(name, args.url, score, items, args.verbose))
    report(results)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
