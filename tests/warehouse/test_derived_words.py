"""A word derived from one of the warehouse's own (a value, a column) reaches it by its stem: 'doctorate'
names the degree Doctor, 'cancellations' the status Cancelled. Where the stem names two things, or
no thing, the reader asks instead of picking one."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.nlq.extract import extract_intent

SCHEMA = """
CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, full_name VARCHAR NOT NULL, degree VARCHAR NOT NULL,
                    team VARCHAR NOT NULL);
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
                        status VARCHAR NOT NULL, weight_kg DECIMAL(8,2) NOT NULL);
INSERT INTO staff VALUES (1, 'Ada Byron', 'Doctor', 'North'), (2, 'Bo Chen', 'Master', 'South'),
                         (3, 'Cy Dorn', 'Bachelor', 'North'), (4, 'Di Eve', 'Doctor', 'South');
INSERT INTO shipments VALUES (1, 1, 'Delivered', 2.5), (2, 1, 'Cancelled', 1.0), (3, 2, 'Cancelled', 4.0),
                             (4, 3, 'Returned', 3.0), (5, 4, 'Delivered', 6.5);
"""

QUESTIONS = {
    "how many staff have a doctorate?": "SELECT count(*) FROM staff WHERE degree = 'Doctor'",
    "how many cancellations were there by team?":
        "SELECT s.team, count(*) FROM shipments h JOIN staff s USING (staff_id) WHERE h.status = 'Cancelled' GROUP BY 1",
    "total weight of returns": "SELECT sum(weight_kg) FROM shipments WHERE status = 'Returned'",
}


@pytest.fixture(scope="module")
def depot(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("derived"), "depot", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_derived_word_reaches_the_value_it_comes_from(depot, question):
    assert_reads_as(depot, question, QUESTIONS[question])


def test_a_word_with_no_stem_in_the_data_is_asked_about(depot):
    read = extract_intent("how many staff hold a professorship?", depot.semantic, depot.values)
    assert read.intent is None or read.confidence < 0.5 or "professorship" in (read.reason or ""), read


def test_a_value_said_with_its_column_after_an_apostrophe_s_measures_nothing_more(depot):
    """"a master's degree": the value Master, of the degree column; 'degree' is not a second measure."""
    read = extract_intent("how many staff have a master's degree?", depot.semantic, depot.values)
    assert read.intent is not None, read.reason
    assert len(read.intent.metrics) == 1 and [(f.field, f.values) for f in read.intent.filters] == [("degree", ["Master"])]
