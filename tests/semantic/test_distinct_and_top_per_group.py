"""Counts of distinct values of any dimension (a MetricFlow count_distinct measure, added where the
model declares none), and top-N within each group (ROW_NUMBER in a subquery, any dialect)."""

from __future__ import annotations

import pytest

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.intent import OrderBy, StructuredIntent


def rows(warehouse, model, intent):
    return warehouse.run(compile_intent(intent, model).sql).rows


def test_every_categorical_dimension_can_be_counted_distinctly(model):
    for dim in model.dimensions:
        if dim.kind == "categorical":
            assert model.distinct_count_metric(dim.name) is not None, dim.name


def test_implicit_counts_stay_out_of_the_declared_metrics(model):
    declared = {m.name for m in model.metrics}
    assert model.implicit_metrics and not declared & {m.name for m in model.implicit_metrics}
    assert model.distinct_count_metric("tailnum") == "distinct_planes"  # a declared one wins


@pytest.mark.parametrize("question, gold", [
    ("how many different manufacturers", "SELECT count(DISTINCT manufacturer) FROM planes"),
    ("how many routes", "SELECT count(DISTINCT origin || '-' || dest) FROM flights"),
    ("how many unique tail numbers did each carrier fly",
     "SELECT carrier, count(DISTINCT tailnum) FROM flights GROUP BY carrier ORDER BY carrier"),
    ("number of distinct engine types by manufacturer",
     "SELECT manufacturer, count(DISTINCT engine) FROM planes GROUP BY manufacturer ORDER BY manufacturer"),
    ("unique destinations per carrier",
     "SELECT carrier, count(DISTINCT dest) FROM flights GROUP BY carrier ORDER BY carrier"),
])
def test_distinct_counts(ask, model, warehouse, question, gold):
    extraction = ask(question)
    assert extraction.intent is not None, extraction.reason
    assert rows(warehouse, model, extraction.intent) == warehouse.run(gold).rows


def test_a_distinct_count_is_taken_on_its_own_model(model, warehouse):
    """Manufacturers of the planes United flew: counted on planes, with the flights condition as a
    semi-join; grouping planes by carrier would need a one-to-many join, so it is refused, not inflated."""
    from agent.semantic.compile.intent import Filter, validate_intent

    intent = StructuredIntent(metrics=["manufacturer__count_distinct"], filters=[Filter(field="carrier", values=["UA"])])
    assert rows(warehouse, model, intent) == warehouse.run(
        "SELECT count(DISTINCT manufacturer) FROM planes WHERE tailnum IN "
        "(SELECT tailnum FROM flights WHERE carrier = 'UA')").rows
    grouped = StructuredIntent(metrics=["manufacturer__count_distinct"], dimensions=["carrier"])
    assert any("counting rows twice" in p for p in validate_intent(grouped, model))


def test_distinct_values_of_the_measured_tables_key_restate_its_rows(ask):
    intent = ask("avg seat count of the planes united flew (each distinct tailnum counted once)").intent
    assert intent is not None and intent.metrics == ["avg_seats"] and intent.dimensions == []


@pytest.mark.parametrize("question, per, limit, gold", [
    ("top 3 destinations for each carrier", "carrier", 3,
     "SELECT carrier, dest, n FROM (SELECT carrier, dest, count(*) AS n, row_number() OVER (PARTITION BY carrier "
     "ORDER BY count(*) DESC, dest) AS r FROM flights GROUP BY carrier, dest) t WHERE r <= 3 ORDER BY carrier, n DESC, dest"),
    ("busiest day in each month", "month", 1,
     "SELECT month, d, n FROM (SELECT month, make_date(year, month, day) AS d, count(*) AS n, row_number() OVER "
     "(PARTITION BY month ORDER BY count(*) DESC, make_date(year, month, day)) AS r FROM flights GROUP BY month, d) t "
     "WHERE r <= 1 ORDER BY month"),
    ("the 2 busiest routes per origin airport", "origin", 2,
     "SELECT origin, route, n FROM (SELECT origin, origin || '-' || dest AS route, count(*) AS n, row_number() OVER "
     "(PARTITION BY origin ORDER BY count(*) DESC, origin || '-' || dest) AS r FROM flights GROUP BY origin, route) t "
     "WHERE r <= 2 ORDER BY origin, n DESC, route"),
])
def test_top_n_per_group(ask, model, warehouse, question, per, limit, gold):
    intent = ask(question).intent
    assert intent is not None and intent.limit_per == per and intent.limit == limit
    assert [tuple(map(str, r)) for r in rows(warehouse, model, intent)] == \
        [tuple(map(str, r)) for r in warehouse.run(gold).rows]
    assert f"top {limit} per " in compile_intent(intent, model).reason


def test_a_ranking_over_two_groupings_without_each_is_overall(ask):
    intent = ask("top 5 carriers by month").intent
    assert intent is not None and intent.limit_per is None and intent.limit == 5


def test_top_n_per_group_compiles_for_every_dialect_without_qualify(model):
    intent = StructuredIntent(metrics=["flight_count"], dimensions=["carrier", "dest"], limit=3, limit_per="carrier",
                              order_by=[OrderBy(field="flight_count", descending=True)])
    for dialect in ("duckdb", "postgres", "mysql"):
        sql = compile_intent(intent, model, dialect).sql
        assert "ROW_NUMBER()" in sql and "QUALIFY" not in sql.upper()
