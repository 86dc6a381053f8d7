"""Reading rules on a warehouse read with its URL alone (a small DuckDB file in PascalCase):

- things grouped by their name stay apart when two share it (two films called 'Psycho'); the key
  groups the rows and is not shown;
- open-ended years ('since 2015', 'after 2015', 'before 2016'), and a number compared with a year column
  said right before it stays that column's condition;
- a yes/no column named 'IsX' is also called by X ('list every series winner' lists them, by name);
- a column's own words win over a thesaurus word another column gets ('by series' is SeriesNumber even
  when a 'UsSeason' column is a season, which the thesaurus calls a series too);
- 'how many hours …' asks for an amount in hours: a count is never the answer;
- a thing named by its number ('series 2', 'film 3') is the one with that number.
"""

from __future__ import annotations

import pytest

from agent.bootstrap import build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from tests.warehouse.conftest import server_settings
from tests.support.duck_files import duckdb_file

SCHEMA = """
CREATE TABLE Films (FilmId INTEGER PRIMARY KEY, Title VARCHAR NOT NULL, ReleaseYear INTEGER NOT NULL);
CREATE TABLE Reviews (ReviewId INTEGER PRIMARY KEY, FilmId INTEGER NOT NULL REFERENCES Films (FilmId),
                      Stars INTEGER NOT NULL, ReviewedOn DATE NOT NULL);
CREATE TABLE Contestants (ContestantId INTEGER PRIMARY KEY, ContestantName VARCHAR NOT NULL,
                          SeriesNumber INTEGER NOT NULL, UsSeason INTEGER, IsSeriesWinner BOOLEAN NOT NULL,
                          RunTimeMinutes INTEGER NOT NULL, BadgeNo VARCHAR NOT NULL, OverTime BOOLEAN NOT NULL);
CREATE TABLE Episodes (EpisodeId INTEGER PRIMARY KEY, SeriesNo INTEGER NOT NULL, WinnerName VARCHAR NOT NULL);
CREATE TABLE EpisodeRatings (EpisodeId INTEGER PRIMARY KEY REFERENCES Episodes (EpisodeId),
                             Viewers7Day DOUBLE NOT NULL, AirDate DATE NOT NULL);
INSERT INTO Episodes VALUES (1, 1, 'Ann'), (2, 1, 'Ann'), (3, 2, 'Dan');
INSERT INTO EpisodeRatings VALUES (1, 2.0, DATE '2014-08-01'), (2, 4.0, DATE '2014-08-08'), (3, 9.0, DATE '2015-08-01');
CREATE TABLE Rounds (RoundId INTEGER PRIMARY KEY, ContestantId INTEGER NOT NULL REFERENCES Contestants (ContestantId),
                     Outcome VARCHAR NOT NULL);
INSERT INTO Films VALUES (1, 'Psycho', 1960), (2, 'Psycho', 1998), (3, 'Vertigo', 1958);
INSERT INTO Reviews VALUES (10, 1, 5, DATE '2014-03-01'), (11, 1, 5, DATE '2015-06-01'), (12, 2, 2, DATE '2015-07-01'),
  (13, 2, 1, DATE '2016-01-01'), (14, 3, 4, DATE '2016-05-05'), (15, 3, 3, DATE '2017-02-02');
INSERT INTO Contestants VALUES (1, 'Ann', 1, NULL, TRUE, 30, '11', TRUE), (2, 'Bob', 1, NULL, FALSE, 45, '12', FALSE),
  (3, 'Cat', 2, 1, FALSE, 50, '14', TRUE), (4, 'Dan', 2, 1, TRUE, 20, '15', FALSE),
  (5, 'Eve', 2, 1, FALSE, 10, '16', TRUE);
INSERT INTO Rounds VALUES (1, 1, 'Round Winner'), (2, 1, 'Round Winner'), (3, 2, 'Round Winner'), (4, 3, 'Out'),
  (5, 1, 'Round Winner'), (6, 4, 'Out');
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names")
    path = duckdb_file(folder, "films", SCHEMA)
    work = build_groundwork(server_settings(folder, f"duckdb:///{path}"))
    yield work
    work.warehouse.close()


def _rows(shop, question: str):
    read = extract_intent(question, shop.semantic, shop.values)
    assert read.intent is not None, (question, read.reason)
    compiled = compile_intent(read.intent, shop.semantic)
    return read.intent, shop.warehouse.run(compiled.sql)


def _same(shop, question: str, gold: str) -> None:
    _, got = _rows(shop, question)
    want = shop.warehouse.run(gold)
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (question, got.rows, want.rows)


def test_two_things_with_one_name_stay_two_rows_and_the_key_is_not_shown(shop):
    _, got = _rows(shop, "average stars by title")
    assert sorted(row[1] for row in got.rows) == [1.5, 3.5, 5.0]  # the two Psychos are not averaged together
    assert not any(column.startswith("__") for column in got.columns)


def test_counting_names_counts_names(shop):
    _same(shop, "how many different titles are there?", "SELECT count(DISTINCT Title) FROM Films")


@pytest.mark.parametrize("question, gold", [
    ("number of reviews since 2015", "SELECT count(*) FROM Reviews WHERE year(ReviewedOn) >= 2015"),
    ("number of reviews after 2015", "SELECT count(*) FROM Reviews WHERE year(ReviewedOn) >= 2016"),
    ("number of reviews before 2016", "SELECT count(*) FROM Reviews WHERE year(ReviewedOn) <= 2015"),
    ("number of reviews per year since 2015",
     "SELECT year(ReviewedOn), count(*) FROM Reviews WHERE year(ReviewedOn) >= 2015 GROUP BY 1"),
    ("number of reviews, 2014 to 2015", "SELECT count(*) FROM Reviews WHERE year(ReviewedOn) BETWEEN 2014 AND 2015"),
])
def test_open_ended_years(shop, question, gold):
    _same(shop, question, gold)


def test_a_year_compared_with_a_year_column_is_that_column(shop):
    intent, _ = _rows(shop, "how many films have a release year before 1960?")
    assert intent.time is None or intent.time.until_year is None
    _same(shop, "how many films have a release year before 1960?", "SELECT count(*) FROM Films WHERE ReleaseYear < 1960")


def test_a_flag_named_is_x_is_called_x(shop):
    _same(shop, "list every series winner", "SELECT ContestantName FROM Contestants WHERE IsSeriesWinner")
    _same(shop, "how many series winners are there?", "SELECT count(*) FROM Contestants WHERE IsSeriesWinner")


def test_a_columns_own_word_wins_over_a_thesaurus_word(shop):
    _same(shop, "number of contestants by series",
          "SELECT SeriesNumber, count(*) FROM Contestants GROUP BY 1")


def test_how_many_hours_is_never_answered_with_a_count(shop):
    read = extract_intent("how many hours did contestants appear?", shop.semantic, shop.values)
    assert read.intent is None and "hours" in (read.reason or "")


@pytest.mark.parametrize("question, gold", [
    ("how many contestants were in series 2?", "SELECT count(*) FROM Contestants WHERE SeriesNumber = 2"),
    ("how many reviews did film 3 get?", "SELECT count(*) FROM Reviews WHERE FilmId = 3"),
])
def test_a_thing_named_by_its_number(shop, question, gold):
    _same(shop, question, gold)


def test_a_number_before_the_things_is_how_many_to_keep(shop):
    intent, _ = _rows(shop, "top 2 films by average stars")
    assert intent.limit == 2 and not intent.filters


def test_a_number_the_column_does_not_hold_is_said_missing(shop):
    _same(shop, "how many contestants have badge no 14?", "SELECT count(*) FROM Contestants WHERE BadgeNo = '14'")
    read = extract_intent("how many contestants have badge no 13?", shop.semantic, shop.values)
    assert read.intent is None and [u.text for u in read.unknown_values] == ["badge no 13"]


@pytest.mark.parametrize("question, gold", [
    ("average run time minutes of series winners vs everyone else",
     "SELECT IsSeriesWinner, avg(RunTimeMinutes) FROM Contestants GROUP BY 1"),
    ("how many times higher is the average run time minutes of series winners than everyone else?",
     "SELECT avg(RunTimeMinutes) FILTER (WHERE IsSeriesWinner) / avg(RunTimeMinutes) FILTER (WHERE NOT IsSeriesWinner) "
     "FROM Contestants"),
    ("how many times more contestants are series winners than those who aren't",
     "SELECT count(*) FILTER (WHERE IsSeriesWinner) / count(*) FILTER (WHERE NOT IsSeriesWinner) FROM Contestants"),
])
def test_a_yes_no_condition_against_everyone_else(shop, question, gold):
    _same(shop, question, gold)


def test_a_two_word_label_said_as_one_word(shop):
    # a column OverTime is labelled 'over time'; people write 'overtime'
    _same(shop, "how many contestants work overtime?", "SELECT count(*) FROM Contestants WHERE OverTime")


def test_things_counted_where_the_date_said_is(shop):
    # films have a release year, but 'reviewed in 2015' dates them by their reviews: counted there
    _same(shop, "how many films were reviewed in 2015?",
          "SELECT count(DISTINCT FilmId) FROM Reviews WHERE year(ReviewedOn) = 2015")


def test_a_name_ending_in_a_number_and_unit_said_with_them_first(shop):
    # a column Viewers7Day is 'viewers 7 day'; people say '7-day viewers'
    _same(shop, "average 7-day viewers by winner name", "SELECT e.WinnerName, avg(r.Viewers7Day) FROM EpisodeRatings r "
          "JOIN Episodes e USING (EpisodeId) GROUP BY 1")


def test_per_thing_over_rows_that_are_those_things(shop):
    # a rating row per episode: 'per episode' is the average over them, not a grouping by the winner's name
    _same(shop, "average 7-day viewers per episode", "SELECT avg(Viewers7Day) FROM EpisodeRatings")
    intent, _ = _rows(shop, "average 7-day viewers by episode")
    assert intent.dimensions != ["winner_name"]


@pytest.mark.parametrize("question", ["which contestant was round winner the most?",
                                      "which contestant was round winner most often?",
                                      "who was round winner the most times?"])  # 'who': the one the rounds point at
def test_the_most_counts_the_rows_the_condition_is_on(shop, question):
    # counting contestants grouped by contestant gives one each: the rounds that point at them are counted
    _same(shop, question, "SELECT c.ContestantName, count(*) FROM Rounds r JOIN Contestants c USING (ContestantId) "
          "WHERE r.Outcome = 'Round Winner' GROUP BY 1 ORDER BY 2 DESC LIMIT 1")
