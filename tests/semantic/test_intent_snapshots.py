"""Compiled SQL of StructuredIntents on the demo model, per warehouse dialect, stored under
tests/semantic/snapshots/ (intent_<name>.<dialect>.sql): date ranges, runs of days across
months, top-N per group and implicit distinct counts. Update as in test_sqlgen_snapshots.py."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest
import sqlglot

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.intent import MonthDay, OrderBy, RelativePeriod, StructuredIntent, TimeFilter

SNAPSHOTS = Path(__file__).with_name("snapshots")

INTENTS = {
    "last_month": StructuredIntent(metrics=["flight_count"], time=TimeFilter(
        start=date(2013, 12, 1), end=date(2013, 12, 31),
        relative=RelativePeriod(words="last month", grain="month"))),
    "day_run_across_months": StructuredIntent(metrics=["avg_dep_delay"], dimensions=["origin"], time=TimeFilter(
        from_day=MonthDay(month=11, day=20), to_day=MonthDay(month=1, day=5))),
    "top_n_per_group": StructuredIntent(metrics=["flight_count"], dimensions=["carrier", "dest"], limit=3,
                                        limit_per="carrier", order_by=[OrderBy(field="flight_count", descending=True)]),
    "distinct_count": StructuredIntent(metrics=["manufacturer__count_distinct"], dimensions=["engine"]),
}


@pytest.mark.parametrize("dialect", ["duckdb", "postgres", "mysql"])
@pytest.mark.parametrize("name", sorted(INTENTS))
def test_compiled_intent_matches_the_snapshot(model, name, dialect):
    sql = compile_intent(INTENTS[name], model, dialect).sql
    sqlglot.parse_one(sql, read=dialect)
    path = SNAPSHOTS / f"intent_{name}.{dialect}.sql"
    if os.environ.get("SNAPSHOT_UPDATE") or not path.exists():
        path.write_text(sql + "\n", encoding="utf-8")
        if not os.environ.get("SNAPSHOT_UPDATE"):
            pytest.fail(f"new snapshot {path.name} written; review it and run again")
    assert sql + "\n" == path.read_text(encoding="utf-8")
