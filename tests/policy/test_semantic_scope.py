"""The dbt semantic layer as one person may see it: semantic models on hidden tables, dimensions,
entities and measures on hidden columns, and every metric built on them are gone from the
parser's view and from the project the compiler reads; semantic SQL over hidden data is refused."""

from __future__ import annotations

import dataclasses

import pytest

from agent.policy import AccessDenied
from agent.policy.views import scoped_project
from agent.semantic.spec.dbt_spec import Metric, MetricInput
from agent.semantic.compile.sqlgen import GroupBy, Query, QueryError, compile_query
from tests.policy.conftest import ANALYST

HIDDEN_TABLES = {"planes", "weather"}  # the analyst reads flights, airlines and airports, never tailnum


@pytest.fixture(scope="module")
def analyst(policed_context):
    return policed_context.governance.context_for(policed_context, ANALYST)


def test_the_compilers_project_keeps_only_readable_models(analyst, base_context):
    project = analyst.semantic.project
    assert {m.relation for m in base_context.semantic.project.semantic_models} & HIDDEN_TABLES
    assert not {m.relation for m in project.semantic_models} & HIDDEN_TABLES
    flights = project.model_by_name["flights"]
    assert "tailnum" not in {d.name for d in flights.dimensions}
    assert "plane" not in {e.name for e in flights.entities}  # its key is the hidden column
    assert "distinct_planes" not in project.metric_by_name  # count(DISTINCT tailnum)
    assert not {"avg_seats", "avg_temp", "plane_count"} & set(project.metric_by_name)


def test_the_parsers_view_agrees_with_the_project(analyst):
    view = analyst.semantic
    assert not {t.table for t in view.tables} & HIDDEN_TABLES
    assert {m.name for m in view.metrics} == set(view.project.metric_by_name)
    assert not any(s.table in HIDDEN_TABLES or s.expr == "tailnum" for d in view.dimensions for s in d.sources)
    assert not {"manufacturer", "seats", "temp"} & {d.name for d in view.dimensions}
    assert not set(analyst.values.values) - {d.name for d in view.dimensions}


def test_ratio_metrics_over_readable_tables_stay(analyst):
    """A ratio's view entry carries no expression of its own; it is judged by the metrics it divides."""
    assert {"on_time_share", "cancellation_rate"} <= set(analyst.semantic.metric_by_name)


def test_a_metric_built_on_a_hidden_one_is_dropped(base_context, analyst):
    project = base_context.semantic.project
    derived = Metric(name="seats_per_flight", type="derived", expr="avg_seats / flight_count",
                     inputs=(MetricInput("avg_seats"), MetricInput("flight_count")))
    fine = Metric(name="delay_per_flight", type="derived", expr="total_dep_delay / flight_count",
                  inputs=(MetricInput("total_dep_delay"), MetricInput("flight_count")))
    extended = dataclasses.replace(project, metrics=[*project.metrics, derived, fine])
    access = analyst.warehouse.access
    kept = scoped_project(extended, access).metric_by_name
    assert "seats_per_flight" not in kept and "delay_per_flight" in kept


def test_compiling_a_hidden_metric_fails_on_the_scoped_project(analyst):
    with pytest.raises(QueryError):
        compile_query(analyst.semantic.project, Query(metrics=("avg_seats",), group_by=(GroupBy("manufacturer"),)))


def test_semantic_sql_over_hidden_data_is_refused(analyst, base_context):
    """SQL the full model compiles over a hidden table still meets the person's check before it runs."""
    compiled = compile_query(base_context.semantic.project, Query(metrics=("avg_seats",)), "duckdb")
    with pytest.raises(AccessDenied, match="main.planes"):
        analyst.warehouse.run(compiled.sql)
    readable = compile_query(analyst.semantic.project, Query(metrics=("flight_count",)), "duckdb")
    assert analyst.warehouse.run(readable.sql).rows == [(336776,)]


async def test_a_question_on_a_ratio_still_answers(policed, session):
    reply = await policed.reply(policed.ask(session, "cancellation rate by carrier", ANALYST))
    if reply.ask_human is not None and reply.ask_human.kind == "confirm_sql":
        reply = await policed.reply(policed.resume(session, "run", ANALYST))
    assert reply.error is None and reply.row_count > 0, reply.text
