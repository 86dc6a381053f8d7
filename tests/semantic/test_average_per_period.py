"""An average per period ('avg number of flights per day out of JFK'): the count over the different days
its rows fall on, by the rows' own date; edited in a thread ('avg per month instead')."""

from __future__ import annotations

import pytest

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.definitions import Definition, period_count, problems_of
from agent.semantic.nlq.follow_up import read_follow_up


def _figure(warehouse, model, intent):
    rows = warehouse.run(compile_intent(intent, model).sql).rows
    return [tuple(r) for r in rows]


def _gold(warehouse, sql):
    return [tuple(r) for r in warehouse.run(sql).rows]


def test_a_count_per_day_is_over_the_days_with_rows(ask, model, warehouse):
    intent = ask("avg number of flights per day out of lga in feb").intent
    assert intent is not None and intent.dimensions == []
    [(got,)] = _figure(warehouse, model, intent)
    [(want,)] = _gold(warehouse, "SELECT AVG(n) FROM (SELECT day, COUNT(*) AS n FROM flights "
                                 "WHERE origin = 'LGA' AND month = 2 GROUP BY day)")
    assert got == pytest.approx(want)


def test_per_group_each_group_over_its_own_days(ask, model, warehouse):
    intent = ask("average number of flights per day out of each airport over the summer").intent
    assert intent is not None and intent.dimensions == ["origin"]
    got = dict(_figure(warehouse, model, intent))
    want = dict(_gold(warehouse, "SELECT origin, COUNT(*) * 1.0 / COUNT(DISTINCT make_date(year, month, day)) "
                                 "FROM flights WHERE month IN (6, 7, 8) GROUP BY origin"))
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k]) for k in want)


def test_the_reading_says_what_it_divides_by(ask, model):
    from agent.semantic.compile.reading import describe

    intent = ask("average number of flights per day").intent
    assert intent is not None
    said = describe(intent, model)
    assert "days = the different days with flights" in said and "count_distinct" not in said


def test_an_average_of_a_measure_per_day_still_groups_by_day(ask):
    # 'avg temp per day': an average already; 'per day' groups it
    intent = ask("avg temp at ewr per day in july").intent
    assert intent is not None and intent.dimensions and not intent.definitions


def test_without_a_word_of_averaging_per_day_groups(ask):
    intent = ask("flights per day in june").intent
    assert intent is not None and intent.dimensions and not intent.definitions


def test_avg_per_month_instead_changes_the_period(ask, model, values, warehouse):
    previous = ask("avg number of departures per day out of jfk").intent
    assert previous is not None
    read = read_follow_up(previous, "avg per month instead", model, values)
    assert read.edited is not None, read.problem
    [(got,)] = _figure(warehouse, model, read.edited.intent)
    [(want,)] = _gold(warehouse, "SELECT COUNT(*) / 12.0 FROM flights WHERE origin = 'JFK'")
    assert got == pytest.approx(want)
    assert read.edited.intent.filters == previous.filters


def test_avg_per_day_of_a_count_by_month(ask, model, values, warehouse):
    previous = ask("flights out of lga by month").intent
    assert previous is not None
    read = read_follow_up(previous, "avg per day instead", model, values)
    assert read.edited is not None, read.problem
    got = dict(_figure(warehouse, model, read.edited.intent))
    want = dict(_gold(warehouse, "SELECT month, COUNT(*) * 1.0 / COUNT(DISTINCT day) FROM flights "
                                 "WHERE origin = 'LGA' GROUP BY month"))
    assert all(got[k] == pytest.approx(want[k]) for k in want)


def test_an_average_measure_is_not_averaged_per_period(ask, model, values):
    previous = ask("average departure delay by carrier").intent
    assert previous is not None
    read = read_follow_up(previous, "avg per month instead", model, values)
    assert read.edited is None or not any(d.agg == "count_distinct" for d in read.edited.intent.definitions)


def test_only_the_periods_of_the_rows_own_date_may_be_counted(model):
    periods = period_count(model, "flights", "month")
    assert periods is not None and problems_of([periods], model) == []
    forged = Definition(name="flights__months_with_rows", label="months", table="flights", kind="measure",
                        expr="tailnum", agg="count_distinct")
    assert problems_of([forged], model)


def test_how_many_hours_the_conditions_hold(ask, model, warehouse):
    intent = ask("how many hours did each airport have visibility under 1 mile").intent
    assert intent is not None and intent.dimensions == ["origin"]
    got = {r[0]: r[1] for r in warehouse.run(compile_intent(intent, model).sql).rows}
    want = {r[0]: r[1] for r in warehouse.run("SELECT origin, COUNT(*) FROM weather WHERE visib < 1 "
                                               "GROUP BY origin").rows}
    assert got == want


def test_how_many_hours_of_an_activity_measured_in_minutes_is_no_count_of_hours(ask):
    # 'how many hours did united fly': an amount of time (air time), never the hours with flights
    extraction = ask("how many hours did united fly in 2013")
    assert extraction.intent is None or not any(d.agg == "count_distinct" for d in extraction.intent.definitions)
