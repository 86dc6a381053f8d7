"""A column the counted rows reach two ways (a sale's customer's region and its store's region): the way the
question names is taken ('… of customers by region'); said neither way, it is asked, never guessed."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, region VARCHAR NOT NULL);
CREATE TABLE stores (store_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, region VARCHAR NOT NULL);
CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
                    store_id INTEGER NOT NULL REFERENCES stores (store_id), amount DECIMAL(8,2) NOT NULL);
INSERT INTO customers VALUES (1, 'Ada', 'North'), (2, 'Bo', 'South');
INSERT INTO stores VALUES (1, 'Harbour', 'South'), (2, 'Hilltop', 'North');
INSERT INTO sales VALUES (1, 1, 1, 10), (2, 1, 1, 20), (3, 2, 2, 5), (4, 2, 1, 7);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("two_ways"), "shop", SCHEMA) as work:
        yield work


def test_the_way_the_question_names_is_taken(shop):
    assert_reads_as(shop, "total amount of customers by region",
                    "SELECT c.region, sum(s.amount) FROM sales s JOIN customers c USING (customer_id) GROUP BY 1")


def test_said_neither_way_it_is_asked(shop):
    read = extract_intent("total amount by region", shop.semantic, shop.values)
    assert read.intent is None and read.reason, read


def test_which_with_the_owner_said_asks_for_one(shop):
    # 'which customer region': the owner word stands between 'which' and the grouping; one region is asked for
    assert_reads_as(shop, "which customer region had the highest total amount?",
                    "SELECT c.region, sum(s.amount) FROM sales s JOIN customers c USING (customer_id) "
                    "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")
