"""'users who rated more than 2 films': the things compared are counted among the rows the verb tells of
(distinct films among the ratings), grouped by whoever did it; never the films table's own count beside
the ratings count (two tables that cannot share one query)."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE films (film_id INTEGER PRIMARY KEY, title VARCHAR NOT NULL);
CREATE TABLE reviews (review_id INTEGER PRIMARY KEY, reviewer_id INTEGER NOT NULL,
                      film_id INTEGER NOT NULL REFERENCES films (film_id), stars INTEGER NOT NULL);
INSERT INTO films VALUES (1, 'Alpha'), (2, 'Beta'), (3, 'Gamma'), (4, 'Delta');
INSERT INTO reviews VALUES (1, 10, 1, 4), (2, 10, 2, 5), (3, 10, 3, 3), (4, 10, 3, 2), (5, 11, 1, 5),
                           (6, 11, 2, 4), (7, 12, 4, 1), (8, 13, 1, 3), (9, 13, 2, 3), (10, 13, 3, 3), (11, 13, 4, 3);
"""


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("verb-counted"), "club", SCHEMA) as work:
        yield work


def test_how_many_did_it_more_than_n_times(club):
    assert_reads_as(club, "how many reviewers reviewed more than 2 films?",
                    "SELECT count(*) FROM (SELECT reviewer_id FROM reviews GROUP BY 1 "
                    "HAVING count(DISTINCT film_id) > 2)")


def test_which_did_it_more_than_n_times(club):
    assert_reads_as(club, "which reviewers reviewed more than 2 films?",
                    "SELECT reviewer_id FROM reviews GROUP BY 1 HAVING count(DISTINCT film_id) > 2", leading=True)
