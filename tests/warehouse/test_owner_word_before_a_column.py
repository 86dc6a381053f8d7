"""A thing's word right before a column it reaches names whose column it is ('pizza categories': the
categories of the pizzas), not a second thing to count: 'how many pizza categories' counts the categories,
'list all pizza categories' lists them. A measure doing a verb ('revenue comes from') is read as a verb."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE pizza_types (pizza_type_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, category VARCHAR NOT NULL);
CREATE TABLE pizzas (pizza_id INTEGER PRIMARY KEY, pizza_type_id INTEGER NOT NULL REFERENCES pizza_types (pizza_type_id),
                     size VARCHAR NOT NULL, price DOUBLE NOT NULL);
INSERT INTO pizza_types VALUES (1, 'Hawaiian', 'Classic'), (2, 'Thai', 'Chicken'), (3, 'Greek', 'Classic'), (4, 'Garden', 'Veggie');
INSERT INTO pizzas VALUES (1, 1, 'S', 10), (2, 1, 'L', 14), (3, 2, 'M', 12), (4, 3, 'M', 13), (5, 4, 'L', 15);
"""


@pytest.fixture(scope="module")
def menu(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("owner-word"), "menu", SCHEMA) as work:
        yield work


def test_how_many_of_a_things_column(menu):
    assert_reads_as(menu, "how many pizza categories are there?", "SELECT count(DISTINCT category) FROM pizza_types")
    assert menu.semantic.metric_by_name["category__count_distinct"].label == "Distinct categories"


def test_list_a_things_column(menu):
    assert_reads_as(menu, "list all pizza categories", "SELECT DISTINCT category FROM pizza_types", leading=True)


def test_a_measure_doing_a_verb(menu):
    read = extract_intent("what share of total price comes from large pizzas?", menu.semantic, menu.values)
    assert read.intent is not None and "comes" not in read.ignored_words, read


@pytest.mark.parametrize("question, order", [("top 2 pizzas by price", "DESC"), ("bottom 2 pizzas by price", "ASC")])
def test_top_n_things_by_their_own_measure(menu, question, order):
    assert_reads_as(menu, question, f"SELECT pizza_id, price FROM pizzas ORDER BY price {order}, pizza_id LIMIT 2",
                    ordered=True)
