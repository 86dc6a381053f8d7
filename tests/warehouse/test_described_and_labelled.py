"""A word a column's description gives as its other name ('round (heat) of the contest') that another
column's label also uses ('us heat'): both are candidates, and what the question's rows can reach decides;
where both are reached, the counted rows' own column is taken, as for any word two columns share."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE entries (entry_id INTEGER PRIMARY KEY, entrant VARCHAR NOT NULL, round_number INTEGER NOT NULL);
COMMENT ON COLUMN entries.round_number IS 'round (heat) of the contest, 1-3';
CREATE TABLE screenings (screening_id INTEGER PRIMARY KEY, entry_id INTEGER NOT NULL REFERENCES entries (entry_id),
                         us_heat INTEGER NOT NULL, viewers INTEGER NOT NULL);
INSERT INTO entries VALUES (1, 'Ada', 1), (2, 'Bo', 1), (3, 'Cy', 2), (4, 'Di', 3), (5, 'Ed', 3), (6, 'Flo', 3);
INSERT INTO screenings VALUES (1, 1, 7, 10), (2, 1, 7, 20), (3, 3, 8, 5), (4, 4, 8, 7), (5, 6, 9, 3);
"""


@pytest.fixture(scope="module")
def contest(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("described"), "contest", SCHEMA) as work:
        yield work


def test_the_column_the_rows_reach_is_taken(contest):
    # entries cannot reach a screening's heat without counting an entry once per screening
    assert_reads_as(contest, "how many entries were there each heat?",
                    "SELECT round_number, count(*) FROM entries GROUP BY 1")


def test_both_reached_the_rows_own_column_is_taken(contest):
    assert_reads_as(contest, "how many screenings per heat?", "SELECT us_heat, count(*) FROM screenings GROUP BY 1")


def test_the_label_said_whole_is_that_column(contest):
    # 'us heat' is only the screenings' column: the entries screened in each, counted once each
    assert_reads_as(contest, "how many entries were there each us heat?",
                    "SELECT us_heat, count(DISTINCT entry_id) FROM screenings GROUP BY 1")
