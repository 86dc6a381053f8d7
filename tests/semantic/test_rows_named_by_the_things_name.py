"""A column named as its table's thing ('promo_code' of promo_codes) names the rows: 'top 2 promo codes' lists
the codes, not their keys, though the table's entity is called 'promo_code' too; and things said after
'any' ('usable on any ride') are never counted."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE promo_codes (promo_code_id INTEGER PRIMARY KEY, promo_code VARCHAR NOT NULL UNIQUE,
                          description VARCHAR NOT NULL);
CREATE TABLE rides (ride_id INTEGER PRIMARY KEY, promo_code_id INTEGER REFERENCES promo_codes (promo_code_id),
                    discount_usd DECIMAL(8, 2) NOT NULL, ridden_on DATE NOT NULL);
INSERT INTO promo_codes VALUES (1, 'WELCOME10', 'ten percent off'), (2, 'FIRST5', 'five off'),
                               (3, 'SORRY5', 'an apology');
INSERT INTO rides VALUES (10, 1, 2.00, DATE '2024-01-02'), (11, 2, 5.00, DATE '2024-01-03'),
                         (12, 2, 5.00, DATE '2024-02-03'), (13, 3, 5.00, DATE '2024-02-04'),
                         (14, NULL, 0.00, DATE '2024-02-05');
"""


@pytest.fixture(scope="module")
def rides(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("thing_named"), "rides", SCHEMA) as work:
        yield work


def test_the_things_own_name_names_its_rows(rides):
    assert_reads_as(rides, "top 2 promo codes by total discount",
                    "SELECT p.promo_code, sum(r.discount_usd) FROM rides r JOIN promo_codes p USING (promo_code_id) "
                    "GROUP BY p.promo_code ORDER BY 2 DESC LIMIT 2", ordered=True)


def test_things_said_after_any_are_not_counted(rides):
    # 'usable on any ride' is no number of rides: unread, it is asked about instead of listing ride counts
    read = extract_intent("which promo codes can be used on any ride", rides.semantic, rides.values)
    assert read.intent is None and "ride" in (read.reason or "") + " ".join(read.ignored_words), read
