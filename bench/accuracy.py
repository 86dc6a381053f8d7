"""Accuracy of the assistant on questions with gold SQL.

    python bench/accuracy.py                 # each question through `python -m agent ask --yes --json`
    python bench/accuracy.py --in-process    # the same command's code (agent.cli.main) in this process:
                                             # one interpreter start for every question
    python bench/accuracy.py --direct        # in-process: extract -> compile -> run (semantic path only)
    python bench/accuracy.py --questions tests/semantic/extra_questions.json --direct
    python bench/accuracy.py --smoke         # the first question, in-process: the bench itself works
                                             # (tests/agent/test_cli.py runs the CLI mode on a subset)

A question counts as right when every gold column is matched, row for row, by some
result column (names and extra columns do not matter; numbers within 1e-6 relative;
order only where the question says "ordered"). Prints accuracy, the failures and the
median time per question.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from agent.semantic.compare import rows_match

REPO = Path(__file__).resolve().parents[1]
# the shared eval folder sits beside the checkout (/work/main) or higher up (/work/wt/<name>)
DEV_QUESTIONS = next((p / "shared/eval/dev_questions.json" for p in Path(__file__).resolve().parents
                      if (p / "shared/eval/dev_questions.json").exists()), Path("shared/eval/dev_questions.json"))


@dataclass
class Outcome:
    id: str
    question: str
    ok: bool
    seconds: float
    detail: str = ""
    sql: str = ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    parser.add_argument("--direct", action="store_true", help="semantic path in-process, no CLI")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per question (CLI mode)")
    parser.add_argument("--in-process", action="store_true",
                        help="each question through the command line's own code in this process, not a new one")
    parser.add_argument("--smoke", action="store_true", help="only the first question, in-process")
    args = parser.parse_args(argv)
    args.direct = args.direct or args.smoke

    from agent.settings import load_settings
    from agent.warehouse import open_warehouse

    questions = json.loads(args.questions.read_text(encoding="utf-8"))[: 1 if args.smoke else None]
    settings = load_settings()
    warehouse = open_warehouse(settings)
    if args.direct:
        answer = _direct_answerer(warehouse, settings)
    else:
        answer = _cli_answerer(_in_this_process if args.in_process else _in_a_new_process(args.timeout))
    outcomes = [_score(item, warehouse, answer) for item in questions]

    right = sum(o.ok for o in outcomes)
    print(f"accuracy: {right}/{len(outcomes)}")
    categories: dict[str, list[Outcome]] = {}
    for item, outcome in zip(questions, outcomes):
        categories.setdefault(item.get("category", "all"), []).append(outcome)
    if len(categories) > 1:
        for name, group in categories.items():
            print(f"  {name:<20} {sum(o.ok for o in group)}/{len(group)}")
    for outcome in outcomes:
        if not outcome.ok:
            print(f"  FAIL {outcome.id}: {outcome.question}\n       {outcome.detail}")
            if outcome.sql:
                print("       sql: " + " ".join(outcome.sql.split()))
    print(f"median time per question: {statistics.median(o.seconds for o in outcomes) * 1000:.1f} ms")
    return 0 if right == len(outcomes) else 1


def _score(item: dict, warehouse, answer) -> Outcome:
    gold = warehouse.run(item["sql"])
    started = time.perf_counter()
    try:
        columns, rows, sql, error = answer(item["q"])
    except Exception as exc:  # a crash is a wrong answer here, with its reason shown
        columns, rows, sql, error = [], [], "", f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - started
    if error:
        return Outcome(item["id"], item["q"], False, seconds, f"error: {error}", sql)
    ok = rows_match(gold.columns, gold.rows, columns, rows, ordered=bool(item.get("ordered")))
    if not ok and item.get("alt_sql"):  # an equally right reading the eval accepts (a fraction for a percent)
        alt = warehouse.run(item["alt_sql"])
        ok = rows_match(alt.columns, alt.rows, columns, rows, ordered=bool(item.get("ordered")))
    detail = "" if ok else f"expected {gold.rows[:3]}{'…' if gold.row_count > 3 else ''} ({gold.row_count} rows), " \
                           f"got {[tuple(r) for r in rows[:3]]}{'…' if len(rows) > 3 else ''} ({len(rows)} rows)"
    return Outcome(item["id"], item["q"], ok, seconds, detail, sql)


def _direct_answerer(warehouse, settings):
    from agent.semantic.compile.compiler import compile_intent
    from agent.semantic.nlq.extract import extract_intent
    from agent.semantic.model.layer import load_layer
    from agent.semantic.model.values import ValueIndex

    model = load_layer(settings.semantic_model_path)
    values = ValueIndex.from_warehouse(warehouse, model)

    def answer(question: str):
        extraction = extract_intent(question, model, values)
        if extraction.intent is None:
            why = extraction.unsupported or extraction.reason or "no intent"
            return [], [], "", why
        compiled = compile_intent(extraction.intent, model)
        result = warehouse.run(compiled.sql)
        return result.columns, result.rows, compiled.sql, None

    return answer


def _in_a_new_process(timeout: float):
    def run(arguments: list[str]) -> tuple[int, str, str]:
        proc = subprocess.run([sys.executable, "-m", "agent", *arguments], cwd=REPO, capture_output=True, text=True,
                              timeout=timeout)
        return proc.returncode, proc.stdout, proc.stderr

    return run


def _in_this_process(arguments: list[str]) -> tuple[int, str, str]:
    """What `python -m agent <arguments>` does, run by its own `main` here: the same parsing, settings
    from the environment, assistant and printed JSON, without paying an interpreter and imports per question."""
    from agent.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(arguments)
    return status, out.getvalue(), err.getvalue()


def _cli_answerer(run):
    def answer(question: str):
        status, stdout, stderr = run(["ask", "--yes", "--json", question])
        lines = [line for line in stdout.splitlines() if line.strip().startswith("{")]
        if not lines:
            return [], [], "", f"exit {status}, no JSON on stdout: {stderr.strip()[-300:]}"
        reply = json.loads(lines[-1])
        if reply.get("error"):
            return [], [], reply.get("sql") or "", str(reply["error"])
        return reply.get("columns") or [], reply.get("rows") or [], reply.get("sql") or "", None

    return answer


if __name__ == "__main__":
    sys.exit(main())
