"""No measure named and a grouping the default metric's rows cannot take without counting a row twice
('the most popular pizza size': an order holds several sizes): the default's things are counted where
the grouping is (orders with order lines of each size), never refused and never double counted."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, ordered_at TIMESTAMP NOT NULL);
CREATE TABLE pizzas (pizza_id INTEGER PRIMARY KEY, size VARCHAR NOT NULL, price DOUBLE NOT NULL);
CREATE TABLE sales_lines (line_id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders (order_id),
                          pizza_id INTEGER NOT NULL REFERENCES pizzas (pizza_id), quantity INTEGER NOT NULL);
INSERT INTO orders VALUES (1, '2024-01-01 12:00'), (2, '2024-01-02 13:00'), (3, '2024-01-03 18:00');
INSERT INTO pizzas VALUES (1, 'S', 9.0), (2, 'M', 11.0), (3, 'L', 14.0);
INSERT INTO sales_lines VALUES (1, 1, 3, 1), (2, 1, 3, 2), (3, 1, 1, 1), (4, 2, 3, 1), (5, 3, 2, 1);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("popular"), "shop", SCHEMA) as work:
        yield work


def test_the_default_is_counted_where_the_grouping_is(shop):
    assert shop.semantic.default_metric == "orders_count"
    assert_reads_as(shop, "what is the most popular pizza size?",
                    "SELECT p.size, count(DISTINCT l.order_id) FROM sales_lines l JOIN pizzas p USING (pizza_id) "
                    "GROUP BY 1 ORDER BY 2 DESC LIMIT 1", leading=True)  # 'the most popular size': one
