"""A short name two values begin with ('portland': Portland Intl and Portland Intl Jetport) is asked about,
one button per value, never given to the first; two spellings of one thing ('ACME', 'ACME INC') are both
meant."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE trips (trip_id INTEGER PRIMARY KEY, destination VARCHAR NOT NULL, operator VARCHAR NOT NULL,
                    miles INTEGER NOT NULL);
INSERT INTO trips VALUES (1, 'Portland Intl', 'ACME', 100), (2, 'Portland Intl Jetport', 'ACME INC', 200),
                         (3, 'Denver Intl', 'Zenith Air', 300), (4, 'Portland Intl', 'Zenith Air', 150);
"""


@pytest.fixture(scope="module")
def trips(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("shared-names"), "trips", SCHEMA) as work:
        yield work


def test_a_short_name_two_values_begin_with_is_asked(trips):
    read = extract_intent("how many trips to portland?", trips.semantic, trips.values)
    assert read.intent is None
    assert [(a.text, sorted(a.options)) for a in read.ambiguous] == [
        ("portland", ["Portland Intl", "Portland Intl Jetport"])]


@pytest.mark.parametrize("name, sql", [
    ("portland intl jetport", "SELECT count(*) FROM trips WHERE destination = 'Portland Intl Jetport'"),
    ("portland intl", "SELECT count(*) FROM trips WHERE destination = 'Portland Intl'"),
    ("denver", "SELECT count(*) FROM trips WHERE destination = 'Denver Intl'"),
])
def test_each_answer_to_which_reads(trips, name, sql):
    assert_reads_as(trips, f"how many trips to {name}?", sql)


def test_two_spellings_of_one_name_are_both_meant(trips):
    assert_reads_as(trips, "how many trips did acme run?", "SELECT count(*) FROM trips WHERE operator LIKE 'ACME%'")
