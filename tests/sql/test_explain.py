"""Explain SQL: the plain-English text and the listed parts state the query's key facts."""

from __future__ import annotations

import pytest

from agent.errors import SqlSyntaxError
from agent.sql.explain import explain_sql


def test_top_n_per_group_reads_like_a_sentence():
    e = explain_sql(
        "SELECT dest, count(*) AS n FROM flights WHERE origin = 'JFK' "
        "GROUP BY dest ORDER BY n DESC LIMIT 5"
    )
    assert e.tables == ["flights"]
    assert e.filters == ["origin is 'JFK'"]
    assert e.grouping == ["dest"]
    assert e.aggregates == ["the number of flights (as n)"]
    assert e.limit == 5
    assert e.text == (
        "This query reads the flights table. It keeps only the rows where origin is 'JFK'. "
        "For each dest, it computes the number of flights (as n). "
        "It returns the 5 rows with the highest n."
    )


def test_filters_in_plain_words():
    e = explain_sql(
        "SELECT * FROM flights WHERE arr_delay > 120 AND dep_time IS NULL AND carrier <> 'UA' "
        "AND month BETWEEN 6 AND 8 AND dest IN ('LAX', 'SFO') AND tailnum LIKE 'N1%' "
        "AND air_time >= 60 AND distance < 500 AND arr_time IS NOT NULL"
    )
    assert e.filters == [
        "arr_delay is greater than 120",
        "dep_time is missing",
        "carrier is not 'UA'",
        "month is between 6 and 8",
        "dest is one of 'LAX', 'SFO'",
        "tailnum starts with 'N1'",
        "air_time is at least 60",
        "distance is less than 500",
        "arr_time is present",
    ]
    assert "It returns every column." in e.text


def test_or_conditions_say_either():
    e = explain_sql("SELECT dest FROM flights WHERE origin = 'JFK' OR origin = 'LGA'")
    assert e.filters == ["either origin is 'JFK' or origin is 'LGA'"]


def test_joins_name_their_kind_and_condition():
    e = explain_sql(
        "SELECT a.name, avg(f.arr_delay) AS avg_delay FROM flights f "
        "LEFT JOIN airlines a ON f.carrier = a.carrier GROUP BY a.name ORDER BY avg_delay"
    )
    assert [(j.kind, j.table, j.condition) for j in e.joins] == [
        ("left", "airlines", "flights.carrier matches airlines.carrier")
    ]
    assert "joined with airlines on flights.carrier matches airlines.carrier" in e.text
    assert "the average of flights.arr_delay (as avg_delay)" in e.text
    assert "sorted by avg_delay, lowest first" in e.text


def test_using_join_and_distinct_count():
    e = explain_sql("SELECT count(DISTINCT tailnum) FROM flights JOIN planes USING (tailnum)")
    assert e.joins[0].condition == "matching tailnum"
    assert "the number of distinct tailnum over all those rows" in e.text


def test_group_by_ordinal_and_having():
    e = explain_sql("SELECT origin, count(*) FROM flights GROUP BY 1 HAVING count(*) > 100000")
    assert e.grouping == ["origin"]
    assert e.having == ["the number of flights is greater than 100000"]
    assert "It keeps only the groups where the number of flights is greater than 100000." in e.text


def test_ctes_are_described_first():
    e = explain_sql(
        "WITH daily AS (SELECT year, month, day, count(*) AS n FROM flights GROUP BY ALL) "
        "SELECT avg(n) FROM daily"
    )
    assert e.tables == ["flights"]
    assert e.ctes == [
        (
            "daily: it reads the flights table. For each year, month and day, it computes the "
            "number of flights (as n)."
        )
    ]
    assert e.text.startswith("First it builds daily:")
    assert "Then this query reads the result of daily. It computes the average of n" in e.text


def test_subquery_in_filter_is_summarised():
    e = explain_sql(
        "SELECT name FROM airlines WHERE carrier IN (SELECT carrier FROM flights WHERE distance > 2000)"
    )
    assert e.filters == ["carrier is among the values from a subquery on flights"]
    assert e.subqueries == [
        (
            "It reads the flights table. It keeps only the rows where distance is greater than "
            "2000. It returns carrier."
        )
    ]


def test_window_function_and_union():
    window = explain_sql("SELECT tailnum, rank() OVER (PARTITION BY carrier ORDER BY distance DESC) AS r FROM flights")
    assert "the rank within each carrier ordered by distance, highest first (as r)" in window.text
    union = explain_sql("SELECT origin FROM flights UNION SELECT faa FROM airports")
    assert union.text.startswith("This query adds together the rows of two queries (duplicates removed)")


def test_column_descriptions_from_the_catalog_are_added():
    e = explain_sql(
        "SELECT avg(arr_delay) FROM flights WHERE origin = 'EWR'",
        column_descriptions={"flights.arr_delay": "the arrival delay in minutes", "weather.temp": "x"},
    )
    assert e.text.endswith("Where: arr_delay is the arrival delay in minutes.")


def test_presto_input_and_errors():
    e = explain_sql("SELECT approx_distinct(dest) FROM flights", dialect="Presto SQL")
    assert e.aggregates == ["the approximate number of distinct dest"]
    with pytest.raises(SqlSyntaxError):
        explain_sql("SELECT count(* FROM flights")


# -- issue 11 item 5: names, not ordinals; LEFT JOIN filtered on its right side; shared names ----

_DESCRIPTIONS = {
    "orders.year": "Year the order was placed",
    "orders.customer_id": "Who placed the order",
    "orders.total": "Order total in dollars",
    "customers.id": "Customer id",
    "customers.year": "Year the customer signed up",
    "customers.region": "Sales region",
}


def test_order_by_an_ordinal_names_the_column():
    e = explain_sql("SELECT region, count(*) AS n FROM customers GROUP BY 1 ORDER BY 2 DESC", dialect="duckdb")
    assert e.order == ["n, highest first"]
    assert "sorted by n" in e.text and "by 2" not in e.text


def test_order_by_an_ordinal_without_alias_names_the_expression():
    e = explain_sql("SELECT region, avg(total) FROM orders GROUP BY 1 ORDER BY 2", dialect="duckdb")
    assert "sorted by the average of total" in e.text
    top = explain_sql("SELECT region, count(*) FROM customers GROUP BY 1 ORDER BY 2 DESC LIMIT 3", dialect="duckdb")
    assert "the 3 rows with the highest number of customers" in top.text and " 2." not in top.text


def test_left_join_filtered_on_its_right_side_is_called_an_inner_join():
    e = explain_sql(
        "SELECT o.total, c.region FROM orders o LEFT JOIN customers c ON o.customer_id = c.id "
        "WHERE c.region = 'EMEA'",
        dialect="duckdb",
    )
    assert e.joins[0].kind == "left" and e.joins[0].acts_as_inner == "customers.region is 'EMEA'"
    assert "acts like an inner join" in e.text
    assert "keeping every row" not in e.text


def test_left_join_filtered_by_an_unqualified_right_side_column_is_caught():
    e = explain_sql(
        "SELECT o.total FROM orders o LEFT JOIN customers c ON o.customer_id = c.id WHERE region = 'EMEA'",
        dialect="duckdb", column_descriptions=_DESCRIPTIONS,
    )
    assert "acts like an inner join" in e.text


@pytest.mark.parametrize(
    "where",
    ["c.region IS NULL", "o.total > 10", "c.region = 'EMEA' OR c.region IS NULL", "coalesce(c.region, 'x') = 'x'"],
)
def test_left_join_whose_filter_keeps_unmatched_rows_stays_an_outer_join(where):
    e = explain_sql(
        f"SELECT o.total FROM orders o LEFT JOIN customers c ON o.customer_id = c.id WHERE {where}",
        dialect="duckdb",
    )
    assert e.joins[0].acts_as_inner is None
    assert "acts like an inner join" not in e.text and "keeping every row" in e.text


def test_right_join_filtered_on_its_left_side_is_called_an_inner_join():
    e = explain_sql(
        "SELECT c.region FROM orders o RIGHT JOIN customers c ON o.customer_id = c.id WHERE o.total > 100",
        dialect="duckdb",
    )
    assert "acts like an inner join" in e.text


def test_two_tables_sharing_a_column_name_are_never_mixed_up():
    e = explain_sql(
        "SELECT c.year AS signed_up, count(*) FROM orders o JOIN customers c ON o.customer_id = c.id "
        "WHERE o.year = 2024 GROUP BY 1",
        dialect="duckdb", column_descriptions=_DESCRIPTIONS,
    )
    assert "orders.year is 2024" in e.text
    assert "For each customers.year" in e.text
    assert "orders.year is Year the order was placed" in e.text
    assert "customers.year is Year the customer signed up" in e.text
    assert " year is " not in e.text.replace("orders.year is", "").replace("customers.year is", "")


def test_an_unqualified_column_only_one_table_has_is_named_with_its_table():
    e = explain_sql(
        "SELECT region, sum(total) FROM orders o JOIN customers c ON o.customer_id = c.id GROUP BY region",
        dialect="duckdb", column_descriptions=_DESCRIPTIONS,
    )
    assert "For each customers.region, it computes the total of orders.total" in e.text
