"""The metric compiler on a small shop (DuckDB in memory): numbers checked by hand, not by the compiler."""

from __future__ import annotations

import duckdb
import pytest

from agent.semantic.spec.dbt_load import read_project
from agent.semantic.compile.sqlgen import GroupBy, MetricCondition, Query, QueryError, compile_query, dimension_filter
from tests.semantic import shop


@pytest.fixture(scope="module")
def project():
    return read_project(shop.PROJECT)


@pytest.fixture(scope="module")
def run(project):
    con = duckdb.connect()
    shop.load(lambda sql, params: con.execute(sql, params) if params else con.execute(sql), mark="?")

    def run(query: Query):
        return con.execute(compile_query(project, query).sql).fetchall()

    yield run
    con.close()


def test_the_fixture_reads_without_diagnostics(project):
    assert project.diagnostics == []
    assert {m.name for m in project.semantic_models} == {"customers", "orders", "order_items"}


def test_a_measure_is_never_summed_once_per_joined_row(run):
    # Orders 12, 15 and 17 have two items each: a join of orders to items would count them twice.
    rows = run(Query(metrics=("revenue", "items"), group_by=(GroupBy("customer"),)))
    assert rows == [(1, 215.0, 3), (2, 190.0, 3), (3, 375.0, 3), (4, 300.0, 3)]


def test_dimensions_of_the_one_side_reach_the_many_side(run):
    # items grouped by a customer attribute: order_items -> orders -> customers, all many-to-one
    rows = run(Query(metrics=("items", "revenue"), group_by=(GroupBy("region"),)))
    assert rows == [("east", 3, 300.0), ("north", 6, 590.0), ("south", 3, 190.0)]


def test_a_one_to_many_dimension_is_refused(run):
    with pytest.raises(QueryError, match="counting rows twice"):
        run(Query(metrics=("revenue",), group_by=(GroupBy("product"),)))


def test_ratio_is_a_ratio_of_sums(run):
    rows = run(Query(metrics=("web_share", "items_per_order"), group_by=(GroupBy("region"),)))
    by_region = {r[0]: r[1:] for r in rows}
    assert by_region["north"][0] == pytest.approx((120 + 300 + 60) / 590)
    assert by_region["north"][1] == pytest.approx(6 / 6)  # six items over six orders (order 19 has none)


def test_metric_filter_and_query_filter_both_apply(run):
    rows = run(Query(metrics=("web_revenue",), where=(dimension_filter("region", "=", ("north",)),)))
    assert rows == [(480.0,)]


def test_aggregations_of_every_kind(run):
    rows = run(Query(metrics=("aov", "customers_buying", "median_order_value", "p90_order_value",
                              "large_order_count")))
    amounts = sorted(a for *_, a in shop.ORDERS if a is not None)
    assert rows[0][0] == pytest.approx(sum(amounts) / len(amounts))
    assert rows[0][1:3] == (4, 90.0)
    assert rows[0][3] == pytest.approx(228.0)
    assert rows[0][4] == 4


def test_time_grain_and_month_offset(run):
    rows = run(Query(metrics=("revenue", "revenue_growth"), group_by=(GroupBy("metric_time", "month"),)))
    assert [(str(m), r, g) for m, r, g in rows] == [
        ("2023-11-01", 160.0, None), ("2023-12-01", 450.0, 290.0), ("2024-01-01", 225.0, -225.0),
        ("2024-02-01", 245.0, 20.0),
    ]


def test_comparison_with_previous_period_keeps_the_earlier_month_outside_the_filter(run):
    query = Query(metrics=("orders",), group_by=(GroupBy("metric_time", "month"),), compare="previous_period",
                  where=(dimension_filter("ordered_at", ">=", ("2024-01-01",)),))
    rows = run(query)
    assert [(str(r[0]), *r[1:]) for r in rows] == [
        ("2024-01-01", 2, 3, -1, pytest.approx(-100 / 3)), ("2024-02-01", 3, 2, 1, pytest.approx(50.0)),
    ]


def test_cumulative_all_time_window_and_to_date(run):
    rows = run(Query(metrics=("cumulative_revenue", "revenue_2_months", "revenue_ytd"),
                     group_by=(GroupBy("metric_time", "month"),)))
    assert [(str(m), *v) for m, *v in rows] == [
        ("2023-11-01", 160.0, 160.0, 160.0), ("2023-12-01", 610.0, 610.0, 610.0),
        ("2024-01-01", 835.0, 675.0, 225.0), ("2024-02-01", 1080.0, 470.0, 470.0),
    ]


def test_cumulative_by_month_reports_the_first_day_by_default_as_metricflow_does(run):
    """period_agg 'first' (MetricFlow's default): the running total on the first day of each month;
    November, where the data starts on the 3rd, reports its first day with data."""
    rows = run(Query(metrics=("revenue_to_date",), group_by=(GroupBy("metric_time", "month"),)))
    assert [(str(m), v) for m, v in rows] == [
        ("2023-11-01", 120.0), ("2023-12-01", 460.0), ("2024-01-01", 610.0), ("2024-02-01", 835.0)]


def test_cumulative_periods_are_chosen_by_the_time_filter(run):
    rows = run(Query(metrics=("cumulative_revenue",), group_by=(GroupBy("metric_time", "month"),),
                     where=(dimension_filter("ordered_at", ">=", ("2024-01-01",)),)))
    assert [(str(m), v) for m, v in rows] == [("2024-01-01", 835.0), ("2024-02-01", 1080.0)]


def test_having_order_limit(run):
    rows = run(Query(metrics=("revenue",), group_by=(GroupBy("customer"),),
                     having=(MetricCondition("revenue", ">", (200,)),), order_by=(("revenue", True),), limit=2))
    assert rows == [(3, 375.0), (4, 300.0)]


def test_top_n_per_group(run):
    rows = run(Query(metrics=("revenue",), group_by=(GroupBy("region"), GroupBy("channel")),
                     order_by=(("revenue", True),), limit=1, limit_per="region"))
    assert rows == [("east", "web", 210.0), ("north", "web", 480.0), ("south", "web", 150.0)]


def test_day_of_week_and_entity_paths(run):
    rows = run(Query(metrics=("orders",), group_by=(GroupBy("ordered_at", "extract_dow"),),
                     where=(dimension_filter("customer__segment", "=", ("business",)),)))
    # 2023-12-01 Fri, 2023-12-31 Sun, 2024-01-18 Thu, 2024-02-05 Mon, 2024-02-29 Thu
    assert rows == [(1, 1), (4, 2), (5, 1), (7, 1)]


def test_unknown_names_are_sentences(run):
    with pytest.raises(QueryError, match="not a metric"):
        run(Query(metrics=("profit",)))
    with pytest.raises(QueryError, match="not a dimension"):
        run(Query(metrics=("revenue",), group_by=(GroupBy("colour"),)))


def test_contrasts_ratio_difference_and_change(run):
    from agent.semantic.compile.sqlgen import Contrast

    web, store = dimension_filter("channel", "=", ("web",)), dimension_filter("channel", "=", ("store",))
    rows = run(Query(metrics=(), contrasts=(
        Contrast("web_to_store", "ratio", "revenue", (web,), (store,)),
        Contrast("web_minus_store", "difference", "revenue", (web,), (store,)),
        Contrast("pct", "pct_change", "orders", (web,), (store,)),
        Contrast("web_share", "ratio", "revenue", (web,)),
    )))
    assert rows[0][0] == pytest.approx(840 / 240) and rows[0][1] == 600.0
    assert rows[0][2] == pytest.approx(50.0) and rows[0][3] == pytest.approx(840 / 1080)


def test_previous_row_comparison_keeps_rows_outside_the_filter_as_predecessors(run):
    rows = run(Query(metrics=("orders",), group_by=(GroupBy("ordered_at", "extract_month"),), compare="previous_period",
                     compare_by="ordered_at__extract_month",
                     where=(dimension_filter("ordered_at", "<=", (2,), "extract_month"),)))
    # months 1 and 2 reported; January's predecessor in month order does not exist, February's is January
    assert [(int(m), n, p) for m, n, p, *_ in rows] == [(1, 2, None), (2, 3, 2)]


def test_counting_groups_that_pass_a_condition(run):
    rows = run(Query(metrics=("orders",), group_by=(GroupBy("customer"),),
                     having=(MetricCondition("orders", ">=", (3,)),), count_rows=True))
    assert rows == [(2,)]


def test_a_filter_across_one_to_many_is_a_semi_join(run):
    # average order value of orders that contain a lamp: each order counted once however many lamps
    rows = run(Query(metrics=("aov",), where=(dimension_filter("product", "=", ("lamp",)),)))
    assert rows == [(pytest.approx((120 + 300 + 150) / 3),)]


def test_offset_to_grain_reads_the_first_period_of_the_quarter(run):
    rows = run(Query(metrics=("revenue", "revenue_vs_quarter_start"), group_by=(GroupBy("metric_time", "month"),)))
    # Q4 2023 starts in October (no orders): no value; Q1 2024 starts in January (225)
    assert [(str(m), r, d) for m, r, d in rows] == [
        ("2023-11-01", 160.0, None), ("2023-12-01", 450.0, None), ("2024-01-01", 225.0, 0.0), ("2024-02-01", 245.0, 20.0)]


def test_a_dimension_that_is_a_condition_compares_as_one_value(run):
    # is_large is `amount >= 100`: compared with TRUE it must stay one operand, not `amount >= 100 = TRUE`
    # (PostgreSQL refuses the chained comparison; a Yes/No flag column bootstraps to such a dimension).
    assert run(Query(metrics=("orders",), where=(dimension_filter("is_large", "=", (True,)),))) == [(4,)]
    assert run(Query(metrics=("orders",), where=(dimension_filter("is_large", "=", (False,)),))) == [(5,)]
