"""'<thing> rate by <group>' is a rate within each group: where the rows give no such rate (returns kept apart
from sales), the reader asks what it is a rate of, never answers each group's share of all the returns."""

from __future__ import annotations

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE product (product_id INTEGER PRIMARY KEY, category VARCHAR NOT NULL);
CREATE TABLE product_return (return_id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL, returned_on DATE NOT NULL);
INSERT INTO product VALUES (1, 'Shoes'), (2, 'Shirts'), (3, 'Hats');
INSERT INTO product_return VALUES (1, 1, '2024-01-02'), (2, 1, '2024-01-05'), (3, 2, '2024-02-01'), (4, 3, '2024-02-03');
"""


def test_a_rate_by_group_of_rows_with_nothing_to_be_a_rate_of_is_asked(tmp_path):
    with bootstrapped(tmp_path, "returns", SCHEMA) as work:
        read = extract_intent("whats the return rate by category", work.semantic, work.values)
        assert read.intent is None and "rate" in (read.reason or ""), read
        # the share asked in its own words is each category's part of the whole
        assert_reads_as(work, "what % of returns came from each category",
                        "SELECT category, count(*), 100.0 * count(*) / sum(count(*)) OVER () FROM product_return "
                        "JOIN product USING (product_id) GROUP BY category")
