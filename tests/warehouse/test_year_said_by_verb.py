"""'released in 1995', 'released each year', 'comedies released before 1990': a verb naming a year column
('release_year') puts the calendar's years and the yearly grouping on that column, whichever rows are
measured; a rating's own date is not its film's release, and 'ratings per year' stays the ratings' dates."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE films (film_id INTEGER PRIMARY KEY, title VARCHAR NOT NULL, release_year INTEGER NOT NULL);
CREATE TABLE reviews (review_id INTEGER PRIMARY KEY, film_id INTEGER NOT NULL REFERENCES films (film_id),
                      score INTEGER NOT NULL, reviewed_at TIMESTAMP NOT NULL);
INSERT INTO films VALUES (1, 'Alpha', 1985), (2, 'Beta', 1995), (3, 'Gamma', 1995), (4, 'Delta', 2005);
INSERT INTO reviews VALUES (1, 1, 4, '2001-03-01'), (2, 1, 2, '2002-05-01'), (3, 2, 5, '2001-07-01'),
                           (4, 3, 3, '2005-01-01'), (5, 4, 1, '2006-02-01'), (6, 4, 5, '2006-03-01');
"""


@pytest.fixture(scope="module")
def cinema(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("year_verb"), "cinema", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("average score of films released before 1990",
     "SELECT avg(score) FROM reviews JOIN films USING (film_id) WHERE release_year < 1990"),
    ("how many films were released each year", "SELECT release_year, count(*) FROM films GROUP BY 1"),
    ("how many films were released in 1995", "SELECT count(*) FROM films WHERE release_year = 1995"),
    ("how many reviews per year", "SELECT year(reviewed_at), count(*) FROM reviews GROUP BY 1"),
])
def test_the_year_the_verb_names(cinema, question, sql):
    assert_reads_as(cinema, question, sql)


def test_a_label_said_the_other_way_round(cinema):
    # 'year of release' is the 'release year' column, as 'date of birth' is a birth date
    assert_reads_as(cinema, "what is the average score for each year of release?",
                    "SELECT release_year, avg(score) FROM reviews JOIN films USING (film_id) GROUP BY 1")


def test_a_grain_of_a_date_is_that_date_at_that_grain(cinema):
    # 'by year of reviewed at': one grouping (the year), dated by that column; not the year and the date
    assert_reads_as(cinema, "how many reviews by year of reviewed at",
                    "SELECT year(reviewed_at), count(*) FROM reviews GROUP BY 1")
