"""A text column whose values are lists ('Chicken, Garlic, Basil'): a question naming one item means the
rows whose list holds it ('recipes with garlic', 'which recipes contain basil and garlic': both); a whole
value of another column said the same way wins ('chicken recipes': the category); 'without garlic' has no
filter that says it, so it is asked about, never dropped."""

from __future__ import annotations

import pytest

from agent.groundwork import build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compiler import compile_intent
from agent.semantic.extract import extract_intent
from tests.support.duck_files import duckdb_file
from tests.warehouse.conftest import server_settings

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
    folder = tmp_path_factory.mktemp("lists")
    path = duckdb_file(folder, "kitchen", SCHEMA)
    work = build_groundwork(server_settings(folder, f"duckdb:///{path}"))
    yield work
    work.warehouse.close()


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_an_item_of_a_list_column_is_a_contains_filter(kitchen, question):
    read = extract_intent(question, kitchen.semantic, kitchen.values)
    assert read.intent is not None, read.reason
    got = kitchen.warehouse.run(compile_intent(read.intent, kitchen.semantic).sql)
    want = kitchen.warehouse.run(QUESTIONS[question])
    got_rows = [row[:len(want.columns)] for row in got.rows]
    assert rows_match(want.columns, want.rows, want.columns, got_rows, ordered=False), (question, got.rows, want.rows)


def test_an_item_said_missing_is_asked_about(kitchen):
    read = extract_intent("how many recipes have no garlic?", kitchen.semantic, kitchen.values)
    assert read.intent is None, read.intent
