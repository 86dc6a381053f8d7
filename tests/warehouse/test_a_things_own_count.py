"""'how many games does a player play on average?': a number column of the thing said after 'does a' ('games
played', 'number companies worked') averaged over those things; and a yes/no column told by a verb and a
bare word ('works overtime') is never read from the verb alone ('work for')."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE teams (team_id INTEGER PRIMARY KEY, team_name VARCHAR NOT NULL);
CREATE TABLE players (player_id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL REFERENCES teams (team_id),
                      first_name VARCHAR NOT NULL, last_name VARCHAR NOT NULL, games_played INTEGER NOT NULL,
                      num_clubs_worked INTEGER NOT NULL, overtime VARCHAR NOT NULL);
COMMENT ON COLUMN players.overtime IS 'Yes = the player works overtime';
INSERT INTO teams VALUES (1, 'Reds'), (2, 'Blues');
INSERT INTO players VALUES (1, 1, 'Ann', 'Lee', 10, 1, 'Yes'), (2, 1, 'Bob', 'Ray', 4, 3, 'No'),
                           (3, 2, 'Cat', 'Oak', 7, 2, 'No'), (4, 2, 'Dan', 'Fir', 3, 5, 'Yes');
"""


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("own_count"), "league", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("how many games does a player play on average?", "SELECT avg(games_played) FROM players"),
    ("how many games does a player last on average?", "SELECT avg(games_played) FROM players"),
    ("how many clubs does a player work for on average?", "SELECT avg(num_clubs_worked) FROM players"),
])
def test_the_things_own_count_averaged(league, question, sql):
    assert_reads_as(league, question, sql)
