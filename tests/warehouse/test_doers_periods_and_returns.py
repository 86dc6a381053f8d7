"""A shop's warehouse read from its URL alone, in shapes the blind sets showed: things said doing what other
rows record ('how many unique donors gave in 2024': donors with a gift), things never doing it with a verb
between ('staff who never took an order': a list), 'last year' when the data ends mid-year (the latest whole
year), and a returns table priced through the line it points at, which is never 'sales'."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, staff_name VARCHAR NOT NULL);
CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, customer_name VARCHAR NOT NULL, signed_up DATE NOT NULL);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
                     staff_id INTEGER NOT NULL REFERENCES staff (staff_id), order_date DATE NOT NULL);
CREATE TABLE order_line (order_line_id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders (order_id),
                         quantity INTEGER NOT NULL, unit_price DECIMAL(10, 2) NOT NULL);
CREATE TABLE returns (return_id INTEGER PRIMARY KEY,
                      order_line_id INTEGER NOT NULL REFERENCES order_line (order_line_id),
                      qty INTEGER NOT NULL, returned_on DATE NOT NULL);
INSERT INTO staff VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');
INSERT INTO customer VALUES (1, 'Dee', '2023-01-05'), (2, 'Eve', '2023-06-01'), (3, 'Fay', '2024-02-02');
INSERT INTO orders VALUES (1, 1, 1, '2023-03-01'), (2, 2, 1, '2024-01-10'), (3, 2, 2, '2024-11-30'),
  (4, 1, 2, '2025-02-01'), (5, 3, 1, '2025-05-20');
INSERT INTO order_line VALUES (1, 1, 2, 10), (2, 2, 1, 50), (3, 3, 3, 20), (4, 4, 1, 100), (5, 5, 2, 5);
INSERT INTO returns VALUES (1, 3, 1, '2024-12-05'), (2, 4, 1, '2025-02-10');
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("doers"), "doers_shop", SCHEMA) as work:
        yield work


def test_things_said_doing_what_other_rows_record_are_counted_among_them(shop):
    assert_reads_as(shop, "how many unique customers ordered in 2024",
                    "SELECT count(DISTINCT customer_id) FROM orders WHERE year(order_date) = 2024")


def test_things_never_doing_it_with_a_verb_between_are_listed(shop):
    assert_reads_as(shop, "staff who never took an order", "SELECT staff_name FROM staff WHERE staff_id = 3",
                    leading=True)


def test_last_year_is_the_latest_whole_year(shop):
    # the data ends in May 2025: 'last year' is 2024, not the five months of 2025
    read = extract_intent("how many orders last year", shop.semantic, shop.values)
    assert read.intent is not None and read.intent.time is not None
    assert (read.intent.time.start.isoformat(), read.intent.time.end.isoformat()) == ("2024-01-01", "2024-12-31")
    assert_reads_as(shop, "how many orders this year", "SELECT count(*) FROM orders WHERE year(order_date) = 2025")


def test_returns_priced_through_their_line_are_no_sales(shop):
    assert_reads_as(shop, "total sales", "SELECT sum(quantity * unit_price) FROM order_line")
    assert not any(m.table == "returns" and "sales" in m.label.lower() for m in shop.semantic.metrics)
