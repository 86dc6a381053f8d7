"""Words for a table's rows from the thesaurus and its own description: a group's word goes to the table
called by one of the group's words alone ('song' for tracks, not for playlist tracks), and a description
saying one row is an event ('One row per stream') gives the event's verb ('streamed'); a date named by a
verb and its particle run together ('signup date') is said with the verb ('signed up')."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE tracks (track_id INTEGER PRIMARY KEY, title VARCHAR NOT NULL);
CREATE TABLE playlists (playlist_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
CREATE TABLE playlist_tracks (playlist_id INTEGER NOT NULL REFERENCES playlists (playlist_id),
                              track_id INTEGER NOT NULL REFERENCES tracks (track_id), PRIMARY KEY (playlist_id, track_id));
CREATE TABLE plays (play_id INTEGER PRIMARY KEY, track_id INTEGER NOT NULL REFERENCES tracks (track_id),
                    played_at TIMESTAMP NOT NULL);
COMMENT ON TABLE plays IS 'One row per stream of a track';
CREATE TABLE vehicles (vehicle_id INTEGER PRIMARY KEY, plate VARCHAR NOT NULL);
CREATE TABLE support_tickets (ticket_id INTEGER PRIMARY KEY, opened_on DATE NOT NULL);
INSERT INTO support_tickets VALUES (1, '2024-01-05'), (2, '2024-03-09'), (3, '2025-01-02');
CREATE TABLE listeners (listener_id INTEGER PRIMARY KEY, username VARCHAR NOT NULL, signup_date DATE NOT NULL);
INSERT INTO listeners VALUES (1, 'omar', '2023-05-01'), (2, 'lena', '2024-02-03'), (3, 'ana', '2024-07-09');
INSERT INTO tracks VALUES (1, 'Runaway'), (2, 'Night Drive'), (3, 'Sol');
INSERT INTO playlists VALUES (1, 'Chill'), (2, 'Road');
INSERT INTO playlist_tracks VALUES (1, 1), (1, 2), (2, 1), (2, 3);
INSERT INTO plays VALUES (1, 1, '2024-01-02 10:00'), (2, 1, '2024-01-03 11:00'), (3, 2, '2024-02-01 09:00');
INSERT INTO vehicles VALUES (1, 'AB-1'), (2, 'CD-2');
"""


@pytest.fixture(scope="module")
def music(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("words_for_rows"), "music", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("how many songs do we have", "SELECT count(*) FROM tracks"),
    ("which song was streamed the most", "SELECT t.title, count(*) n FROM plays p JOIN tracks t USING (track_id) "
                                         "GROUP BY t.track_id, t.title ORDER BY n DESC LIMIT 1"),
    ("how many cars are there", "SELECT count(*) FROM vehicles"),
    ("how many cases were opened in 2024", "SELECT count(*) FROM support_tickets WHERE year(opened_on) = 2024"),
    ("# of tix in 2025", "SELECT count(*) FROM support_tickets WHERE year(opened_on) = 2025"),
    # 'signup date': to sign up is how each listener came, no condition; with a year, the date it is about
    ("how many listeners have signed up", "SELECT count(*) FROM listeners"),
    ("how many listeners signed up in 2024", "SELECT count(*) FROM listeners WHERE year(signup_date) = 2024"),
])
def test_words_people_use_for_the_rows(music, question, sql):
    assert_reads_as(music, question, sql)
