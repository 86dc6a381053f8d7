"""A slip inside a phrase is read as the word that makes the phrase ('arrival delya': delay, not the carrier
Delta one letter away); the demo's dew point and wind gusts are measures."""

from __future__ import annotations

from agent.semantic.nlq.extract import extract_intent


def test_a_slip_inside_a_phrase_keeps_the_phrase(model, values):
    read = extract_intent("avg arrival delya for united flights out of ewr", model, values)
    assert read.intent is not None, read.reason
    assert read.intent.metrics == ["avg_arr_delay"]
    assert sorted((f.field, tuple(f.values)) for f in read.intent.filters) == [("carrier", ("UA",)),
                                                                                ("origin", ("EWR",))]


def test_dew_point_and_gusts_are_measured(model, values):
    assert extract_intent("max wind gust at jfk in april", model, values).intent.metrics == ["max_wind_gust"]
    assert extract_intent("avg dewpoint at lga by month", model, values).intent.metrics == ["avg_dewp"]



def test_a_word_after_a_count_is_never_taken_for_a_periods_name(model, values):
    # 'during the feb 8-9 blizzard' names a period; 'top 3 glorps' names things nobody read: asked, not dropped
    read = extract_intent("top 3 glorps by total distance in each month", model, values)
    assert read.intent is None and "glorps" in (read.reason or "")


def test_two_letters_swapped_in_a_short_word(model, values):
    read = extract_intent("how many planes per engine tpye", model, values)
    assert read.intent is not None and read.intent.dimensions == ["engine"], read.reason


def test_a_value_of_two_roles_is_the_one_the_measure_reaches(model, values):
    # the weather is kept by origin airport only: LGA is the origin, nothing to ask
    read = extract_intent("avg temp at lga by month", model, values)
    assert read.intent is not None, read.reason
    assert [(f.field, f.values) for f in read.intent.filters] == [("origin", ["LGA"])]


def test_a_noun_after_a_value_of_two_roles_says_which_role(model, values):
    # 'departures' is a word of the origin's names only ('departure airport'); 'airport' is both roles' word
    read = extract_intent("lga departures in may", model, values)
    assert read.intent is not None, read.reason
    assert [(f.field, f.values) for f in read.intent.filters] == [("origin", ["LGA"])]
    asked = extract_intent("lga flights in may", model, values)
    assert asked.intent is None and asked.ambiguous, asked
