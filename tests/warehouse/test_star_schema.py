"""A Kimball star schema read by its URL alone: tables called by the rest of their names ('fact_sales':
sales, 'dim_product': products), facts dated by the calendar row their date key points at, 'revenue'
the facts' own net amount (never less a discount it is net of already, never another table's list price
times the quantity), and returns, which undo sales, given no 'sales' of their own."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE dim_date (date_key INTEGER PRIMARY KEY, full_date DATE NOT NULL, year INTEGER NOT NULL,
                       month_num INTEGER NOT NULL);
CREATE TABLE dim_product (product_key INTEGER PRIMARY KEY, product_name VARCHAR NOT NULL, category VARCHAR NOT NULL,
                          list_price DECIMAL(8, 2) NOT NULL);
CREATE TABLE fact_sales (receipt_no VARCHAR NOT NULL, line_no INTEGER NOT NULL,
                         date_key INTEGER NOT NULL REFERENCES dim_date (date_key),
                         product_key INTEGER NOT NULL REFERENCES dim_product (product_key),
                         qty INTEGER NOT NULL, net_amount DECIMAL(10, 2) NOT NULL, discount_amount DECIMAL(10, 2) NOT NULL,
                         PRIMARY KEY (receipt_no, line_no));
CREATE TABLE fact_returns (return_line_id INTEGER PRIMARY KEY, date_key INTEGER NOT NULL REFERENCES dim_date (date_key),
                           product_key INTEGER NOT NULL REFERENCES dim_product (product_key),
                           qty_returned INTEGER NOT NULL, refund_amount DECIMAL(10, 2) NOT NULL);
INSERT INTO dim_date VALUES (20230105, '2023-01-05', 2023, 1), (20240210, '2024-02-10', 2024, 2),
                            (20240315, '2024-03-15', 2024, 3);
INSERT INTO dim_product VALUES (1, 'Runner', 'Footwear', 100), (2, 'Tee', 'Apparel', 20), (3, 'Cap', 'Apparel', 15);
INSERT INTO fact_sales VALUES ('R1', 1, 20230105, 1, 1, 90, 10), ('R2', 1, 20240210, 2, 3, 54, 6),
                              ('R2', 2, 20240210, 1, 1, 100, 0), ('R3', 1, 20240315, 3, 2, 30, 0);
INSERT INTO fact_returns VALUES (1, 20240315, 2, 1, 18);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("star"), "star", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("what was total revenue in 2024",
     "SELECT sum(net_amount) FROM fact_sales JOIN dim_date USING (date_key) WHERE year = 2024"),
    ("revenue by category", "SELECT category, sum(net_amount) FROM fact_sales JOIN dim_product USING (product_key) "
                            "GROUP BY category"),
    ("how many products do we have", "SELECT count(*) FROM dim_product"),
    # the sales as a measure are their money; counted when a count is asked
    ("sales by category", "SELECT category, sum(net_amount) FROM fact_sales JOIN dim_product USING (product_key) "
                          "GROUP BY category"),
    ("how many sales in 2024", "SELECT count(*) FROM fact_sales JOIN dim_date USING (date_key) WHERE year = 2024"),
    ("how many returns in 2024", "SELECT count(*) FROM fact_returns JOIN dim_date USING (date_key) WHERE year = 2024"),
])
def test_a_star_schema_is_asked_about_in_its_business_words(shop, question, sql):
    assert_reads_as(shop, question, sql)


def test_returns_have_no_sales_of_their_own(shop):
    returns = [m.name for m in shop.semantic.metrics if m.table == "returns"]
    assert returns and not any(name.endswith("_sales") for name in returns), returns
