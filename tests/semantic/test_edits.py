"""Each edit operation on a reading, on the shipped demo model: what it changes and what it keeps."""

from __future__ import annotations

from agent.semantic.nlq import edits
from agent.semantic.nlq.edits import Edited
from agent.semantic.compile.intent import Filter, OrderBy, StructuredIntent, TimeFilter, validate_intent


def _jfk_by_carrier() -> Edited:
    return Edited(StructuredIntent(metrics=["avg_dep_delay"], dimensions=["carrier"],
                                   filters=[Filter(field="origin", values=["JFK"])], time=TimeFilter(months=[6])))


def test_a_value_on_a_filtered_dimension_replaces_the_old_one(model):
    edited = edits.put_filter(_jfk_by_carrier(), Filter(field="origin", values=["EWR"]), model)
    assert edited.intent.filters == [Filter(field="origin", values=["EWR"])]
    assert edited.changes == ["EWR instead of JFK"]
    assert edited.intent.dimensions == ["carrier"] and edited.intent.time.months == [6]


def test_a_value_on_a_new_dimension_is_added(model):
    edited = edits.put_filter(_jfk_by_carrier(), Filter(field="dest", values=["LAX"]), model)
    assert {f.field for f in edited.intent.filters} == {"origin", "dest"}
    assert edited.changes[0].startswith("also")


def test_a_value_on_the_grouped_dimension_narrows_to_it(model):
    edited = edits.put_filter(_jfk_by_carrier(), Filter(field="carrier", values=["UA"]), model)
    assert edited.intent.dimensions == [] and Filter(field="carrier", values=["UA"]) in edited.intent.filters


def test_drop_filters_by_dimension(model):
    dropped = edits.drop_filters(_jfk_by_carrier(), ["origin"], model)
    assert dropped.intent.filters == [] and dropped.changes == ["without origin airport JFK"]
    untouched = edits.drop_filters(_jfk_by_carrier(), ["dest"], model)
    assert untouched.changes == [] and untouched.intent.filters


def test_a_new_time_window_replaces_the_old_and_the_whole_period_drops_it(model):
    april = edits.set_time(_jfk_by_carrier(), TimeFilter(months=[4]))
    assert april.intent.time.months == [4] and april.changes == ["April instead of June"]
    whole = edits.whole_period(_jfk_by_carrier())
    assert whole.intent.time is None and whole.changes == ["all dates instead of June"]


def test_grouping_replaces_or_adds_and_a_grouped_dimension_loses_its_filter(model):
    instead = edits.set_grouping(_jfk_by_carrier(), ["month"], model, add=False)
    assert instead.intent.dimensions == ["month"]
    added = edits.set_grouping(_jfk_by_carrier(), ["month"], model, add=True)
    assert added.intent.dimensions == ["carrier", "month"]
    by_origin = edits.set_grouping(_jfk_by_carrier(), ["origin"], model, add=False)
    assert by_origin.intent.filters == [] and "every origin airport" in by_origin.changes[0]
    # a period replaces the period, and the other groups stay ('by week instead' after by carrier and month)
    monthly = edits.set_grouping(_jfk_by_carrier(), ["month"], model, add=True)
    weekly = edits.set_grouping(monthly, ["metric_time__week"], model, add=False)
    assert weekly.intent.dimensions == ["carrier", "metric_time__week"], weekly.intent


def test_a_grouping_on_the_airline_name_drops_the_carrier_code_filter(model):
    united = Edited(StructuredIntent(metrics=["flight_count"], filters=[Filter(field="carrier", values=["UA"])]))
    edited = edits.set_grouping(united, ["airline_name"], model, add=False)
    assert edited.intent.filters == []


def test_top_n_orders_by_the_metric_and_the_full_ranking_lifts_the_limit(model):
    top = edits.set_limit(_jfk_by_carrier(), 3)
    assert top.intent.limit == 3 and top.intent.order_by == [OrderBy(field="avg_dep_delay", descending=True)]
    bottom = edits.set_limit(top, 3, descending=False)
    assert bottom.intent.order_by[0].descending is False and bottom.changes[-1] == "bottom 3"
    everything = edits.set_limit(top, None)
    assert everything.intent.limit is None and everything.intent.order_by


def test_switching_the_metric_moves_the_ranking_with_it(model):
    ranked = edits.set_limit(_jfk_by_carrier(), 3)
    edited = edits.set_metrics(ranked, ["avg_arr_delay"], model)
    assert edited.intent.metrics == ["avg_arr_delay"] and edited.intent.order_by[0].field == "avg_arr_delay"
    assert not validate_intent(edited.intent, model)


def test_an_aggregation_switch_finds_the_same_measure_aggregated_otherwise(model):
    median = edits.switch_aggregation(_jfk_by_carrier(), "median", model)
    assert median is not None and median.intent.metrics == ["median_dep_delay"]
    counted = Edited(StructuredIntent(metrics=["flight_count"]))
    assert edits.switch_aggregation(counted, "median", model) is None  # a count has no median: said, not guessed


def test_compare_sets_values_and_periods_side_by_side(model):
    values = edits.compare_values(_jfk_by_carrier(), Filter(field="origin", values=["LGA"]), model)
    assert values.intent.filters == [Filter(field="origin", op="in", values=["JFK", "LGA"])]
    assert values.intent.dimensions[0] == "origin"
    months = edits.compare_periods(_jfk_by_carrier(), TimeFilter(months=[7]), model)
    assert months.intent.time.months == [6, 7] and "month" in months.intent.dimensions
    assert not validate_intent(months.intent, model)


def test_chart_kind_is_kept_beside_the_intent(model):
    edited = edits.set_chart(_jfk_by_carrier(), "bar")
    assert edited.chart == "bar" and edited.intent == _jfk_by_carrier().intent


def test_keep_rows_narrows_to_the_previous_answers_things(model):
    edited = edits.keep_rows(_jfk_by_carrier(), "carrier", ["UA", "DL", "AA"], model)
    assert Filter(field="carrier", op="in", values=["UA", "DL", "AA"]) in edited.intent.filters
    assert Filter(field="origin", values=["JFK"]) in edited.intent.filters
    assert edited.intent.dimensions == ["carrier"]
    assert edited.changes == ["among the 3 carrier values of the previous answer"]


def test_keep_rows_replaces_a_condition_on_the_same_things(model):
    start = Edited(_jfk_by_carrier().intent.model_copy(update={"filters": [Filter(field="carrier", values=["UA"])]}))
    edited = edits.keep_rows(start, "carrier", ["DL"], model)
    assert edited.intent.filters == [Filter(field="carrier", values=["DL"])]


def test_one_column_under_two_names_is_one_subject(model):
    carrier = model.dimension_by_name["carrier"]
    twin = next((d for d in model.dimensions if d.name != "carrier" and
                 {(s.table, s.expr) for s in d.sources} & {(s.table, s.expr) for s in carrier.sources}), None)
    assert edits.same_subject(model, "carrier", "carrier")
    if twin is not None:
        assert edits.same_subject(model, "carrier", twin.name)
    assert not edits.same_subject(model, "carrier", "dest")


def test_leaving_a_value_out_keeps_every_other_value(model):
    edited = edits.exclude_value(_jfk_by_carrier(), Filter(field="carrier", values=["UA"]), model)
    assert Filter(field="carrier", op="!=", values=["UA"]) in edited.intent.filters
    assert Filter(field="origin", values=["JFK"]) in edited.intent.filters and edited.intent.dimensions == ["carrier"]
    assert edited.changes == ["without carrier UA"]
    assert not validate_intent(edited.intent, model)


def test_leaving_out_a_value_a_condition_lists_takes_it_off_that_condition(model):
    two = Edited(StructuredIntent(metrics=["flight_count"], filters=[Filter(field="origin", op="in", values=["JFK", "LGA"])]))
    edited = edits.exclude_value(two, Filter(field="origin", values=["LGA"]), model)
    assert edited.intent.filters == [Filter(field="origin", values=["JFK"])]


def test_as_a_percent_a_share_stays_a_count_becomes_its_rate_or_each_groups_share(model):
    rate = Edited(StructuredIntent(metrics=["cancellation_rate"], time=TimeFilter(months=[2])))
    same = edits.as_percent(rate, model)
    assert isinstance(same, Edited) and same.intent == rate.intent and same.changes
    cancelled = edits.as_percent(Edited(StructuredIntent(metrics=["cancelled_flights"], dimensions=["month"])), model)
    assert isinstance(cancelled, Edited) and cancelled.intent.metrics == ["cancellation_rate"]
    counted = edits.as_percent(Edited(StructuredIntent(metrics=["flight_count"], dimensions=["carrier"])), model)
    assert isinstance(counted, Edited) and counted.intent.share_of_total
    assert not validate_intent(counted.intent, model)


def test_as_a_percent_of_nothing_said_is_a_sentence_not_a_number(model):
    alone = edits.as_percent(Edited(StructuredIntent(metrics=["avg_dep_delay"])), model)
    assert isinstance(alone, str) and "percentage of" in alone
    averaged = edits.as_percent(Edited(StructuredIntent(metrics=["avg_dep_delay"], dimensions=["carrier"])), model)
    assert isinstance(averaged, str)


def test_days_of_the_week_or_hours_alone_keep_the_months_and_a_month_keeps_them(model):
    march = Edited(StructuredIntent(metrics=["flight_count"], time=TimeFilter(months=[3])))
    weekends = edits.set_time(march, TimeFilter(weekdays=[6, 7]))
    assert weekends.intent.time.months == [3] and weekends.intent.time.weekdays == [6, 7]
    assert weekends.changes == ["only weekends"]
    weekdays = edits.set_time(weekends, TimeFilter(weekdays=[1, 2, 3, 4, 5]))
    assert weekdays.intent.time.months == [3] and weekdays.intent.time.weekdays == [1, 2, 3, 4, 5]
    assert weekdays.changes[-1] == "weekdays instead of weekends"
    april = edits.set_time(weekdays, TimeFilter(months=[4]))
    assert april.intent.time.months == [4] and april.intent.time.weekdays == [1, 2, 3, 4, 5]
    evening = edits.set_time(march, TimeFilter(hours=list(range(18, 24))))
    assert evening.intent.time.months == [3] and evening.intent.time.hours == list(range(18, 24))


def test_a_year_compared_sets_the_years_side_by_side(model):
    in_2013 = Edited(StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"], time=TimeFilter(year=2013)))
    both = edits.compare_periods(in_2013, TimeFilter(year=2014), model)
    assert both.intent.time.years == [2013, 2014] and both.intent.time.year is None
    assert both.intent.dimensions == ["year", "carrier"] and not validate_intent(both.intent, model)
    every = edits.compare_periods(Edited(StructuredIntent(metrics=["avg_arr_delay"])), TimeFilter(year=2014), model)
    assert every.intent.time is None and every.intent.dimensions == ["year"]


def test_a_quarter_compared_with_a_quarter_is_one_row_per_quarter(model):
    q1 = Edited(StructuredIntent(metrics=["flight_count"], time=TimeFilter(months=[1, 2, 3])))
    both = edits.compare_periods(q1, TimeFilter(months=[4, 5, 6]), model)
    assert both.intent.dimensions == ["quarter"] and both.intent.time.months == [1, 2, 3, 4, 5, 6]
    assert both.changes == ["Q1 and Q2 side by side"]
    months = edits.compare_periods(Edited(StructuredIntent(metrics=["flight_count"], time=TimeFilter(months=[1]))),
                                   TimeFilter(months=[2]), model)
    assert months.intent.dimensions == ["month"]


def test_a_comparison_replaced_says_both_comparisons(model):
    built = Edited(StructuredIntent(metrics=["avg_seats"], filters=[Filter(field="plane_year", op=">", values=[2000])]))
    edited = edits.put_filter(built, Filter(field="plane_year", op="<", values=[1990]), model)
    assert edited.intent.filters == [Filter(field="plane_year", op="<", values=[1990])]
    assert edited.changes == ["year the plane was built < 1990 instead of > 2000"]


def test_a_metric_the_message_defines_is_kept_with_its_definition(model):
    from agent.semantic.compile.definitions import Definition

    defined = Definition(name="seats_max", label="Max seats", table="planes", kind="measure", expr="seats", agg="max")
    edited = edits.set_metrics(Edited(StructuredIntent(metrics=["avg_seats"], dimensions=["manufacturer"])),
                               ["seats_max"], model, [defined])
    assert edited.intent.definitions == [defined] and validate_intent(edited.intent, model) == []
    assert edited.changes == ["max seats instead of average seats"]
