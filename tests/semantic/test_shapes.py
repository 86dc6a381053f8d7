"""Question shapes beyond one aggregate, phrased unlike the eval sets: each answered offline and
checked against SQL written by hand, or declined with what could not be placed."""

from __future__ import annotations

import pytest

from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent

CASES = [
    ("how many flights on Christmas day?", "SELECT count(*) FROM flights WHERE month = 12 AND day = 25"),
    ("flights in the first week of January by carrier",
     "SELECT carrier, count(*) FROM flights WHERE month = 1 AND day <= 7 GROUP BY carrier"),
    ("ratio of LGA departures to JFK departures in May",
     "SELECT 1.0 * count(*) FILTER (WHERE origin = 'LGA') / count(*) FILTER (WHERE origin = 'JFK') "
     "FROM flights WHERE month = 5"),
    ("how many times more flights did Delta fly than American?",
     "SELECT 1.0 * count(*) FILTER (WHERE carrier = 'DL') / count(*) FILTER (WHERE carrier = 'AA') FROM flights"),
    ("% change in flights to ORD from March to April",
     "SELECT 100.0 * (count(*) FILTER (WHERE month = 4) - count(*) FILTER (WHERE month = 3)) "
     "/ count(*) FILTER (WHERE month = 3) FROM flights WHERE dest = 'ORD'"),
    ("carriers with fewer than 1000 flights",
     "SELECT carrier, count(*) FROM flights GROUP BY carrier HAVING count(*) < 1000"),
    ("how many destinations had more than 10000 flights?",
     "SELECT count(*) FROM (SELECT dest FROM flights GROUP BY dest HAVING count(*) > 10000)"),
    ("what share of United's flights leave from EWR?",
     "SELECT 1.0 * count(*) FILTER (WHERE origin = 'EWR') / count(*) FROM flights WHERE carrier = 'UA'"),
    ("which airline names had an average departure delay above 15 minutes",
     "SELECT a.name FROM flights f JOIN airlines a USING (carrier) GROUP BY a.name HAVING avg(dep_delay) > 15"),
    ("number of flights that were not cancelled by month",
     "SELECT month, count(*) FROM flights WHERE dep_time IS NOT NULL GROUP BY month"),
    ("month over month change in average arrival delay",
     "SELECT month, d - lag(d) OVER (ORDER BY month) FROM (SELECT month, avg(arr_delay) d FROM flights GROUP BY month)"),
    ("by what percent did flights to ORD grow from March to April?",
     "SELECT 100.0 * (count(*) FILTER (WHERE month = 4) - count(*) FILTER (WHERE month = 3)) "
     "/ count(*) FILTER (WHERE month = 3) FROM flights WHERE dest = 'ORD'"),
    ("how much did flights to Denver fall from July to August?",
     "SELECT count(*) FILTER (WHERE month = 8) - count(*) FILTER (WHERE month = 7) FROM flights WHERE dest = 'DEN'"),
    ("month over month growth in the number of flights",
     "SELECT month, n - lag(n) OVER (ORDER BY month) FROM (SELECT month, count(*) n FROM flights GROUP BY month)"),
    # a flight with no tail number is no plane's: averaged over planes, only the flights that have one count
    ("average number of flights per plane",
     "SELECT 1.0 * count(tailnum) / count(DISTINCT tailnum) FROM flights"),
    ("how many flights per plane does each carrier fly, on average?",
     "SELECT carrier, 1.0 * count(tailnum) / count(DISTINCT tailnum) FROM flights GROUP BY carrier"),
    ("avg arrival delay on flights to atl, per carrier",  # the average is the delay's: 'per carrier' groups
     "SELECT carrier, avg(arr_delay) FROM flights WHERE dest = 'ATL' GROUP BY carrier"),
    ("avg dep delay by day of month",  # 'day of month' is the day of the month, said without 'the'
     "SELECT day, avg(dep_delay) FROM flights GROUP BY day"),
    ("worst 5 airlines for avg dep delay in june",  # a ranking word and a number: how many, in its order
     "SELECT carrier, avg(dep_delay) FROM flights WHERE month = 6 GROUP BY 1 ORDER BY 2 DESC LIMIT 5"),
    ("how many jfk->lax flights were in the air more than 400 min",
     "SELECT count(*) FROM flights WHERE origin = 'JFK' AND dest = 'LAX' AND air_time > 400"),
    ("what share of jetblue flights leave from each nyc airport",  # of jetblue's flights: each airport's part
     "SELECT origin, count(*), 100.0 * count(*) / sum(count(*)) OVER () FROM flights WHERE carrier = 'B6' GROUP BY 1"),
    # 'their share': each airline's part of what the conditions hold (JFK's flights), not of its own flights
    ("top 5 airlines out of jfk with their share of flights",
     "SELECT carrier, count(*), 100.0 * count(*) / sum(count(*)) OVER () FROM flights WHERE origin = 'JFK' "
     "GROUP BY 1 ORDER BY 2 DESC LIMIT 5"),
    ("average temperature at JFK on new year's eve",
     "SELECT avg(temp) FROM weather WHERE origin = 'JFK' AND month = 12 AND day = 31"),
    # two periods set against each other within groups: a column each, one row per group; SkyWest (OO) flew in
    # January only, so its July is 0, where one row per carrier and month would leave the row out
    ("flights per carrier, january vs july",
     "SELECT carrier, count(*) FILTER (WHERE month = 1), count(*) FILTER (WHERE month = 7) FROM flights GROUP BY 1"),
    # a change between two periods is the later minus the earlier, in whatever order they are said; each
    # group's two values are shown beside it
    ("flights per origin, june vs july: how much did each change?",
     "SELECT origin, count(*) FILTER (WHERE month = 6), count(*) FILTER (WHERE month = 7), "
     "count(*) FILTER (WHERE month = 7) - count(*) FILTER (WHERE month = 6) FROM flights GROUP BY 1"),
]


@pytest.mark.parametrize("question, gold", CASES, ids=[c[0] for c in CASES])
def test_shape_answered_like_hand_written_sql(ask, model, warehouse, question, gold):
    extraction = ask(question)
    assert extraction.intent is not None, extraction.reason
    compiled = compile_intent(extraction.intent, model)
    got = warehouse.run(compiled.sql)
    want = warehouse.run(gold)
    assert rows_match(want.columns, want.rows, got.columns, got.rows), compiled.sql


@pytest.mark.parametrize("question, word", [
    ("what is the growth of flights from JFK", "growth"),
    ("how many flights left JFK except on weekdays in a ratio", "ratio"),
    ("average delay of distinct routes", "distinct"),
])
def test_meaning_words_that_cannot_be_placed_are_declined(ask, question, word):
    extraction = ask(question)
    assert extraction.intent is None and word in extraction.reason


def test_every_intent_has_a_reading(ask, model):
    intent = ask("which airlines had more than 20k flights out of EWR? names please").intent
    reading = compile_intent(intent, model).reason
    assert reading.startswith("Number of flights by carrier, airline name") and "20000" in reading and "EWR" in reading


def test_a_grouping_nothing_names_is_not_dropped(ask):
    extraction = ask("number of flights at each gate level")
    assert extraction.intent is None and "each gate level" in extraction.reason


def test_two_months_set_against_each_other_are_a_row_each(ask):
    for question in ("avg temp at ewr jan vs jul", "flights in march compared to june"):
        extraction = ask(question)
        assert extraction.intent is not None, (question, extraction.reason)
        assert len(extraction.intent.time.months) == 2 and "month" in extraction.intent.dimensions  # the model's own
    together = ask("flights in march and june").intent  # 'and' alone: both months, one total
    assert together is not None and "month" not in together.dimensions


def test_two_periods_within_groups_are_two_columns_and_a_change_is_later_minus_earlier(ask, model):
    beside = ask("flights per carrier, january vs july").intent
    assert beside is not None and beside.contrast is not None and beside.contrast.kind == "side_by_side"
    reading = compile_intent(beside, model).reason
    assert beside.dimensions == ["carrier"] and reading.startswith("Number of flights, (") and reading.index(
        "January") < reading.index("beside") < reading.index("July") < reading.index("by carrier")
    change = ask("flights per origin, june vs july: how much did each change?").intent
    assert change is not None and change.contrast is not None and change.contrast.kind == "difference"
    assert (change.contrast.first.time.months, change.contrast.second.time.months) == ([7], [6])


def test_a_cue_of_another_role_is_no_value_of_this_one(ask):
    # PHL is only ever a destination: 'leaving phl' is said back, never read as flights to PHL
    extraction = ask("avg arrival delay of flights leaving phl")
    assert extraction.intent is None and [u.text.lower() for u in extraction.unknown_values] == ["phl"]
    assert ask("ratio of JFK departures to Newark departures in december?").intent is not None  # 'to' says many things


def test_best_of_a_count_asks_by_what(ask):
    extraction = ask("which manufacturer has the best planes?")
    assert extraction.intent is None and "best" in extraction.reason
