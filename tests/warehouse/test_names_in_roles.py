"""A name found in several name columns ('Nadiya': a baker's name and first name, a series' winner name)
names the thing whose own name column holds it; the others name it in a role. A verb after a name ('did
Nadiya make') is how the rows came to be, read as such and not reported as a word left unused. 'won at
least 2 technicals' compares the column whose label says it in other forms ('technical wins')."""

from __future__ import annotations

import pytest

from agent.bootstrap import build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from tests.support.duck_files import duckdb_file
from tests.warehouse.conftest import server_settings

SCHEMA = """
CREATE TABLE series (series_id INTEGER PRIMARY KEY, winner_name VARCHAR NOT NULL);
CREATE TABLE bakers (baker_id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL REFERENCES series (series_id),
                     baker_name VARCHAR NOT NULL, first_name VARCHAR NOT NULL, technical_wins INTEGER NOT NULL);
CREATE TABLE challenges (challenge_id INTEGER PRIMARY KEY, baker_id INTEGER NOT NULL REFERENCES bakers (baker_id),
                         showstopper VARCHAR NOT NULL, technical_rank INTEGER NOT NULL);
INSERT INTO series VALUES (1, 'Nadiya'), (2, 'Candice');
INSERT INTO bakers VALUES (1, 1, 'Nadiya', 'Nadiya', 2), (2, 1, 'Tamal', 'Tamal', 0), (3, 2, 'Candice', 'Candice', 3);
INSERT INTO challenges VALUES (1, 1, 'Box of Fortunes', 1), (2, 1, 'Fizzy Pop Cheesecakes', 3), (3, 2, 'Pork Pie', 2),
                              (4, 3, 'Pub Cake', 5);
CREATE TABLE episodes (episode_id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL REFERENCES series (series_id),
                       star_bakers INTEGER NOT NULL);
INSERT INTO episodes VALUES (1, 1, 1), (2, 1, 0), (3, 1, 2), (4, 2, 1);
"""


@pytest.fixture(scope="module")
def show(tmp_path_factory):
    folder = tmp_path_factory.mktemp("roles")
    path = duckdb_file(folder, "show", SCHEMA)
    work = build_groundwork(server_settings(folder, f"duckdb:///{path}"))
    yield work
    work.warehouse.close()


def test_a_name_in_several_name_columns_names_the_thing_itself(show):
    read = extract_intent("what showstoppers did Nadiya make?", show.semantic, show.values)
    assert read.intent is not None, read.reason
    assert [f.field for f in read.intent.filters] == ["baker_name"]
    assert "make" not in read.ignored_words
    got = show.warehouse.run(compile_intent(read.intent, show.semantic).sql)
    want = show.warehouse.run("SELECT showstopper FROM challenges JOIN bakers USING (baker_id) "
                              "WHERE baker_name = 'Nadiya'")
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), got.rows


def test_a_name_and_a_first_name_of_the_same_rows_is_the_name(show):
    # 'Tamal' is a baker's name and first name (no winner): the bakers' own name column, not asked back
    read = extract_intent("how many challenges did Tamal make", show.semantic, show.values)
    assert read.intent is not None and [f.field for f in read.intent.filters] == ["baker_name"], read.reason


@pytest.mark.parametrize("question, op", [("which bakers won at least 2 technicals?", ">="),
                                          ("how many bakers won more than 2 technicals", ">")])
def test_a_column_said_in_other_forms_of_its_words_is_compared(show, question, op):
    """'won … technicals' are the words of 'technical wins' in other forms (a verb and a plural)."""
    read = extract_intent(question, show.semantic, show.values)
    assert read.intent is not None, read.reason
    assert [(f.field, f.op) for f in read.intent.filters] == [("technical_wins", op)]


@pytest.mark.parametrize("question, want", [("how many episodes had no star baker", [(1,)]),
                                            ("what percent of episodes had no star baker?", [(25.0,)]),
                                            ("what share of episodes had no star baker?", [(0.25,)])])
def test_no_of_a_column_counting_things_is_a_count_of_zero(show, question, want):
    """'had no star baker': the episodes' own count of star bakers is 0 (the label ends in a plural noun);
    asked in percent, the share is in percent, as asked; a share stays a fraction."""
    read = extract_intent(question, show.semantic, show.values)
    assert read.intent is not None, read.reason
    got = show.warehouse.run(compile_intent(read.intent, show.semantic).sql)
    assert [tuple(float(v) for v in row) for row in got.rows] == [tuple(float(v) for v in row) for row in want]


def test_an_average_asked_of_a_rank_is_defined_by_the_question(show):
    """A rank is kept for grouping, not measured; 'average technical rank' asks its average all the same."""
    read = extract_intent("average technical rank by baker name", show.semantic, show.values)
    assert read.intent is not None, read.reason
    assert [d.agg for d in read.intent.definitions] == ["average"]
    rows = show.warehouse.run(compile_intent(read.intent, show.semantic).sql).rows
    assert sorted((r[0], float(r[-1])) for r in rows) == [("Candice", 5.0), ("Nadiya", 2.0), ("Tamal", 2.0)]
    total = extract_intent("total technical rank by baker name", show.semantic, show.values)
    assert total.intent is None  # a total of a rank means nothing: still asked back


TWO_WAYS = """
CREATE TABLE seasons (season_id INTEGER PRIMARY KEY, season_name VARCHAR NOT NULL);
CREATE TABLE cooks (cook_id INTEGER PRIMARY KEY, season_id INTEGER NOT NULL REFERENCES seasons (season_id),
                    cook_name VARCHAR NOT NULL);
CREATE TABLE shows (show_id INTEGER PRIMARY KEY, season_id INTEGER NOT NULL REFERENCES seasons (season_id));
CREATE TABLE dishes (dish_id INTEGER PRIMARY KEY, cook_id INTEGER NOT NULL REFERENCES cooks (cook_id),
                     show_id INTEGER NOT NULL REFERENCES shows (show_id));
INSERT INTO seasons VALUES (1, 'Spring'), (2, 'Autumn');
INSERT INTO cooks VALUES (1, 1, 'Ada'), (2, 2, 'Bo');
INSERT INTO shows VALUES (1, 1), (2, 2);
INSERT INTO dishes VALUES (1, 1, 1), (2, 2, 2), (3, 1, 1);
"""


def test_a_grouping_reached_two_ways_is_asked_not_an_error(tmp_path):
    """Dishes reach a season through their cook and through their show: the reader says so (no compile error)."""
    path = duckdb_file(tmp_path, "kitchen", TWO_WAYS)
    work = build_groundwork(server_settings(tmp_path, f"duckdb:///{path}"))
    try:
        read = extract_intent("number of dishes by season name", work.semantic, work.values)
        assert read.intent is None and read.reason is not None and "two ways" in read.reason, read
    finally:
        work.warehouse.close()


NUMBERED = """
CREATE TABLE episodes (episode_id INTEGER PRIMARY KEY, series_number INTEGER NOT NULL, title VARCHAR NOT NULL);
CREATE TABLE challenges (challenge_id INTEGER PRIMARY KEY, episode_id INTEGER NOT NULL REFERENCES episodes (episode_id),
                         bake VARCHAR NOT NULL);
INSERT INTO episodes VALUES (1, 1, 'Cake'), (2, 1, 'Bread'), (3, 2, 'Cake');
INSERT INTO challenges VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'c'), (4, 3, 'd');
"""


def test_a_thing_before_a_number_naming_another_is_its_owner_not_a_grouping(tmp_path):
    """'challenges by episode series number': the episode's series, never a grouping by episode with the
    series number dropped."""
    path = duckdb_file(tmp_path, "show", NUMBERED)
    work = build_groundwork(server_settings(tmp_path, f"duckdb:///{path}"))
    try:
        read = extract_intent("number of challenges by episode series number", work.semantic, work.values)
        assert read.intent is not None, read.reason
        rows = work.warehouse.run(compile_intent(read.intent, work.semantic).sql).rows
        assert sorted(tuple(int(v) for v in r) for r in rows) == [(1, 3), (2, 1)]
    finally:
        work.warehouse.close()
