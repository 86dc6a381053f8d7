"""'how many delays', 'the most delays': a measure named by a mass noun ('departure delay') said in the
plural after a counting word counts the rows that have one, by the metric that counts them; never its
average or its sum. Without such a metric the word is asked about."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import bootstrapped


@pytest.mark.parametrize("question, dimensions", [
    ("how many delays were there in march?", []),
    ("which day of the week has the most delays?", ["day_of_week"]),
    ("which carrier had the fewest delays?", ["carrier"]),
])
def test_counted_delays_are_the_delayed_flights(ask, question, dimensions):
    intent = ask(question).intent
    assert intent is not None and intent.metrics == ["delayed_flights"], intent
    assert intent.dimensions == dimensions


@pytest.mark.parametrize("question, metric", [
    ("average delays by carrier", "avg_dep_delay"),
    ("which carrier flew the most miles?", "total_distance"),
])
def test_an_aggregation_or_a_unit_is_not_a_count(ask, question, metric):
    intent = ask(question).intent
    assert intent is not None and intent.metrics == [metric], intent


SCHEMA = """
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, delay INTEGER NOT NULL, shipped_at DATE NOT NULL);
INSERT INTO shipments VALUES (1, 0, '2024-03-01'), (2, 5, '2024-03-02'), (3, 12, '2024-04-01');
"""


def test_without_a_metric_counting_them_the_word_is_asked(tmp_path):
    with bootstrapped(tmp_path, "shipments", SCHEMA) as work:
        read = extract_intent("how many delays were there in march?", work.semantic, work.values)
        assert read.intent is None and "delays" in read.ignored_words, read
        assert extract_intent("average delay in march", work.semantic, work.values).intent is not None


def test_a_measure_adjective_said_of_its_measure_is_its_extreme(ask):
    hottest = ask("what was the hottest temperature at lga?").intent
    assert hottest is not None and hottest.metrics == ["max_temp"] and not hottest.dimensions
    coldest = ask("coldest temperature in january").intent
    assert coldest is not None and coldest.metrics == ["min_temp"]


def test_the_verb_of_a_things_rows_counts_them(ask):
    intent = ask("which airline flies the most to sfo").intent
    assert intent is not None and intent.metrics == ["flight_count"] and intent.dimensions == ["carrier"]
    assert intent.limit == 1 and [f.values for f in intent.filters] == [["SFO"]]
