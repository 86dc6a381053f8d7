"""Compiled SQL per dialect, stored under tests/semantic/snapshots/ (one file per query and dialect).

A change to the compiler shows up as a diff of these files. To accept an intended change, run
`SNAPSHOT_UPDATE=1 python -m pytest tests/semantic/test_sqlgen_snapshots.py` and review the diff.
Every snapshot must also parse back in its own dialect.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlglot

from agent.semantic.spec.dbt_load import read_project
from agent.semantic.compile.sqlgen import DIALECTS, GroupBy, MetricCondition, Query, QueryError, compile_query, dimension_filter
from tests.semantic import shop

SNAPSHOTS = Path(__file__).with_name("snapshots")

QUERIES = {
    "total": Query(metrics=("revenue",)),
    "by_region_filtered": Query(metrics=("revenue", "orders"), group_by=(GroupBy("region"),),
                                where=(dimension_filter("channel", "=", ("web",)),)),
    "fan_out_two_models": Query(metrics=("revenue", "items"), group_by=(GroupBy("customer"),)),
    "ratio": Query(metrics=("web_share", "items_per_order"), group_by=(GroupBy("segment"),)),
    "month_grain": Query(metrics=("revenue",), group_by=(GroupBy("metric_time", "month"),)),
    "week_and_weekday": Query(metrics=("orders",), group_by=(GroupBy("ordered_at", "week"),
                                                            GroupBy("ordered_at", "extract_dow"))),
    "derived_offset": Query(metrics=("revenue_growth",), group_by=(GroupBy("metric_time", "month"),)),
    "previous_year": Query(metrics=("orders",), group_by=(GroupBy("metric_time", "quarter"),),
                           compare="previous_year"),
    "cumulative": Query(metrics=("cumulative_revenue", "revenue_2_months", "revenue_ytd"),
                        group_by=(GroupBy("metric_time", "month"),)),
    "cumulative_first_day": Query(metrics=("revenue_to_date",), group_by=(GroupBy("metric_time", "month"),)),
    "having_top": Query(metrics=("revenue",), group_by=(GroupBy("customer"),),
                        having=(MetricCondition("revenue", ">", (200,)),), order_by=(("revenue", True),), limit=2),
    "top_n_per_group": Query(metrics=("revenue",), group_by=(GroupBy("region"), GroupBy("channel")),
                             order_by=(("revenue", True),), limit=1, limit_per="region"),
    "offset_to_grain": Query(metrics=("revenue_vs_quarter_start",), group_by=(GroupBy("metric_time", "month"),)),
    "semi_join": Query(metrics=("aov",), where=(dimension_filter("product", "=", ("lamp",)),)),
    "share_of_total": Query(metrics=("revenue",), group_by=(GroupBy("region"),), share_of_total=True,
                            order_by=(("revenue", True),), limit=2),
    "absent": Query(metrics=("orders",), absent=("order_items",)),
    "text_patterns": Query(metrics=("revenue",), where=(dimension_filter("region", "starts_with", ("No",)),
                                                        dimension_filter("channel", "contains", ("5%_off",)))),
    "through_entity": Query(metrics=("items",), group_by=(GroupBy("customer__region"),)),
    "condition_dimension": Query(metrics=("orders",), where=(dimension_filter("is_large", "=", (True,)),)),
    "percentiles": Query(metrics=("median_order_value", "p90_order_value", "customers_buying"),
                         where=(dimension_filter("ordered_at", "between", ("2023-12-01", "2024-01-31")),)),
}


@pytest.fixture(scope="module")
def project():
    return read_project(shop.PROJECT)


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_compiled_sql_matches_the_snapshot(project, name, dialect):
    if name == "percentiles" and dialect in ("mysql", "trino", "bigquery"):
        with pytest.raises(QueryError, match="no exact"):
            compile_query(project, QUERIES[name], dialect)
        return
    sql = compile_query(project, QUERIES[name], dialect).sql
    sqlglot.parse_one(sql, read=dialect)  # what we hand a warehouse must at least parse in its dialect
    path = SNAPSHOTS / f"{name}.{dialect}.sql"
    if os.environ.get("SNAPSHOT_UPDATE") or not path.exists():
        path.write_text(sql + "\n", encoding="utf-8")
        if not os.environ.get("SNAPSHOT_UPDATE"):
            pytest.fail(f"new snapshot {path.name} written; review it and run again")
    assert sql + "\n" == path.read_text(encoding="utf-8")
