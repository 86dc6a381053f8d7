"""Rows with no date of their own that belong to one dated row (a fare of a trip) are dated by it: 'in 2024'
means trips requested in 2024. Not a thing other rows point at (a product of a supplier), not a figure kept
per period of its own (a line's usage per month), and never by a date that describes a thing (a birth date).
An aggregation said in short ('avg fare') picks that aggregation of a measure kept in cents."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE trips (trip_id INTEGER PRIMARY KEY, city VARCHAR NOT NULL, requested_at DATE NOT NULL);
CREATE TABLE fares (fare_id INTEGER PRIMARY KEY, trip_id INTEGER NOT NULL REFERENCES trips (trip_id),
                    fare_cents INTEGER NOT NULL);
COMMENT ON COLUMN fares.fare_cents IS 'fare charged, in cents';
CREATE TABLE suppliers (supplier_id INTEGER PRIMARY KEY, supplier_name VARCHAR NOT NULL, signed_on DATE NOT NULL);
CREATE TABLE products (product_id INTEGER PRIMARY KEY, supplier_id INTEGER NOT NULL REFERENCES suppliers (supplier_id),
                       product_name VARCHAR NOT NULL);
CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products (product_id),
                    sold_on DATE NOT NULL);
CREATE TABLE members (member_id INTEGER PRIMARY KEY, member_name VARCHAR NOT NULL, birth_date DATE NOT NULL);
CREATE TABLE member_usage (member_id INTEGER NOT NULL REFERENCES members (member_id), usage_month INTEGER NOT NULL,
                           data_kb BIGINT NOT NULL, PRIMARY KEY (member_id, usage_month));
INSERT INTO trips VALUES (1, 'Austin', DATE '2023-12-30'), (2, 'Austin', DATE '2024-01-04'),
                         (3, 'Boston', DATE '2024-02-10'), (4, 'Boston', DATE '2024-03-01');
INSERT INTO fares VALUES (10, 1, 1000), (11, 2, 2000), (12, 3, 3000), (13, 4, 5000), (14, 4, 500);
INSERT INTO suppliers VALUES (1, 'North', DATE '2020-05-01'), (2, 'South', DATE '2024-06-01');
INSERT INTO products VALUES (100, 1, 'lamp'), (101, 2, 'mug');
INSERT INTO sales VALUES (1000, 100, DATE '2024-01-02'), (1001, 101, DATE '2024-07-02');
INSERT INTO members VALUES (1, 'Ada', DATE '1990-05-01'), (2, 'Alan', DATE '2001-05-09');
INSERT INTO member_usage VALUES (1, 202405, 100), (2, 202405, 300), (1, 202406, 50);
"""


@pytest.fixture(scope="module")
def rides(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("dated_by_parent"), "rides", SCHEMA) as work:
        yield work


def _dated_by(rides, table: str) -> str | None:
    return rides.semantic.table_by_name[table].agg_time


def test_rows_that_belong_to_one_dated_row_are_dated_by_it(rides):
    assert _dated_by(rides, "fares") == "trip__requested_at"
    assert_reads_as(rides, "total fare in 2024", "SELECT sum(f.fare_cents) / 100.0 FROM fares f "
                                                 "JOIN trips t USING (trip_id) WHERE year(t.requested_at) = 2024")


def test_things_other_rows_point_at_are_not_dated_by_what_they_point_at(rides):
    assert _dated_by(rides, "products") is None


def test_a_figure_kept_per_period_and_a_birth_date_never_date_rows(rides):
    assert _dated_by(rides, "member_usage") is None


def test_an_aggregation_said_short_picks_it_for_a_measure_in_cents(rides):
    assert_reads_as(rides, "avg fare by city", "SELECT t.city, avg(f.fare_cents) / 100.0 FROM fares f "
                                               "JOIN trips t USING (trip_id) GROUP BY t.city")
    read = extract_intent("avg fare", rides.semantic, rides.values)
    assert read.intent is not None and read.ignored_words == []
