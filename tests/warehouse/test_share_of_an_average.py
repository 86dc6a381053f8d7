"""Parts of an average do not add up to it, so 'what share of <rows> <measure word>' over an averaged
measure is asked back, never answered as one average divided by another."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE deliveries (delivery_id INTEGER PRIMARY KEY, courier VARCHAR NOT NULL, delay_minutes INTEGER NOT NULL);
INSERT INTO deliveries VALUES (1, 'Speedy', 5), (2, 'Speedy', 0), (3, 'Turtle', 30), (4, 'Turtle', -2), (5, 'Speedy', 12);
"""


@pytest.fixture(scope="module")
def couriers(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("share_avg"), "couriers", SCHEMA) as work:
        yield work


def test_a_share_of_an_average_is_asked(couriers):
    read = extract_intent("what share of Speedy deliveries had an average delay?", couriers.semantic, couriers.values)
    assert read.intent is None, read


def test_a_share_of_a_count_is_answered(couriers):
    assert_reads_as(couriers, "what share of deliveries were by Speedy?",
                    "SELECT avg(CASE WHEN courier = 'Speedy' THEN 1.0 ELSE 0 END) FROM deliveries")
