"""'Who had the best … in each season?' asks for one person per group: the name of the only table whose rows
are people, ranked within each group, the group taken by way of that person when the rows reach it two
ways; 'which player … in each season' ranks within each season too, never once over all of them."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE players (player_id INTEGER PRIMARY KEY, player_name VARCHAR NOT NULL, first_name VARCHAR NOT NULL,
                      last_name VARCHAR NOT NULL, age INTEGER NOT NULL, season INTEGER NOT NULL);
CREATE TABLE games (game_id INTEGER PRIMARY KEY, season INTEGER NOT NULL, venue VARCHAR NOT NULL);
CREATE TABLE scores (score_id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games (game_id),
                     player_id INTEGER NOT NULL REFERENCES players (player_id), points INTEGER NOT NULL);
INSERT INTO players VALUES (1, 'Ann', 'Ann', 'Lee', 30, 1), (2, 'Bob', 'Bob', 'Ray', 41, 1),
                           (3, 'Cat', 'Cat', 'Oak', 25, 2), (4, 'Dan', 'Dan', 'Fir', 35, 2);
INSERT INTO games VALUES (1, 1, 'Hall'), (2, 1, 'Park'), (3, 2, 'Hall'), (4, 2, 'Park');
INSERT INTO scores VALUES (1, 1, 1, 10), (2, 2, 1, 6), (3, 1, 2, 9), (4, 2, 2, 9),
                          (5, 3, 3, 4), (6, 4, 3, 5), (7, 3, 4, 7), (8, 4, 4, 1);
"""
BEST_PER_SEASON = """
SELECT season, player_name FROM (
  SELECT p.season, p.player_name, ROW_NUMBER() OVER (PARTITION BY p.season ORDER BY avg(s.points) DESC) AS rn
  FROM scores s JOIN players p USING (player_id) GROUP BY p.player_id, p.season, p.player_name) WHERE rn = 1
"""


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("who_each"), "league", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", [
    "who had the highest average points in each season?",
    "which player had the highest average points in each season?",
])
def test_one_person_per_season(league, question):
    assert_reads_as(league, question, BEST_PER_SEASON, leading=True)


def test_a_list_by_a_number_column_stays_a_list(league):
    # 'season' is a number column; said after 'each' it groups the list, it is not a measure
    assert_reads_as(league, "list the players of each season",
                    "SELECT player_name, season FROM players", leading=True)
