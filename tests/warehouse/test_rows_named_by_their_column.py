"""A table and its column said with one word ('ratings' rows, each with a 'rating'): 'how many ratings were
above 4' counts those rows, never the model's default count; 'ratings of 5', 'ratings that are 5' and
'a 5-star rating' are that column equal to the number."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent

SCHEMA = """
CREATE TABLE movies (movie_id INTEGER PRIMARY KEY, title VARCHAR NOT NULL, release_year INTEGER NOT NULL);
CREATE TABLE ratings (user_id INTEGER NOT NULL, movie_id INTEGER NOT NULL REFERENCES movies (movie_id),
                      rating DECIMAL(2,1) NOT NULL, rated_on DATE NOT NULL);
INSERT INTO movies VALUES (1, 'Alpha', 1999), (2, 'Beta', 2004), (3, 'Gamma', 2010);
INSERT INTO ratings VALUES (1, 1, 5.0, '2015-01-02'), (1, 2, 3.5, '2015-02-02'), (2, 1, 4.5, '2015-03-02'),
                           (2, 3, 5.0, '2016-01-02'), (3, 2, 2.0, '2016-02-02'), (3, 3, 4.0, '2016-03-02');
"""

QUESTIONS = {
    "how many ratings were above 4?": "SELECT count(*) FROM ratings WHERE rating > 4",
    "how many ratings are 5?": "SELECT count(*) FROM ratings WHERE rating = 5",
    "how many ratings of 5 are there?": "SELECT count(*) FROM ratings WHERE rating = 5",
    "how many users gave a 5-star rating?": "SELECT count(DISTINCT user_id) FROM ratings WHERE rating = 5",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("rated"), "rated", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_the_rows_a_compared_column_names_are_counted(site, question):
    assert_reads_as(site, question, QUESTIONS[question])


@pytest.mark.parametrize("question, want", [
    ("what is the oldest movie?", "SELECT title FROM movies ORDER BY release_year LIMIT 1"),
    ("the 2 newest movies", "SELECT title FROM movies ORDER BY release_year DESC LIMIT 2"),
])
def test_a_year_ranks_things_by_how_old_they_are(site, question, want):
    """A column kept for grouping (a release year) ranks things by its own least or most, never averaged."""
    read = extract_intent(question, site.semantic, site.values)
    assert read.intent is not None, read.reason
    got = site.warehouse.run(compile_intent(read.intent, site.semantic).sql)
    expected = site.warehouse.run(want)
    names = [row[:1] for row in got.rows]
    assert rows_match(expected.columns, expected.rows, expected.columns, names, ordered=True), got.rows


def test_how_many_of_a_column_that_counts_things_adds_it_up(tmp_path):
    """'how many goals did the home side score in round 2': a column counting things (its label a plural
    noun) is added up, never averaged."""
    schema = """
    CREATE TABLE matches (match_id INTEGER PRIMARY KEY, round_number INTEGER NOT NULL, home_goals INTEGER NOT NULL);
    INSERT INTO matches VALUES (1, 1, 2), (2, 2, 1), (3, 2, 3), (4, 3, 0);
    """
    with bootstrapped(tmp_path, "league", schema) as work:
        assert_reads_as(work, "how many home goals were there in round 2?", "SELECT 4.0")
