"""'older than 50', 'cheaper than 10': a comparative of a measure adjective (thesaurus `measure_adjectives:`)
followed by 'than' and a number compares that measure, above for the high side's words and below for the
low side's; a list stays a list ('list members younger than 30')."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE members (member_id INTEGER PRIMARY KEY, member_name VARCHAR NOT NULL, age INTEGER NOT NULL);
CREATE TABLE products (product_id INTEGER PRIMARY KEY, product_name VARCHAR NOT NULL, price DECIMAL(6,2) NOT NULL);
INSERT INTO members VALUES (1, 'Ann', 25), (2, 'Bob', 51), (3, 'Cat', 64), (4, 'Dan', 29), (5, 'Eve', 50);
INSERT INTO products VALUES (1, 'Tea', 4.5), (2, 'Cake', 12), (3, 'Pie', 9.99), (4, 'Jam', 10);
"""


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("comparatives"), "club", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("how many members are older than 50?", "SELECT count(*) FROM members WHERE age > 50"),
    ("how many members are younger than 30?", "SELECT count(*) FROM members WHERE age < 30"),
    ("how many products are cheaper than 10?", "SELECT count(*) FROM products WHERE price < 10"),
    ("how many products are pricier than 5?", "SELECT count(*) FROM products WHERE price > 5"),
    # the measure's own name between the comparison and its number
    ("how many members are older than age 50?", "SELECT count(*) FROM members WHERE age > 50"),
    ("how many products are more than price 9?", "SELECT count(*) FROM products WHERE price > 9"),
])
def test_the_adjective_compares_its_measure(club, question, sql):
    assert_reads_as(club, question, sql)


def test_a_list_stays_a_list(club):
    assert_reads_as(club, "list members younger than 30",
                    "SELECT member_name FROM members WHERE age < 30", leading=True)
