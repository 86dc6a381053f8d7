"""Days of the week set against each other ('weekends vs weekdays', 'saturdays vs the rest'): one row for the
days said first, one for the others, grouped by whether each row's own date falls on the first days; kept
through a thread's edits, rebuilt (never taken as given) in every dialect."""

from __future__ import annotations

import pytest

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.definitions import problems_of, weekday_condition
from agent.semantic.nlq.follow_up import read_follow_up


def _rows(warehouse, sql):
    return {tuple(r[:-1]): round(r[-1], 6) for r in warehouse.run(sql).rows}


WEEKEND = "isodow(make_date(year, month, day)) IN (6, 7)"


def test_weekends_vs_weekdays_is_one_row_each(ask, model, warehouse):
    intent = ask("avg dep delay at lga weekends vs weekdays").intent
    assert intent is not None and intent.time is None and intent.dimensions == ["weekend"]
    got = _rows(warehouse, compile_intent(intent, model).sql)
    assert got == _rows(warehouse, f"SELECT {WEEKEND}, avg(dep_delay) FROM flights WHERE origin = 'LGA' GROUP BY 1")


def test_some_days_vs_the_rest(ask, model, warehouse):
    intent = ask("how many flights got cancelled on saturdays vs the rest").intent
    assert intent is not None and intent.time is None
    got = _rows(warehouse, compile_intent(intent, model).sql)
    assert got == _rows(warehouse, "SELECT isodow(make_date(year, month, day)) = 6, count(*) FILTER (WHERE dep_time IS "
                                   "NULL) FROM flights GROUP BY 1")


def test_vs_the_other_days_in_a_thread_sets_them_side_by_side_and_keeps_them(ask, model, values, warehouse):
    previous = ask("how many flights left jfk on weekends").intent
    beside = read_follow_up(previous, "vs weekdays", model, values).edited
    assert beside is not None and beside.intent.time is None
    assert _rows(warehouse, compile_intent(beside.intent, model).sql) == _rows(
        warehouse, f"SELECT {WEEKEND}, count(*) FROM flights WHERE origin = 'JFK' GROUP BY 1")
    delay = read_follow_up(beside.intent, "what about avg dep delay", model, values).edited
    assert delay is not None and _rows(warehouse, compile_intent(delay.intent, model).sql) == _rows(
        warehouse, f"SELECT {WEEKEND}, avg(dep_delay) FROM flights WHERE origin = 'JFK' GROUP BY 1")


def test_the_condition_is_rebuilt_from_the_days_and_a_changed_one_is_refused(model):
    made = weekday_condition(model, "flights", [6, 7], "weekend", "weekend")
    assert made is not None and problems_of([made], model) == []
    assert problems_of([made.model_copy(update={"expr": "1 = 1"})], model)
    assert problems_of([made.model_copy(update={"weekdays": [8]})], model)


@pytest.mark.parametrize(("dialect", "spelt"), [("postgres", "EXTRACT(ISODOW FROM D)"), ("mysql", "WEEKDAY(D) + 1"),
                                                 ("duckdb", "ISODOW(D)"), ("snowflake", "DAYOFWEEKISO(D)")])
def test_the_weekday_is_iso_in_every_dialect(dialect, spelt):
    from sqlglot import exp

    from agent.semantic.compile.sqlgen import iso_weekday

    assert iso_weekday(exp.column("d"), dialect).sql(dialect=dialect).upper() == spelt


def test_a_grouping_said_after_the_days_set_apart_splits_both(ask, model, values, warehouse):
    previous = ask("avg dep delay at lga weekends vs weekdays").intent
    split = read_follow_up(previous, "by carrier", model, values).edited
    assert split is not None and split.intent.dimensions == ["weekend", "carrier"]
    assert _rows(warehouse, compile_intent(split.intent, model).sql) == _rows(
        warehouse, f"SELECT {WEEKEND}, carrier, avg(dep_delay) FROM flights WHERE origin = 'LGA' GROUP BY 1, 2")
