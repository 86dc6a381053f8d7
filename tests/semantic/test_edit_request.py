"""An LLM's edit of a reading (`IntentEdit`) applied by the thread's edit operations, on the demo model."""

from __future__ import annotations

from agent.semantic.nlq.edit_request import IntentEdit, apply_edit
from agent.semantic.nlq.edits import Edited
from agent.semantic.compile.intent import Filter, StructuredIntent, TimeFilter

JFK_JUNE = StructuredIntent(metrics=["avg_dep_delay"], dimensions=["carrier"],
                            filters=[Filter(field="origin", values=["JFK"])], time=TimeFilter(months=[6]))


def _applied(model, **edit) -> Edited:
    applied = apply_edit(JFK_JUNE, IntentEdit.model_validate(edit), model)
    assert isinstance(applied, Edited), applied
    return applied


def test_each_operation_keeps_what_it_does_not_change(model):
    compared = _applied(model, compare_filters=[{"field": "origin", "values": ["LGA"]}])
    assert compared.intent.filters == [Filter(field="origin", op="in", values=["JFK", "LGA"])]
    assert compared.intent.dimensions == ["origin", "carrier"] and compared.intent.time.months == [6]
    dropped = _applied(model, drop_filters=["origin"], whole_period=True)
    assert dropped.intent.filters == [] and dropped.intent.time is None
    assert dropped.changes == ["without origin airport JFK", "all dates instead of June"]
    regrouped = _applied(model, group_by=["dest"], metrics=["avg_arr_delay"], chart="bar")
    assert (regrouped.intent.dimensions, regrouped.intent.metrics, regrouped.chart) == (["dest"], ["avg_arr_delay"], "bar")
    assert regrouped.intent.filters == JFK_JUNE.filters
    left_out = _applied(model, exclude_values=[{"field": "carrier", "values": ["UA"]}])
    assert left_out.intent.filters == [*JFK_JUNE.filters, Filter(field="carrier", op="!=", values=["UA"])]


def test_the_same_words_as_the_offline_reader_on_the_reading_line(model):
    applied = _applied(model, put_filters=[{"field": "origin", "values": ["EWR"]}], aggregation="max", limit=3)
    assert applied.changes == ["EWR instead of JFK", "maximum departure delay instead of average departure delay", "top 3"]
    assert applied.intent.metrics == ["max_dep_delay"] and applied.intent.limit == 3


def test_an_edit_the_model_cannot_make_is_a_sentence(model):
    distance = JFK_JUNE.model_copy(update={"metrics": ["avg_distance"]})
    said = apply_edit(distance, IntentEdit(aggregation="median"), model)
    assert isinstance(said, str) and "no median of average distance" in said
    counted = apply_edit(JFK_JUNE, IntentEdit(aggregation="count"), model)  # 'the count instead': the rows
    assert isinstance(counted, Edited) and counted.intent.metrics == ["flight_count"]
    said = apply_edit(JFK_JUNE, IntentEdit(group_by=["no_such_dimension"]), model)
    assert isinstance(said, str) and said


def test_weekdays_months_left_out_and_quarters_go_through_the_same_operations(model):
    weekends = _applied(model, time={"weekdays": [6, 7]})
    assert weekends.intent.time.months == [6] and weekends.intent.time.weekdays == [6, 7]
    assert weekends.changes == ["only weekends"]
    summer = apply_edit(StructuredIntent(metrics=["flight_count"], dimensions=["month"]),
                        IntentEdit(exclude_months=[12]), model)
    assert isinstance(summer, Edited) and summer.intent.time.months == list(range(1, 12))
    quarters = apply_edit(StructuredIntent(metrics=["flight_count"], time=TimeFilter(months=[1, 2, 3])),
                          IntentEdit(compare_time=TimeFilter(months=[4, 5, 6])), model)
    assert isinstance(quarters, Edited) and quarters.intent.dimensions == ["quarter"]
