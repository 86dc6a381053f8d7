"""A column name several tables hold is a column of each: artists and playlists both have a `name`,
artists and listeners a `country`. A value found in one of them filters that table (not the nearest
table with a column of that name), 'which artists' groups by the artists' name, and a column named
right after 'by' groups the answer even where some other column holds a value spelt like it. A name two
artists share is asked about, one option per artist, never counted for both."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE artists (artist_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, country VARCHAR NOT NULL);
CREATE TABLE listeners (listener_id INTEGER PRIMARY KEY, username VARCHAR NOT NULL, country VARCHAR NOT NULL);
CREATE TABLE playlists (playlist_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
CREATE TABLE tracks (track_id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL REFERENCES artists (artist_id),
                     title VARCHAR NOT NULL, genre VARCHAR NOT NULL);
CREATE TABLE plays (play_id INTEGER PRIMARY KEY, listener_id INTEGER NOT NULL REFERENCES listeners (listener_id),
                    track_id INTEGER NOT NULL REFERENCES tracks (track_id),
                    playlist_id INTEGER REFERENCES playlists (playlist_id), played_at TIMESTAMP NOT NULL);
INSERT INTO artists VALUES (1, 'Aurora', 'NO'), (2, 'Lumen Drive', 'US'), (3, 'Kaya Mendes', 'BR'), (4, 'Nova', 'US'),
                           (5, 'Nova', 'GB');
INSERT INTO listeners VALUES (1, 'omar', 'US'), (2, 'lena', 'DE'), (3, 'ana', 'BR'), (4, 'tom', 'US');
INSERT INTO playlists VALUES (1, 'Chill Vibes'), (2, 'Road Trip');
INSERT INTO tracks VALUES (1, 1, 'Runaway', 'Pop'), (2, 2, 'Night Drive', 'Electronic'), (3, 3, 'Sol', 'Country'),
                          (4, 1, 'Cure', 'Pop'), (5, 4, 'Glow', 'Pop'), (6, 5, 'Tide', 'Indie');
INSERT INTO plays VALUES (1, 1, 1, 1, '2024-01-02 10:00'), (2, 2, 1, NULL, '2024-01-03 11:00'),
                         (3, 2, 2, 2, '2024-02-01 09:00'), (4, 3, 3, 1, '2024-02-05 20:00'),
                         (5, 4, 4, NULL, '2024-03-01 08:00'), (6, 1, 2, NULL, '2024-03-02 07:00'),
                         (7, 3, 3, 2, '2024-03-03 21:00'), (8, 1, 5, NULL, '2024-03-04 10:00'),
                         (9, 2, 6, NULL, '2024-03-05 10:00');
"""


@pytest.fixture(scope="module")
def music(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("shared_names"), "music", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    # 'Aurora' is an artist's name only: the plays of the artist's tracks, not of a playlist called so
    ("how many plays did aurora get", "SELECT count(*) FROM plays p JOIN tracks t USING (track_id) "
                                      "JOIN artists a USING (artist_id) WHERE a.name = 'Aurora'"),
    ("how many plays came from chill vibes", "SELECT count(*) FROM plays WHERE playlist_id = 1"),
    # the artists' own name, two joins away, though playlists (one join away) have a name too
    ("which artists had more than 2 plays",
     "SELECT a.name FROM plays p JOIN tracks t USING (track_id) JOIN artists a USING (artist_id) "
     "GROUP BY a.artist_id, a.name HAVING count(*) > 2"),
    # 'country' after 'by' is the listeners' column, though a genre is called Country
    ("listeners by country", "SELECT country, count(*) FROM listeners GROUP BY country"),
])
def test_a_shared_column_name_reads_the_table_meant(music, question, sql):
    assert_reads_as(music, question, sql, leading=True)


def test_a_value_of_every_table_holding_the_column_stays_unqualified(music):
    """'US' is a country of artists and of listeners: the plain column, read from the rows counted."""
    read = extract_intent("how many listeners in US", music.semantic, music.values)
    assert read.intent is not None, read.reason
    assert [f.field for f in read.intent.filters] == ["country"], read.intent.filters
    assert_reads_as(music, "how many listeners in US", "SELECT count(*) FROM listeners WHERE country = 'US'")


def test_a_name_several_things_share_is_asked_about_one_option_each(music):
    read = extract_intent("how many plays did nova get", music.semantic, music.values)
    assert read.intent is None and read.ambiguous, read
    assert read.ambiguous[0].options == ["artist 4", "artist 5"] and read.ambiguous[0].namesakes
    # the option picked stands in for the name: that artist alone
    assert_reads_as(music, "how many plays did artist 5 get",
                    "SELECT count(*) FROM plays JOIN tracks USING (track_id) WHERE artist_id = 5")
