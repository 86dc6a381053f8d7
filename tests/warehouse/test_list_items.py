"""A text column whose values are lists ('Chicken, Garlic, Basil'): a question naming one item means the
rows whose list holds it ('recipes with garlic', 'which recipes contain basil and garlic': both); a whole
value of another column said the same way wins ('chicken recipes': the category); 'without garlic' has no
filter that says it, so it is asked about, never dropped."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.nlq.extract import extract_intent

SCHEMA = """
CREATE TABLE recipes (recipe_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, category VARCHAR NOT NULL,
                      ingredients VARCHAR NOT NULL);
CREATE TABLE cooked (cooked_id INTEGER PRIMARY KEY, recipe_id INTEGER NOT NULL REFERENCES recipes (recipe_id),
                     servings INTEGER NOT NULL);
INSERT INTO recipes VALUES (1, 'Roast Bird', 'Chicken', 'Chicken, Garlic, Thyme'),
                           (2, 'Green Bowl', 'Veggie', 'Spinach, Garlic, Basil'),
                           (3, 'Red Pasta', 'Veggie', 'Tomatoes, Basil'),
                           (4, 'Hot Wings', 'Chicken', 'Chicken, Chilli');
INSERT INTO cooked VALUES (1, 1, 4), (2, 2, 2), (3, 2, 3), (4, 3, 1), (5, 4, 6);
"""

QUESTIONS = {
    "how many recipes contain garlic?": "SELECT count(*) FROM recipes WHERE ingredients LIKE '%Garlic%'",
    "which recipes have basil and garlic?":
        "SELECT name FROM recipes WHERE ingredients LIKE '%Basil%' AND ingredients LIKE '%Garlic%'",
    "how many chicken recipes are there?": "SELECT count(*) FROM recipes WHERE category = 'Chicken'",
    "total servings of recipes with tomatoes in their ingredients":
        "SELECT sum(servings) FROM cooked JOIN recipes USING (recipe_id) WHERE ingredients LIKE '%Tomatoes%'",
}


@pytest.fixture(scope="module")
def kitchen(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("lists"), "kitchen", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_an_item_of_a_list_column_is_a_contains_filter(kitchen, question):
    assert_reads_as(kitchen, question, QUESTIONS[question], leading=True)


def test_an_item_said_missing_is_asked_about(kitchen):
    read = extract_intent("how many recipes have no garlic?", kitchen.semantic, kitchen.values)
    assert read.intent is None, read.intent
