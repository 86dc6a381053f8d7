"""An amount asked in a larger unit of what it is kept in ('total ride time in hours' for minutes): the same
aggregate of the measure divided by the unit's size, never refused and never grouped by the hour of day;
a unit of another kind is still declined with a sentence."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.nlq.extract import extract_intent

SCHEMA = """
CREATE TABLE rides (ride_id INTEGER PRIMARY KEY, rider VARCHAR NOT NULL, ride_minutes INTEGER NOT NULL,
                    started_at TIMESTAMP NOT NULL);
INSERT INTO rides VALUES (1, 'Ada', 90, '2024-03-01 08:00:00'), (2, 'Ada', 30, '2024-03-01 17:00:00'),
                         (3, 'Bo', 45, '2024-03-02 08:30:00'), (4, 'Cy', 120, '2024-03-03 09:00:00');
"""

QUESTIONS = {
    "total ride minutes in hours": "SELECT sum(ride_minutes) / 60.0 FROM rides",
    "average ride minutes in hours by rider": "SELECT rider, avg(ride_minutes / 60.0) FROM rides GROUP BY 1",
}


@pytest.fixture(scope="module")
def bikes(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("units"), "bikes", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_an_amount_in_a_larger_unit_is_converted(bikes, question):
    assert_reads_as(bikes, question, QUESTIONS[question])


def test_a_unit_of_another_kind_is_declined(bikes):
    read = extract_intent("total ride minutes in miles", bikes.semantic, bikes.values)
    assert read.intent is None and read.reason, read
