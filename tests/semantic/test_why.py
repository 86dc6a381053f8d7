"""'Why?' through the semantic model: a measure's definition in words, its conditions and a ratio's two
sides named by their labels, never the model's template syntax or the SQL's aliases."""

from __future__ import annotations

from agent.semantic.compile.intent import Filter, StructuredIntent
from agent.semantic.nlq.why import explain_reading


def _why(model, metric: str) -> str:
    return explain_reading(StructuredIntent(metrics=[metric], dimensions=["origin"],
                                            filters=[Filter(field="carrier", values=["UA"])]), model)


def test_a_ratio_is_told_as_its_two_counts_with_their_conditions(model):
    said = _why(model, "on_time_share")
    assert "arrival delay is at most 0, divided by the number of flights where arrival delay is known" in said
    assert "{{" not in said and "flight__" not in said


def test_a_metrics_own_condition_is_said_not_hinted(model):
    assert "counting only flights where departure delay is more than 0" in _why(model, "delayed_flights")
    assert "the number of flights where dep time is missing" in _why(model, "cancelled_flights")


def test_an_aggregate_of_a_formula_is_told_as_the_formula_not_a_count(model):
    from agent.semantic.model.runtime import Metric
    from agent.semantic.nlq.why import _metric_words

    sales = Metric(name="sales", label="Sales", table="flights", expr='sum(quantity * "pizza".price)')
    assert _metric_words(sales, model, "order details") == "the total of quantity times price over the order details"


def test_a_yes_no_grouping_the_model_defines_by_a_condition_says_the_condition(model):
    said = explain_reading(StructuredIntent(metrics=["avg_dep_delay"], dimensions=["rainy"]), model)
    assert "‘rainy’ holds where precip is more than 0" in said


def test_a_measure_the_model_works_out_says_its_formula(model):
    said = explain_reading(StructuredIntent(metrics=["avg_speed_mph"], dimensions=["route"]), model)
    assert "speed being distance divided by (air time divided by 60.0)" in said
