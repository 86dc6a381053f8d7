"""Dates in questions: periods counted back from the data's latest date (never today's clock),
runs of days across months, ISO date ranges, and holidays that move."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from agent.semantic.compile.intent import RelativePeriod, TimeFilter
from agent.semantic.nlq.parse.dates import resolve_relative


def _period(grain, count=1):
    return TimeFilter(relative=RelativePeriod(words="w", grain=grain, count=count))


@pytest.mark.parametrize("grain, count, latest, start, end", [
    ("month", 1, date(2013, 6, 15), date(2013, 6, 1), date(2013, 6, 30)),
    ("month", 3, date(2013, 2, 10), date(2012, 12, 1), date(2013, 2, 28)),
    ("week", 1, date(2013, 12, 31), date(2013, 12, 30), date(2014, 1, 5)),  # ISO week: Monday to Sunday
    ("week", 2, date(2013, 6, 12), date(2013, 6, 3), date(2013, 6, 16)),
    ("day", 7, date(2013, 3, 3), date(2013, 2, 25), date(2013, 3, 3)),
    ("quarter", 1, date(2013, 5, 1), date(2013, 4, 1), date(2013, 6, 30)),
    ("year", 1, date(2013, 5, 1), date(2013, 1, 1), date(2013, 12, 31)),
    ("year", 2, date(2013, 5, 1), date(2012, 1, 1), date(2013, 12, 31)),
])
def test_a_relative_period_ends_with_the_period_of_the_latest_date(grain, count, latest, start, end):
    resolved = resolve_relative(_period(grain, count), latest)
    assert (resolved.start, resolved.end) == (start, end)


@pytest.mark.parametrize("grain, latest, start, end", [
    ("year", date(2024, 12, 29), date(2024, 1, 1), date(2024, 12, 31)),  # two days short: that year is seen through
    ("year", date(2024, 12, 20), date(2023, 1, 1), date(2023, 12, 31)),  # December still running
    ("month", date(2024, 5, 28), date(2024, 5, 1), date(2024, 5, 31)),  # read on the 28th
    ("month", date(2024, 5, 27), date(2024, 4, 1), date(2024, 4, 30)),
])
def test_last_period_is_the_latest_one_the_data_has_seen_through(grain, latest, start, end):
    """'last year', 'last month': data ending a few days before a period's end has seen it through."""
    period = TimeFilter(relative=RelativePeriod(words=f"last {grain}", grain=grain))
    resolved = resolve_relative(period, latest)
    assert (resolved.start, resolved.end) == (start, end)


@pytest.fixture()
def ask_as_of(model, values):
    """Ask with the data's latest date fixed: what 'last month' means follows the data, not the clock."""
    def ask(question, latest):
        fixed = replace(values, latest={t.name: latest for t in model.tables}, read_latest=None)
        return extract_intent(question, model, fixed)
    return ask


@pytest.mark.parametrize("question, start, end, reading", [
    # June is still running on the 15th: 'last month' is May, the latest whole month; 'this month' is June
    ("how many flights last month", date(2013, 5, 1), date(2013, 5, 31),
     "last month (May 2013, the latest whole month in the data)"),
    ("how many flights this month", date(2013, 6, 1), date(2013, 6, 30), "this month (June 2013, the latest month"),
    ("average departure delay by carrier in the last 3 months", date(2013, 4, 1), date(2013, 6, 30),
     "last 3 months (April to June 2013, the latest 3 months in the data)"),
    ("number of flights this year", date(2013, 1, 1), date(2013, 12, 31), "this year (2013, the latest year"),
    ("flights last week", date(2013, 6, 10), date(2013, 6, 16), "last week (2013-06-10 to 2013-06-16"),
    ("how many flights in the past 10 days", date(2013, 6, 6), date(2013, 6, 15), "past 10 days"),
])
def test_relative_dates_count_back_from_the_latest_date_and_say_so(ask_as_of, model, question, start, end, reading):
    intent = ask_as_of(question, date(2013, 6, 15)).intent
    assert intent is not None and intent.time is not None
    assert (intent.time.start, intent.time.end) == (start, end)
    assert reading in compile_intent(intent, model).reason


def test_the_latest_date_is_read_once_from_the_warehouse(values, model):
    calls = []

    def read(table, dimension):
        calls.append(table)
        return date(2013, 12, 31)

    fresh = replace(values, latest={}, read_latest=read)
    for _ in range(3):
        intent = extract_intent("flights last month", model, fresh).intent
        assert intent is not None and intent.time is not None and intent.time.start == date(2013, 12, 1)
    assert calls == ["flights"]


def test_the_demo_data_ends_in_december_2013(values):
    assert values.latest_date("flights") == date(2013, 12, 31)


def test_no_latest_date_is_said_not_guessed(values, model):
    blind = replace(values, latest={}, read_latest=lambda table, dimension: None)
    extraction = extract_intent("how many flights last month", model, blind)
    assert extraction.intent is None and "latest date" in extraction.reason and "last month" in extraction.reason


def test_last_month_counts_the_rows_of_that_month(ask, model, warehouse):
    intent = ask("how many flights last month").intent
    got = warehouse.run(compile_intent(intent, model).sql).rows
    assert got == warehouse.run("SELECT count(*) FROM flights WHERE month = 12").rows


def test_the_last_week_of_a_month_is_still_a_calendar_week(ask):
    intent = ask("flights in the last week of january").intent
    assert intent.time.months == [1] and intent.time.days == list(range(25, 32)) and intent.time.relative is None


@pytest.mark.parametrize("question, gold", [
    ("how many flights from december 20 to january 5",
     "SELECT count(*) FROM flights WHERE (month = 12 AND day >= 20) OR (month = 1 AND day <= 5)"),
    ("how many flights between nov 20 and jan 5",
     "SELECT count(*) FROM flights WHERE (month = 11 AND day >= 20) OR month = 12 OR (month = 1 AND day <= 5)"),
    ("how many flights between 2013-03-01 and 2013-03-15",
     "SELECT count(*) FROM flights WHERE month = 3 AND day BETWEEN 1 AND 15"),
    ("how many flights on 2013-07-04", "SELECT count(*) FROM flights WHERE month = 7 AND day = 4"),
    ("how many flights nov 24-30", "SELECT count(*) FROM flights WHERE month = 11 AND day BETWEEN 24 AND 30"),
    ("how many flights from march 30 to april 2",
     "SELECT count(*) FROM flights WHERE (month = 3 AND day >= 30) OR (month = 4 AND day <= 2)"),
])
def test_date_ranges(ask, model, warehouse, question, gold):
    extraction = ask(question)
    assert extraction.intent is not None, extraction.reason
    got = warehouse.run(compile_intent(extraction.intent, model).sql).rows
    assert got == warehouse.run(gold).rows


def test_a_run_of_days_across_months_reads_back(ask, model):
    reading = compile_intent(ask("flights from december 20 to january 5").intent, model).reason
    assert "days December 20 to January 5" in reading


def test_a_moving_holiday_alone_is_asked_back_not_guessed(ask):
    extraction = ask("how many flights on thanksgiving")
    assert extraction.intent is None
    assert "Thanksgiving" in extraction.reason and "different date each year" in extraction.reason


def test_a_moving_holiday_with_its_dates_takes_those_dates(ask):
    intent = ask("avg dep delay at each airport during thanksgiving week (nov 24-30)").intent
    assert intent is not None
    assert intent.dimensions == ["origin"]  # 'at each airport': 'at' is the origin's cue
    assert intent.time.months == [11] and intent.time.days == list(range(24, 31))


def test_an_intent_with_a_relative_period_and_no_dates_gets_them(model, values):
    from agent.semantic.compile.intent import StructuredIntent
    from agent.semantic.nlq.parse.dates import with_latest_dates

    intent = StructuredIntent(metrics=["flight_count"], time=TimeFilter(
        relative=RelativePeriod(words="the last 2 weeks", grain="week", count=2)))
    dated, problem = with_latest_dates(intent, model, values)
    assert problem is None and (dated.time.start, dated.time.end) == (date(2013, 12, 23), date(2014, 1, 5))
    blind = replace(values, latest={}, read_latest=lambda table, dimension: None)
    assert "latest date" in with_latest_dates(intent, model, blind)[1]


def test_a_relative_period_the_model_cannot_date_is_declined_not_dropped(ask):
    extraction = ask("how many flights in the last hour")
    assert extraction.intent is None and "last" in extraction.reason
