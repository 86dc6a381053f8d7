"""A shop's warehouse read by its URL alone: a line's list price times its units after the discount is its net
sales ('revenue', and by the thesaurus 'spend'); clients named by a state's name where the column holds postal
codes; customers grouped by their whole name (and key), not a part of it; a team named by the end of its name
('the Cubs'); 'sells best' ranks by units from the top."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from agent.semantic.compile.reading import describe
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE stores (store_id INTEGER PRIMARY KEY, store_name VARCHAR NOT NULL, state VARCHAR NOT NULL);
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, first_name VARCHAR NOT NULL, last_name VARCHAR NOT NULL,
                        state VARCHAR NOT NULL);
CREATE TABLE products (product_id INTEGER PRIMARY KEY, product_name VARCHAR NOT NULL, size VARCHAR NOT NULL);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
                     store_id INTEGER NOT NULL REFERENCES stores (store_id), order_date DATE NOT NULL);
CREATE TABLE order_items (order_id INTEGER NOT NULL REFERENCES orders (order_id), item_id INTEGER NOT NULL,
                          product_id INTEGER NOT NULL REFERENCES products (product_id), quantity INTEGER NOT NULL,
                          list_price DECIMAL(8, 2) NOT NULL, discount DECIMAL(4, 2) NOT NULL,
                          PRIMARY KEY (order_id, item_id));
CREATE TABLE stocks (store_id INTEGER NOT NULL REFERENCES stores (store_id),
                     product_id INTEGER NOT NULL REFERENCES products (product_id), quantity INTEGER NOT NULL,
                     PRIMARY KEY (store_id, product_id));
INSERT INTO stores VALUES (1, 'Santa Cruz Bikes', 'CA'), (2, 'Baldwin Bikes', 'NY'), (3, 'Rowlett Bikes', 'TX');
INSERT INTO customers VALUES (1, 'Ann', 'Lee', 'TX'), (2, 'Ann', 'Ray', 'NY'), (3, 'Bob', 'Lee', 'TX'),
                             (4, 'Cat', 'Oak', 'CA');
INSERT INTO products VALUES (1, 'Trek Road', 'L'), (2, 'Trek Kids', 'S'), (3, 'Helmet', 'M');
INSERT INTO orders VALUES (1, 1, 3, DATE '2017-01-05'), (2, 2, 2, DATE '2017-02-01'), (3, 2, 2, DATE '2017-03-09'),
                          (4, 3, 3, DATE '2017-03-10'), (5, 4, 1, DATE '2017-04-02');
INSERT INTO order_items VALUES (1, 1, 1, 2, 100, 0.1), (1, 2, 3, 1, 20, 0), (2, 1, 2, 1, 50, 0.2),
                               (3, 1, 1, 1, 100, 0), (4, 1, 3, 5, 20, 0.5), (5, 1, 2, 3, 50, 0);
INSERT INTO stocks VALUES (1, 1, 0), (1, 2, 4), (1, 3, 0), (2, 1, 3), (2, 2, 0), (2, 3, 9), (3, 1, 0), (3, 2, 0),
                          (3, 3, 2);
"""

NET = "oi.quantity * oi.list_price * (1 - oi.discount)"


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("shop_words"), "shop", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("total revenue in 2017", f"SELECT sum({NET}) FROM order_items oi"),
    ("top 2 clients by spend",
     f"SELECT c.first_name || ' ' || c.last_name, sum({NET}) s FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN customers c USING (customer_id) GROUP BY c.customer_id, 1 ORDER BY s DESC LIMIT 2"),
    ("how many clients do we have in texas", "SELECT count(*) FROM customers WHERE state = 'TX'"),
])
def test_the_shops_words(shop, question, sql):
    assert_reads_as(shop, question, sql)


def test_customers_are_grouped_by_their_whole_name_and_key(shop):
    sql = ("SELECT c.first_name || ' ' || c.last_name, count(*) FROM orders o JOIN customers c USING (customer_id) "
           "GROUP BY c.customer_id, 1 HAVING count(*) > 1")
    assert_reads_as(shop, "which customers have placed more than 1 order?", sql, leading=True)


def test_sells_best_ranks_units_from_the_top(shop):
    sql = ("SELECT p.size, sum(oi.quantity) q FROM order_items oi JOIN products p USING (product_id) "
           "GROUP BY 1 ORDER BY q DESC LIMIT 1")
    assert_reads_as(shop, "which size sells best", sql, leading=True)


def test_a_name_said_by_its_end_is_that_value_and_the_reading_says_so(shop):
    read = extract_intent("how many orders did the Rowlett store get", shop.semantic, shop.values)
    assert read.intent is not None, read.reason
    assert "Rowlett Bikes, for ‘Rowlett’" in describe(read.intent, shop.semantic)
    assert_reads_as(shop, "how many orders did the Rowlett store get",
                    "SELECT count(*) FROM orders WHERE store_id = 3")


def test_an_everyday_word_in_lower_case_is_no_name_by_its_end(shop):
    # 'bikes' ends every store's name; 'cruz' begins none and ends none: neither is taken for a store
    for question in ("how many orders did the bikes store get", "how many orders did the cruz store get"):
        assert extract_intent(question, shop.semantic, shop.values).intent is None, question


@pytest.mark.parametrize(("question", "sql"), [
    ("how many products are out of stock at the Rowlett store",
     "SELECT count(*) FROM stocks WHERE quantity = 0 AND store_id = 3"),
    ("how many products are in stock in Baldwin", "SELECT count(*) FROM stocks WHERE quantity > 0 AND store_id = 2"),
])
def test_out_of_stock_is_a_quantity_of_0_where_stock_is_kept(shop, question, sql):
    # a store's stock of a product with its quantity is a table of facts, not a link between the two
    assert_reads_as(shop, question, sql, leading=True)
