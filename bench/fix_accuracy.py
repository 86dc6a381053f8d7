"""How often fix_sql repairs the dev set of broken queries: a case counts when the fixed query
returns the same rows as the gold query. Prints the accuracy, each failure and the median time.

Run: /tmp/venv/bin/python bench/fix_accuracy.py [path/to/broken_sql.json]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from agent.errors import AssistantError
from agent.settings import load_settings
from agent.sql.fix import fix_sql
from agent.warehouse import Warehouse

DEV_SET = Path(__file__).parents[2] / "shared/eval/dev_broken_sql.json"


def _rows(warehouse: Warehouse, sql: str) -> list[tuple]:
    return sorted(warehouse.run(sql).rows, key=repr)


def main(path: Path = DEV_SET) -> int:
    cases = json.loads(path.read_text())
    warehouse = Warehouse.from_settings(load_settings())
    schema = warehouse.schema()
    passed, failures, timings = 0, [], []
    for case in cases:
        started = time.perf_counter()
        result = fix_sql(
            case["sql"],
            error=case.get("error"),
            dialect=case.get("dialect", "duckdb"),
            schema=schema,
            dry_run=warehouse.dry_run,
        )
        timings.append((time.perf_counter() - started) * 1000)
        try:
            same = result.valid and _rows(warehouse, result.fixed_sql) == _rows(warehouse, case["gold"])
        except AssistantError as exc:
            same, result.reason = False, exc.user_message
        if same:
            passed += 1
        else:
            failures.append((case["id"], case["sql"], result))
    print(f"fix accuracy: {passed}/{len(cases)}")
    for case_id, sql, result in failures:
        print(f"  FAIL {case_id}: {sql}")
        print(f"       got: {' '.join(result.fixed_sql.split())}")
        print(f"       reason: {result.reason}")
    print(f"median fix time: {statistics.median(timings):.1f} ms over {len(timings)} cases")
    warehouse.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEV_SET))
