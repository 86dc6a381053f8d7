"""Tags on a link table (film_genres: a film in several genres), read with the URL alone: grouped by a
tag, each row counts once in each of its tags ('average rating by genre'); a filter on a tag is a
semi-join ('how many comedies'); totals across overlapping tags are never given as shares."""

from __future__ import annotations

import pytest

from agent.chatbi.meaning import describe_columns, is_additive
from agent.bootstrap import build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from tests.warehouse.conftest import server_settings
from tests.support.duck_files import duckdb_file

SCHEMA = """
CREATE TABLE films (film_id INTEGER PRIMARY KEY, title VARCHAR NOT NULL);
CREATE TABLE film_genres (film_id INTEGER NOT NULL REFERENCES films (film_id), genre VARCHAR NOT NULL,
                          PRIMARY KEY (film_id, genre));
CREATE TABLE reviews (review_id INTEGER PRIMARY KEY, film_id INTEGER NOT NULL REFERENCES films (film_id),
                      rating INTEGER NOT NULL);
INSERT INTO films VALUES (1, 'Alpha'), (2, 'Beta'), (3, 'Gamma'), (4, 'Delta');
INSERT INTO film_genres VALUES (1, 'Comedy'), (1, 'Drama'), (2, 'Comedy'), (3, 'Horror'), (4, 'Drama');
INSERT INTO reviews VALUES (10, 1, 5), (11, 1, 3), (12, 2, 3), (13, 3, 1), (14, 3, 2), (15, 4, 5), (16, 4, 4);
"""

QUESTIONS = {
    "average rating by genre": "SELECT g.genre, avg(r.rating) FROM reviews r JOIN film_genres g USING (film_id) GROUP BY 1",
    "number of films by genre": "SELECT genre, count(*) FROM film_genres GROUP BY 1",
    "how many reviews per genre": "SELECT g.genre, count(*) FROM reviews r JOIN film_genres g USING (film_id) GROUP BY 1",
    "how many comedies are there?": "SELECT count(*) FROM film_genres WHERE genre = 'Comedy'",
    "average rating of comedies": "SELECT avg(rating) FROM reviews WHERE film_id IN "
                                 "(SELECT film_id FROM film_genres WHERE genre = 'Comedy')",
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tags")
    path = duckdb_file(folder, "films", SCHEMA)
    work = build_groundwork(server_settings(folder, f"duckdb:///{path}"))
    yield work
    work.warehouse.close()


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_tags_group_and_filter_without_counting_a_row_twice_in_one_tag(shop, question):
    read = extract_intent(question, shop.semantic, shop.values)
    assert read.intent is not None, read.reason
    got = shop.warehouse.run(compile_intent(read.intent, shop.semantic).sql)
    want = shop.warehouse.run(QUESTIONS[question])
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (question, got.rows, want.rows)


def test_a_total_over_tags_is_not_additive(shop):
    read = extract_intent("number of films by genre", shop.semantic, shop.values)
    compiled = compile_intent(read.intent, shop.semantic)
    result = shop.warehouse.run(compiled.sql)
    meanings = describe_columns(compiled.sql, result.columns, semantic=shop.semantic)
    measure = result.columns[-1]
    assert not is_additive(measure, meanings[measure])  # 5 genre rows, 4 films: no '% of the total'


def test_a_tag_never_groups_a_measure_its_link_does_not_reach(shop):
    # nothing links reviews to a tag of their own: grouping them by a film title is still the film's
    read = extract_intent("average rating by title", shop.semantic, shop.values)
    assert read.intent is not None and read.intent.dimensions


def test_the_best_rated_thing_ranks_things_by_the_rows_that_point_at_them(shop):
    best = extract_intent("best rated film", shop.semantic, shop.values).intent
    assert best is not None and best.limit == 1 and best.dimensions == ["title"]
    got = shop.warehouse.run(compile_intent(best, shop.semantic).sql)
    assert got.rows[0][0] == "Delta"  # 4.5 stars on average
    per_genre = extract_intent("highest rated film in each genre", shop.semantic, shop.values).intent
    assert per_genre is not None and per_genre.limit_per == "genre" and per_genre.limit == 1
    rows = shop.warehouse.run(compile_intent(per_genre, shop.semantic).sql).rows
    assert {(r[0], r[1]) for r in rows} == {("Comedy", "Alpha"), ("Drama", "Delta"), ("Horror", "Gamma")}


@pytest.mark.parametrize("question, limit", [("which comedy has the most reviews", 1),
                                             ("top 2 most reviewed comedies", 2),
                                             ("the 2 most reviewed films", 2)])
def test_a_value_where_the_things_stand_ranks_those_things(shop, question, limit):
    """'which comedy …': the value stays a condition and the films it tags are ranked by name; 'most reviewed'
    ranks by the rows the verb names."""
    read = extract_intent(question, shop.semantic, shop.values)
    assert read.intent is not None, read.reason
    assert read.intent.dimensions == ["title"] and read.intent.limit == limit
    rows = shop.warehouse.run(compile_intent(read.intent, shop.semantic).sql).rows
    if "comed" in question:
        assert [(r[0], r[-1]) for r in rows] == [("Alpha", 2), ("Beta", 1)][:limit]
    else:  # Alpha, Gamma and Delta have two reviews each: the tie is broken by name
        assert [r[-1] for r in rows] == [2, 2]


def test_both_tags_are_each_required(shop):
    """'films that are both Comedy and Drama': Alpha alone (reviews 5 and 3); 'or' would add Beta and Delta."""
    read = extract_intent("average rating of films that are both Comedy and Drama", shop.semantic, shop.values)
    assert read.intent is not None, read.reason
    assert sorted(tuple(f.values) for f in read.intent.filters) == [("Comedy",), ("Drama",)]
    rows = shop.warehouse.run(compile_intent(read.intent, shop.semantic).sql).rows
    assert [float(v) for v in rows[0]] == [4.0]
