"""How often fix_sql repairs the dev sets of broken queries: a case counts when the fixed query
returns the gold query's rows (in order, for cases marked `ordered`). Prints the figure per file
and per category (the kind of mistake, read from what the fix changed or from the case's
dialect), each failure with its reason, and the median time.

Run: python bench/fix_accuracy.py [path/to/broken_sql.json ...]
(default: dev_broken_sql.json and dev_broken_sql2.json from the shared eval folder;
--smoke: the first three cases of each file, to see that the bench itself works).
A second schema: build TPC-H with ../shared/eval/tpch/load.py, then
WAREHOUSE_URL=duckdb:///tmp/tpch.duckdb python bench/fix_accuracy.py bench/data/tpch_broken_sql.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from agent.errors import AssistantError
from agent.settings import load_settings
from agent.sql.fix import FixResult, fix_sql
from agent.warehouse import Warehouse, open_warehouse

DEV_FILES = ("dev_broken_sql.json", "dev_broken_sql2.json")

# The category of a case, from the first matching word in what the fix says it changed.
_CATEGORIES = (
    ("HAVING", "aggregate in WHERE"),
    ("outer query", "window in WHERE"),
    ("comma", "missing comma"),
    ("closed the string", "unbalanced quote"),
    ("'", "value / quoting"),
    ("join column", "join column"),
    (".", "alias / qualifier"),
    ("→ ", "name"),
    ("added ')'", "parenthesis"),
    ("GROUP BY", "grouping"),
)


def _eval_folder() -> Path:
    for parent in Path(__file__).resolve().parents:
        folder = parent / "shared" / "eval"
        if folder.is_dir():
            return folder
    raise SystemExit("shared/eval is not beside the repository; pass the files as arguments")


def _rows(warehouse: Warehouse, sql: str, ordered: bool) -> list[tuple]:
    rows = warehouse.run(sql).rows
    return rows if ordered else sorted(rows, key=repr)


def _category(case: dict, result: FixResult) -> str:
    dialect = case.get("dialect", "duckdb")
    if dialect not in ("duckdb", "presto"):
        return f"dialect: {dialect}"
    described = " ".join(c.what for c in result.changes)
    for word, name in _CATEGORIES:
        if word in described:
            return name
    return "other" if result.changes else "unchanged"


def run_file(warehouse: Warehouse, path: Path, by_category: dict, timings: list, limit: int | None) -> tuple[int, int]:
    cases = json.loads(path.read_text())[:limit]
    schema = warehouse.schema()
    passed = 0
    for case in cases:
        started = time.perf_counter()
        result = fix_sql(
            case["sql"],
            error=case.get("error"),
            dialect=case.get("dialect", "duckdb"),
            schema=schema,
            dry_run=warehouse.dry_run,
            probe=lambda sql: warehouse.run(sql, row_cap=100).rows,
        )
        timings.append((time.perf_counter() - started) * 1000)
        ordered = bool(case.get("ordered"))
        reason = result.reason
        try:
            same = result.valid and _rows(warehouse, result.fixed_sql, ordered) == _rows(
                warehouse, case["gold"], ordered
            )
        except AssistantError as exc:
            same, reason = False, exc.user_message
        tally = by_category[_category(case, result)]
        tally[1] += 1
        if same:
            passed += 1
            tally[0] += 1
            continue
        print(f"  FAIL {case['id']}: {case['sql']}")
        print(f"       got: {' '.join((result.fixed_sql or '(no SQL)').split())}")
        print(f"       reason: {reason}")
    print(f"{path.name}: fixed {passed}/{len(cases)}")
    return passed, len(cases)


def main(paths: list[Path], limit: int | None = None) -> int:
    warehouse = open_warehouse(load_settings())
    by_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    timings: list[float] = []
    passed = total = 0
    for path in paths:
        p, n = run_file(warehouse, path, by_category, timings, limit)
        passed, total = passed + p, total + n
    print(f"all files: fixed {passed}/{total}")
    for name, (ok, n) in sorted(by_category.items()):
        print(f"  {name:<22} {ok}/{n}")
    print(f"median fix time: {statistics.median(timings):.1f} ms over {len(timings)} cases")
    warehouse.close()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="broken-SQL sets (default: the shared dev sets)")
    parser.add_argument("--smoke", action="store_true", help="the first three cases of each file")
    args = parser.parse_args()
    sys.exit(main(args.files or [_eval_folder() / name for name in DEV_FILES], 3 if args.smoke else None))
