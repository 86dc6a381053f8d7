"""Rows with no date column (a date kept as text) asked 'per year': the reader says they carry no date, in a
sentence, instead of a reading the compiler cannot build."""

from __future__ import annotations

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import bootstrapped

SCHEMA = """
CREATE TABLE offer (offer_id INTEGER PRIMARY KEY, offer_amount DECIMAL(10, 2) NOT NULL, made_on VARCHAR NOT NULL);
INSERT INTO offer VALUES (1, 100, '1/5/2024'), (2, 250, '2/1/2024'), (3, 75, '3/9/2025');
CREATE TABLE showing (showing_id INTEGER PRIMARY KEY, shown_on DATE NOT NULL);
INSERT INTO showing VALUES (1, '2024-01-03'), (2, '2025-02-01');
"""


def test_rows_without_a_date_asked_per_year_are_said_to_have_none(tmp_path):
    with bootstrapped(tmp_path, "offers", SCHEMA) as work:
        read = extract_intent("how many offers per year", work.semantic, work.values)
        assert read.intent is None and "no date column" in (read.reason or ""), read
