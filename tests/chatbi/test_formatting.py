"""Numbers and names for people, and the invented-number check."""

from agent.chatbi.formatting import label, number, quantity, time_label
from agent.chatbi.meaning import ColumnMeaning
from agent.chatbi.narrative import invented_numbers


def test_numbers_have_separators_and_one_or_two_decimals():
    assert number(336776) == "336,776"
    assert number(12.63907) == "12.64"
    assert number(12345.678) == "12,345.7"
    assert number(2.0) == "2"
    assert number(0.004) == "0.004"


def test_units_come_from_the_meaning_or_a_column_name_that_names_the_unit():
    assert quantity(12.639, "avg_wait", ColumnMeaning(unit="minutes", aggregate="avg")) == "12.64 minutes"
    assert quantity(80.07, "avg_reading", ColumnMeaning(unit="°F", aggregate="avg")) == "80.07°F"
    assert quantity(12.639, "avg_wait") == "12.64"  # no unit is guessed from a measure's name
    assert quantity(1400, "trip_miles") == "1,400 miles"
    assert quantity(45.25, "on_time_pct") == "45.2%"
    assert quantity(0.4031, "on_time_share") == "40.3%"
    assert quantity(58665, "orders") == "58,665"
    assert quantity(2006, "plane_year") == "2006"


def test_column_names_read_as_words():
    assert label("avg_dep_delay") == "average departure delay"
    assert label("count_star()") == "count"
    assert label("num_flights") == "number of flights"


def test_time_values_read_as_people_say_them():
    assert time_label(7, "month") == "July"
    assert time_label(3, "quarter") == "Q3"
    assert time_label(14, "hour") == "14:00"
    assert time_label("2013-07-04T00:00:00", "day") == "2013-07-04"


def test_numbers_stated_as_written_or_rounded_are_facts():
    facts = {"top": {"label": "UA", "value": 58665.0, "share_pct": 17.4195}, "count": 16}
    assert invented_numbers("UA: 58,665 flights, 17.4% (about 17%) of 16 carriers", facts) == []


def test_numbers_not_among_the_facts_are_invented():
    facts = {"top": {"label": "UA", "value": 58665.0, "share_pct": 17.4195}}
    assert invented_numbers("UA flew 58,665 flights, up 12% on 2012.", facts) == ["12", "2012"]
    assert invented_numbers("Compared with 2012", facts, allowed_text="since 2012?") == []


def test_numbers_inside_labels_and_negative_changes_count_as_facts():
    facts = {"first": {"label": "2013-07-01", "value": 876.0}, "change_pct": -88.46}
    assert invented_numbers("From 876 on 2013-07-01 it fell 88.5%.", facts) == []


def test_a_count_of_different_things_is_said_as_a_count_not_as_a_quantity_of_itself():
    from agent.chatbi.sentences import Measure

    planes = Measure("distinct_planes", ColumnMeaning(label="distinct planes flown", aggregate="count_distinct"))
    assert planes.statement(4043) == "4,043 distinct planes flown"
    delay = Measure("avg_dep_delay", ColumnMeaning(label="average departure delay", unit="minutes", aggregate="avg"))
    assert delay.statement(12.64) == "the average departure delay is 12.64 minutes"
