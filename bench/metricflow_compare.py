"""Our compiled metric queries against dbt MetricFlow's own `mf query`, on the same demo model.

    python bench/metricflow_compare.py                     # mf from ./.mfvenv/bin (see below)
    python bench/metricflow_compare.py --mf-bin /path/to/venv/bin --keep
    python bench/metricflow_compare.py --record            # also store mf's rows in bench/data/
    python bench/metricflow_compare.py --smoke             # no dbt: our rows against the stored ones

A dev-only bench (not in the pytest suite: it needs dbt). dbt-metricflow and dbt-duckdb live in a
separate virtualenv because their pins (dbt-core, duckdb, protobuf) are not the project's:

    python -m venv .mfvenv && .mfvenv/bin/pip install dbt-metricflow dbt-duckdb 'dbt-core>=1.10,<1.12'

(dbt-core 1.12 downloads a parser binary at install time, which an offline machine cannot.)

It builds a throwaway dbt project in a temporary folder around agent/semantic/demo_model/ over a
copy of the demo DuckDB (one view per table in schema `mf`, a time spine, and a few extra
metrics: derived with an offset, cumulative, filtered), runs `dbt run`, `mf validate-configs`
and one `mf query` per case, and compares the rows with ours: the same StructuredIntent through
`compile_intent`, run on the same file. Prints match / MISMATCH per case.

`--record` writes MetricFlow's rows, with the versions that gave them, to bench/data/metricflow_expected.json.
`--smoke` needs no dbt: it runs our side of every case and compares it with those recorded rows,
saying so on its first line (CI runs it; the live comparison stays a developer's run).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shutil
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from pathlib import Path

import duckdb
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
EXPECTED = REPO / "bench" / "data" / "metricflow_expected.json"  # mf's rows per case, from --record

from agent.semantic.compile.compiler import compile_intent  # noqa: E402
from agent.semantic.compile.intent import Filter, StructuredIntent, TimeFilter  # noqa: E402
from agent.semantic.model.layer import DEMO_MODEL_PATH, load_layer  # noqa: E402
from agent.settings import load_settings  # noqa: E402
from agent.warehouse.demo import ensure_demo_warehouse  # noqa: E402

TABLES = {"flights": "flights", "airlines": "airlines", "airports": "airports", "planes": "planes",
          "weather": "weather"}

EXTRA_METRICS = """
metrics:
- name: flights_change_vs_last_month
  label: Change in flights from the month before
  type: derived
  type_params:
    expr: flight_count - flights_month_before
    metrics:
    - name: flight_count
    - name: flight_count
      offset_window: 1 month
      alias: flights_month_before
- name: flights_running_total
  label: Running total of flights
  type: cumulative
  type_params:
    measure: flight_rows
- name: flights_last_2_months
  label: Flights in a trailing two-month window
  type: cumulative
  type_params:
    measure: flight_rows
    window: 2 months
- name: flights_to_month_end
  label: Running total of flights at the end of each period
  type: cumulative
  type_params:
    measure: flight_rows
    cumulative_type_params:
      period_agg: last
- name: flights_year_to_date
  label: Flights year to date
  type: cumulative
  type_params:
    measure: flight_rows
    cumulative_type_params:
      grain_to_date: year
- name: jfk_flights
  label: Flights from JFK
  type: simple
  type_params:
    measure: flight_rows
  filter: "{{ Dimension('flight__origin') }} = 'JFK'"
"""

TIME_SPINE = """
models:
- name: metricflow_time_spine
  time_spine:
    standard_granularity_column: date_day
  columns:
  - name: date_day
    granularity: day
"""


@dataclass
class Case:
    name: str
    metrics: list[str]
    mf_group_by: list[str] = field(default_factory=list)
    ours: dict = field(default_factory=dict)  # StructuredIntent fields beyond the metrics
    mf_where: str | None = None


CASES = [
    Case("simple by month", ["flight_count"], ["metric_time__month"], {"dimensions": ["metric_time__month"]}),
    Case("average by carrier", ["avg_dep_delay"], ["flight__carrier"], {"dimensions": ["carrier"]}),
    Case("ratio by origin", ["on_time_share"], ["flight__origin"], {"dimensions": ["origin"]}),
    Case("count distinct by carrier", ["distinct_destinations"], ["flight__carrier"], {"dimensions": ["carrier"]}),
    Case("metric filter (delayed) with a where", ["delayed_flights"], ["flight__origin"],
         {"dimensions": ["origin"], "filters": [Filter(field="carrier", values=["UA"])]},
         "{{ Dimension('flight__carrier') }} = 'UA'"),
    Case("simple metric with its own filter", ["jfk_flights"], ["metric_time__quarter"],
         {"dimensions": ["metric_time__quarter"]}),
    Case("join many-to-one (plane manufacturer)", ["total_distance"], ["plane__manufacturer"],
         {"dimensions": ["manufacturer"]}),
    Case("derived with offset_window", ["flights_change_vs_last_month"], ["metric_time__month"],
         {"dimensions": ["metric_time__month"]}),
    Case("cumulative, all time", ["flights_running_total"], ["metric_time__month"],
         {"dimensions": ["metric_time__month"]}),
    Case("cumulative, 2-month window", ["flights_last_2_months"], ["metric_time__month"],
         {"dimensions": ["metric_time__month"]}),
    Case("cumulative, period_agg last", ["flights_to_month_end"], ["metric_time__month"],
         {"dimensions": ["metric_time__month"]}),
    Case("cumulative, grain_to_date year, by quarter", ["flights_year_to_date"], ["metric_time__quarter"],
         {"dimensions": ["metric_time__quarter"]}),
    Case("date range (last month of the data)", ["flight_count"], ["flight__origin"],
         {"dimensions": ["origin"], "time": TimeFilter(start=date(2013, 12, 1), end=date(2013, 12, 31))},
         "{{ TimeDimension('metric_time', 'day') }} BETWEEN '2013-12-01' AND '2013-12-31'"),
    Case("two metrics by two dimensions", ["flight_count", "avg_arr_delay"], ["metric_time__quarter", "flight__origin"],
         {"dimensions": ["metric_time__quarter", "origin"]}),  # mf puts metric_time first
]


def build_project(root: Path, warehouse: Path) -> Path:
    models = root / "models"
    models.mkdir(parents=True)
    (root / "dbt_project.yml").write_text(textwrap.dedent("""\
        name: mf_compare
        version: '1.0'
        config-version: 2
        profile: mf_compare
        model-paths: [models]
        models:
          mf_compare:
            +materialized: view
        """), encoding="utf-8")
    (root / "profiles.yml").write_text(textwrap.dedent(f"""\
        mf_compare:
          target: dev
          outputs:
            dev:
              type: duckdb
              path: {warehouse}
              schema: mf
              threads: 1
        """), encoding="utf-8")
    for model, table in TABLES.items():
        (models / f"{model}.sql").write_text(f"select * from main.{table}\n", encoding="utf-8")
    (models / "metricflow_time_spine.sql").write_text(
        # the data's own year: MetricFlow reports every spine period (cumulative values after the data
        # ends, offset rows with no current value); we report the periods the data has
        "select cast(range as date) as date_day from range(date '2013-01-01', date '2014-01-01', interval 1 day)\n",
        encoding="utf-8")
    (models / "time_spine.yml").write_text(TIME_SPINE, encoding="utf-8")
    semantic = yaml.safe_load((DEMO_MODEL_PATH / "semantic_models.yml").read_text(encoding="utf-8"))
    renamed = metricflow_valid(semantic)
    (models / "semantic_models.yml").write_text(yaml.safe_dump(semantic, sort_keys=False), encoding="utf-8")
    metrics = (DEMO_MODEL_PATH / "metrics.yml").read_text(encoding="utf-8")  # not semantic_assistant.yml: ours
    for old, new in renamed.items():
        metrics = metrics.replace(f"__{old}')", f"__{new}')")
    (models / "metrics.yml").write_text(metrics, encoding="utf-8")
    (models / "compare_metrics.yml").write_text(EXTRA_METRICS, encoding="utf-8")
    return models


RESERVED = {"nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day", "week", "month",
            "quarter", "year"}


def metricflow_valid(semantic: dict) -> dict[str, str]:
    """What MetricFlow refuses in the demo YAML, made acceptable in the copy (and printed): dimension
    names that are time-grain keywords get a prefix (the same in every model), and a model with measures
    but no time dimension gets a constant date as its agg_time_dimension (MetricFlow needs one for
    every measure). Returns the renames."""
    renamed: dict[str, str] = {}
    for model in semantic["semantic_models"]:
        for dim in model.get("dimensions", []):
            if dim["name"] in RESERVED:
                new = f"calendar_{dim['name']}"
                dim.setdefault("expr", dim["name"])
                renamed[dim["name"]] = new
                dim["name"] = new
        for meta in [model.get("config", {}).get("meta", {})]:
            parts = meta.get("time_parts") or {}
            for part, name in list(parts.items()):
                parts[part] = renamed.get(name, name)
        has_time = any(d.get("type") == "time" for d in model.get("dimensions", []))
        if model.get("measures") and not has_time:
            model.setdefault("dimensions", []).append({
                "name": f"{model['name']}_as_of", "type": "time", "expr": "cast('2013-01-01' as date)",
                "type_params": {"time_granularity": "day"}})
            model.setdefault("defaults", {})["agg_time_dimension"] = f"{model['name']}_as_of"
            print(f"demo model: '{model['name']}' has measures but no time dimension; "
                  "given a constant date for MetricFlow")
    if renamed:
        print("demo model: dimension names MetricFlow reserves, renamed in the copy: "
              + ", ".join(f"{a} -> {b}" for a, b in sorted(renamed.items())))
    return renamed


def run(command: list[str], cwd: Path, what: str) -> subprocess.CompletedProcess:
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          env={"DBT_PROFILES_DIR": str(cwd), "PATH": "/usr/bin:/bin", "HOME": str(cwd)})
    if proc.returncode != 0:
        print(f"{what} failed (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    return proc


def mf_rows(mf: Path, root: Path, case: Case) -> list[tuple] | str:
    out = root / "out.csv"
    out.unlink(missing_ok=True)
    command = [str(mf), "query", "--metrics", ",".join(case.metrics), "--csv", str(out)]
    if case.mf_group_by:
        command += ["--group-by", ",".join(case.mf_group_by)]
    if case.mf_where:
        command += ["--where", case.mf_where]
    proc = run(command, root, f"mf query ({case.name})")
    if proc.returncode != 0 or not out.exists():
        return "mf query failed"
    with out.open(encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        keys = [i for i, h in enumerate(header) if h not in case.metrics]
        values = [header.index(m) for m in case.metrics]
        return sorted((tuple(_norm(r[i]) for i in keys + values) for r in reader), key=_order)


def our_rows(model, database: Path, case: Case) -> list[tuple]:
    intent = StructuredIntent(metrics=case.metrics, **case.ours)
    compiled = compile_intent(intent, model)
    with duckdb.connect(str(database), read_only=True) as con:
        rows = con.execute(compiled.sql).fetchall()
    width = len(case.ours.get("dimensions", []))
    return sorted((tuple(_norm(v) for v in r[:width] + r[width:width + len(case.metrics)]) for r in rows),
                  key=_order)


def _order(row: tuple) -> tuple:
    return tuple((v is None, str(v)) for v in row)


def _norm(value):
    if value is None or value == "":
        return None
    if isinstance(value, (datetime, date)):
        return value.isoformat()[:10]
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value[:10] if value[:4].isdigit() and value[4:5] == "-" else value
    if isinstance(value, (int, float)):
        return float(value)
    return value


def same(a: list[tuple], b: list[tuple]) -> bool:
    if len(a) != len(b):
        return False
    for row_a, row_b in zip(a, b):
        for x, y in zip(row_a, row_b):
            if isinstance(x, float) and isinstance(y, float):
                if not math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-9):
                    return False
            elif x != y:
                return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mf-bin", type=Path, default=REPO / ".mfvenv" / "bin")
    parser.add_argument("--keep", action="store_true", help="keep the temporary dbt project")
    parser.add_argument("--record", action="store_true", help=f"store mf's rows in {EXPECTED.relative_to(REPO)}")
    parser.add_argument("--smoke", action="store_true", help="no dbt: our rows against the recorded mf rows")
    args = parser.parse_args()
    mf, dbt = args.mf_bin / "mf", args.mf_bin / "dbt"
    if not args.smoke and not mf.exists():
        print(f"no mf at {mf}: install dbt-metricflow and dbt-duckdb in a separate venv (see the docstring), "
              "or run with --smoke to compare with the recorded rows")
        return 2
    root = Path(tempfile.mkdtemp(prefix="mf_compare_"))
    try:
        database = root / "warehouse.duckdb"
        shutil.copy(ensure_demo_warehouse(load_settings().data_dir), database)
        models = build_project(root, database)
        if args.smoke:
            recorded = json.loads(EXPECTED.read_text(encoding="utf-8"))
            print(f"mf not run (--smoke): our rows against MetricFlow's as recorded in {EXPECTED.relative_to(REPO)} "
                  f"({recorded['recorded_with']}, {recorded['recorded_on']})")
            theirs_by_case: dict[str, Any] = {name: [tuple(r) for r in rows] for name, rows in recorded["cases"].items()}
        else:
            theirs_by_case = live_mf_rows(mf, dbt, root)
            if theirs_by_case is None:
                return 2
            if args.record:
                record(mf, dbt, theirs_by_case)
        matched = compare(load_layer(models), database, theirs_by_case)
        print(f"{matched}/{len(CASES)} cases give the same rows as MetricFlow")
        return 0 if matched == len(CASES) else 1
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def live_mf_rows(mf: Path, dbt: Path, root: Path) -> dict[str, list[tuple] | str] | None:
    """MetricFlow's rows for every case (or why there are none); None when dbt cannot build the project."""
    if run([str(dbt), "run", "--quiet"], root, "dbt run").returncode != 0:
        return None
    validate = run([str(mf), "validate-configs"], root, "mf validate-configs")
    print(f"mf validate-configs: exit {validate.returncode}")
    for line in (validate.stdout + validate.stderr).splitlines():
        if any(w in line for w in ("ERROR", "WARNING", "error", "Breaking")):
            print("   " + line.strip()[:200])
    return {case.name: mf_rows(mf, root, case) for case in CASES}


def record(mf: Path, dbt: Path, rows: dict[str, list[tuple] | str]) -> None:
    mf_version, dbt_version = (run([str(tool), "--version"], REPO, f"{tool.name} --version").stdout
                               for tool in (mf, dbt))
    dbt_core = next((line.split(":")[-1].strip() for line in dbt_version.splitlines() if "installed" in line), "?")
    EXPECTED.write_text(expected_json({
        "recorded_with": f"dbt-metricflow {mf_version.strip().rsplit(' ', 1)[-1]}, dbt-core {dbt_core}",
        "recorded_on": date.today().isoformat(),
        "cases": rows,
    }), encoding="utf-8")
    print(f"recorded MetricFlow's rows in {EXPECTED.relative_to(REPO)}")


def expected_json(payload: dict[str, Any]) -> str:
    """The recorded rows one per line, so a change to them reads as a diff of rows."""
    cases = []
    for name, rows in payload["cases"].items():
        body = json.dumps(rows) if isinstance(rows, str) else "[\n" + ",\n".join(
            "   " + json.dumps(list(row)) for row in rows) + "\n  ]"
        cases.append(f"  {json.dumps(name)}: {body}")
    head = ",\n".join(f" {json.dumps(key)}: {json.dumps(payload[key])}" for key in ("recorded_with", "recorded_on"))
    return "{\n" + head + ',\n "cases": {\n' + ",\n".join(cases) + "\n }\n}\n"


def compare(model, database: Path, theirs_by_case: dict[str, Any]) -> int:
    matched = 0
    for case in CASES:
        theirs = theirs_by_case.get(case.name, "no rows recorded for this case")
        try:
            ours: list[tuple] | str = our_rows(model, database, case)
        except Exception as exc:  # a compile or run failure is a mismatch with its reason shown
            ours = f"{type(exc).__name__}: {exc}"
        ok = isinstance(theirs, list) and isinstance(ours, list) and same(theirs, ours)
        matched += ok
        print(f"{'match   ' if ok else 'MISMATCH'} {case.name}: {len(theirs) if isinstance(theirs, list) else theirs}"
              f" rows from mf, {len(ours) if isinstance(ours, list) else ours} from ours")
        if not ok and isinstance(theirs, list) and isinstance(ours, list):
            diff_a = [r for r in theirs if r not in ours][:3]
            diff_b = [r for r in ours if r not in theirs][:3]
            print(f"    mf only: {diff_a}\n    ours only: {diff_b}")
    return matched


if __name__ == "__main__":
    sys.exit(main())
