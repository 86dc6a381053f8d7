"""Things none of whose rows meet a condition: 'users who have never given a 5-star rating', 'which members
never borrowed a horror book', 'departments with no staff with a doctorate'. The rows meeting the condition
are counted per thing (0 for a thing with none), never filtered away first, which would drop exactly the
things asked for.

The things are the ones the rows name: a member with no loans at all is not among 'members who never
borrowed a horror book' (every member here has a loan; the reading line says what was counted)."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.nlq.extract import extract_intent
from agent.semantic.compile.reading import describe

SCHEMA = """
CREATE TABLE members (member_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, is_premium BOOLEAN NOT NULL);
CREATE TABLE loans (loan_id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL REFERENCES members (member_id),
                    genre VARCHAR NOT NULL, loaned_on DATE NOT NULL);
CREATE TABLE reviews (user_id INTEGER NOT NULL, title VARCHAR NOT NULL, rating INTEGER NOT NULL);
INSERT INTO members VALUES (1, 'Ada', true), (2, 'Bo', false), (3, 'Cy', true), (4, 'Di', false);
INSERT INTO loans VALUES (1, 1, 'Horror', '2024-01-02'), (2, 1, 'Poetry', '2024-01-05'), (3, 2, 'Poetry', '2024-02-01'),
                         (4, 3, 'History', '2024-02-03'), (5, 3, 'Poetry', '2024-03-01'), (6, 4, 'Horror', '2024-03-09');
INSERT INTO reviews VALUES (1, 'a', 5), (1, 'b', 3), (2, 'a', 4), (2, 'c', 2), (3, 'b', 5), (4, 'c', 1), (4, 'a', 4);
"""

NONE = "HAVING sum(CASE WHEN {} THEN 1 ELSE 0 END) = 0"
QUESTIONS = {
    "how many users have never given a 5-star rating?":
        f"SELECT count(*) FROM (SELECT user_id FROM reviews GROUP BY 1 {NONE.format('rating = 5')})",
    "which users never gave a rating below 2?": f"SELECT user_id FROM reviews GROUP BY 1 {NONE.format('rating < 2')}",
    "which members never borrowed a horror book?":
        f"SELECT m.name FROM loans l JOIN members m USING (member_id) GROUP BY 1 {NONE.format(chr(39).join(['genre = ', 'Horror', '']))}",
    "how many premium members have never borrowed poetry?":
        "SELECT count(*) FROM (SELECT l.member_id FROM loans l JOIN members m USING (member_id) WHERE m.is_premium "
        f"GROUP BY 1 {NONE.format(chr(39).join(['genre = ', 'Poetry', '']))})",
}


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("none_with"), "library", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_things_none_of_whose_rows_meet_a_condition(library, question):
    assert_reads_as(library, question, QUESTIONS[question], leading=True)


def test_the_reading_says_what_none_of(library):
    read = extract_intent("how many users have never given a 5-star rating?", library.semantic, library.values)
    assert read.intent is not None
    assert "with no reviews where rating is 5" in describe(read.intent, library.semantic)


def test_a_plain_condition_after_no_is_not_a_count_of_none(library):
    """'loans with no horror' has no things before it other than the rows themselves: not this shape."""
    read = extract_intent("how many loans were not horror?", library.semantic, library.values)
    assert read.intent is None or not read.intent.having
