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

