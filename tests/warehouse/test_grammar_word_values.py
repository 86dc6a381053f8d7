"""Values that are grammar words: a footnote value '[a]' is never read from the article 'a', and a value
said as a verb's particle ('bakers who went out', where a result is 'OUT') is asked about, never dropped;
the same word used as a preposition ('in each round') stays grammar."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE players (player_id INTEGER PRIMARY KEY, player_name VARCHAR NOT NULL, round_number INTEGER NOT NULL);
CREATE TABLE results (result_id INTEGER PRIMARY KEY, player_id INTEGER NOT NULL REFERENCES players (player_id),
                      outcome VARCHAR NOT NULL, points INTEGER NOT NULL);
INSERT INTO players VALUES (1, 'Ann', 1), (2, 'Bob', 1), (3, 'Cat', 2);
INSERT INTO results VALUES (1, 1, 'IN', 5), (2, 1, 'OUT', 2), (3, 2, 'IN', 7), (4, 3, '[a]', 1), (5, 3, 'OUT', 3);
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("grammar_values"), "game", SCHEMA) as work:
        yield work


def test_an_article_is_not_a_footnote_value(game):
    assert not [p for p in game.values.phrases if p.words == ("a",) and not p.case_sensitive]
    assert_reads_as(game, "what is the average points of a result?", "SELECT avg(points) FROM results")


def test_a_value_said_as_a_particle_is_asked(game):
    read = extract_intent("how many players went out in each round?", game.semantic, game.values)
    assert read.intent is None and "out" in (read.reason or ""), read


def test_the_same_word_as_a_preposition_stays_grammar(game):
    assert_reads_as(game, "how many players were in each round?",
                    "SELECT round_number, count(*) FROM players GROUP BY 1")
