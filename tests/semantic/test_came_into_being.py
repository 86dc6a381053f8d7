"""'how many new riders signed up in 2024', 'new member sign-ups per quarter': words that say things came into being
are what the counted things' own date says already, when that date is the day each began; anywhere else the
reader still asks about them."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE member (member_id INTEGER PRIMARY KEY, member_name VARCHAR NOT NULL, "joinedOn" DATE NOT NULL);
CREATE TABLE ticket (ticket_id INTEGER PRIMARY KEY, member_id INTEGER REFERENCES member, closed_at DATE NOT NULL);
INSERT INTO member VALUES (1, 'Ann', '2023-11-05'), (2, 'Bo', '2024-01-20'), (3, 'Cy', '2024-04-02'),
                          (4, 'Di', '2024-04-30'), (5, 'Ed', '2025-02-01');
INSERT INTO ticket VALUES (1, 1, '2024-01-03'), (2, 2, '2024-02-11'), (3, 2, '2024-05-01');
"""


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("came_into_being"), "club", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", [
    "how many new members joined in 2024?",
    "how many new members did we sign up in 2024",
    "new members in 2024",
])
def test_things_counted_by_the_day_they_began_read_new_and_its_verbs(club, question):
    assert_reads_as(club, question, "SELECT count(*) FROM member WHERE year(\"joinedOn\") = 2024")


def test_by_quarter_too(club):
    assert_reads_as(club, "new member sign-ups per quarter in 2024",
                    "SELECT quarter(\"joinedOn\"), count(*) FROM member WHERE year(\"joinedOn\") = 2024 GROUP BY 1")


def test_things_dated_by_another_day_are_asked_about(club):
    """Tickets are dated by the day they closed: 'new tickets in 2024' is not the tickets closed in 2024."""
    read = extract_intent("how many new tickets in 2024", club.semantic, club.values)
    assert read.intent is None and "new" in read.reason
