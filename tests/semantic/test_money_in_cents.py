"""Money a warehouse keeps in cents is measured in dollars, as people say money; lines the warehouse marks
void are left out of what was sold, as test rows are. On a small shop bootstrapped from its schema alone."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE shop_sales (sale_id INTEGER PRIMARY KEY, sold_on DATE NOT NULL, item VARCHAR NOT NULL,
                         qty INTEGER NOT NULL, unit_price_cents INTEGER NOT NULL, tip_amt INTEGER NOT NULL,
                         is_void BOOLEAN NOT NULL);
COMMENT ON COLUMN shop_sales.tip_amt IS 'tip left by the customer, in cents';
COMMENT ON COLUMN shop_sales.is_void IS 'true = line voided at the till (not a sale)';
INSERT INTO shop_sales VALUES (1, DATE '2024-01-05', 'Mug', 2, 1250, 100, false),
    (2, DATE '2024-01-06', 'Tote', 1, 1999, 0, false), (3, DATE '2024-02-01', 'Mug', 1, 1250, 250, true),
    (4, DATE '2024-02-02', 'Poster', 3, 800, 50, false);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("cents"), "shop", SCHEMA) as work:
        yield work


def test_an_amount_named_in_cents_is_measured_in_dollars(shop):
    assert_reads_as(shop, "average unit price", "SELECT avg(unit_price_cents) / 100.0 FROM shop_sales WHERE NOT is_void")


def test_an_amount_its_comment_says_is_in_cents_is_measured_in_dollars(shop):
    assert_reads_as(shop, "total tip amount", "SELECT sum(tip_amt) / 100.0 FROM shop_sales WHERE NOT is_void")


def test_sales_from_a_price_in_cents_are_in_dollars_without_the_void_lines(shop):
    assert_reads_as(shop, "sales by item", "SELECT item, sum(qty * unit_price_cents) / 100.0 FROM shop_sales "
                                           "WHERE NOT is_void GROUP BY item")


def test_the_unit_asked_with_a_polite_word_after_it_is_read(shop):
    # 'in dollars pls': the unit the answer is wanted in, which the measure is kept in; 'pls' asks nothing
    assert_reads_as(shop, "sales by item in dollars pls", "SELECT item, sum(qty * unit_price_cents) / 100.0 "
                                                          "FROM shop_sales WHERE NOT is_void GROUP BY item")
