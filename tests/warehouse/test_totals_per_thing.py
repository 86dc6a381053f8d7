"""'Average order value' over a warehouse read with its URL alone: the lines' amount (a unit price times a
quantity, kept on the lines) added up per order, not the average line; 'total order value' is the total."""

from __future__ import annotations

import pytest

from agent.bootstrap import build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from agent.semantic.compile.reading import describe
from tests.support.duck_files import duckdb_file
from tests.warehouse.conftest import server_settings

SCHEMA = """
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, ordered_on DATE NOT NULL);
CREATE TABLE order_lines (line_id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders (order_id),
                          unit_price DECIMAL(8, 2) NOT NULL, quantity INTEGER NOT NULL, flavour VARCHAR NOT NULL);
INSERT INTO orders VALUES (1, DATE '2024-01-05'), (2, DATE '2024-01-20'), (3, DATE '2024-02-02');
INSERT INTO order_lines VALUES (10, 1, 5.00, 2, 'Chicken'), (11, 1, 1.00, 1, 'Veggie'), (12, 1, 2.00, 1, 'Chicken'),
                               (13, 2, 20.00, 1, 'Veggie'), (14, 3, 3.00, 3, 'Chicken');
"""

QUESTIONS = {
    # (10 + 1 + 2) + 20 + 9 = 42 over 3 orders; the average line would be 42 / 5
    "what's our average order value?": "SELECT sum(unit_price * quantity) / count(DISTINCT order_id) FROM order_lines",
    "average order revenue by month": "SELECT CAST(date_trunc('month', o.ordered_on) AS DATE), sum(l.unit_price * l.quantity) "
                                      "/ count(DISTINCT l.order_id) FROM order_lines l JOIN orders o USING (order_id) "
                                      "GROUP BY 1",
    "total order value": "SELECT sum(unit_price * quantity) FROM order_lines",
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    folder = tmp_path_factory.mktemp("totals")
    path = duckdb_file(folder, "shop", SCHEMA)
    work = build_groundwork(server_settings(folder, f"duckdb:///{path}"))
    yield work
    work.warehouse.close()


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_total_per_thing_is_the_total_over_how_many_things(shop, question):
    read = extract_intent(question, shop.semantic, shop.values)
    assert read.intent is not None, read.reason
    got = shop.warehouse.run(compile_intent(read.intent, shop.semantic).sql)
    want = shop.warehouse.run(QUESTIONS[question])
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (question, got.rows, want.rows)


def test_the_reading_says_what_is_divided_by_what(shop):
    read = extract_intent("what's our average order value?", shop.semantic, shop.values)
    assert read.intent is not None
    line = describe(read.intent, shop.semantic)
    assert " / " in line and "sum()" not in line


def test_an_average_of_a_things_own_measure_stays_an_average(shop):
    read = extract_intent("average order line quantity", shop.semantic, shop.values)
    assert read.intent is not None and not read.intent.definitions, read.reason


def test_at_least_one_of_a_valued_thing_is_the_rows_the_value_says(shop):
    """'orders that had at least one chicken order line': the orders among the chicken lines (orders 1 and 3
    of 3), as 'a chicken order line' would be; asked in percent, in percent; 'them' is no word left unused."""
    read = extract_intent("what % of orders had at least one chicken order line in them?", shop.semantic, shop.values)
    assert read.intent is not None, read.reason
    assert "them" not in read.ignored_words
    got = shop.warehouse.run(compile_intent(read.intent, shop.semantic).sql)
    assert [round(float(v), 6) for v in got.rows[0]] == [round(200 / 3, 6)]
