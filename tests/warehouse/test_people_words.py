"""The one table whose rows are people (a first and a last name, an age…) is also what 'people',
'contestants', 'participants' name; where two tables hold people, those words name neither."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.nlq.extract import extract_intent

ONE = """
CREATE TABLE athletes (athlete_id INTEGER PRIMARY KEY, first_name VARCHAR NOT NULL, last_name VARCHAR NOT NULL,
                       age INTEGER NOT NULL, club VARCHAR NOT NULL);
CREATE TABLE heats (heat_id INTEGER PRIMARY KEY, athlete_id INTEGER NOT NULL REFERENCES athletes (athlete_id),
                    event VARCHAR NOT NULL, seconds DECIMAL(6,2) NOT NULL);
INSERT INTO athletes VALUES (1, 'Ada', 'Moss', 24, 'North'), (2, 'Bo', 'Reed', 31, 'South'), (3, 'Cy', 'Vale', 28, 'North');
INSERT INTO heats VALUES (1, 1, 'Sprint', 11.2), (2, 2, 'Sprint', 11.9), (3, 2, 'Relay', 40.1), (4, 3, 'Relay', 41.0);
"""
TWO = """
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, first_name VARCHAR NOT NULL, last_name VARCHAR NOT NULL,
                        age INTEGER NOT NULL);
CREATE TABLE employees (employee_id INTEGER PRIMARY KEY, first_name VARCHAR NOT NULL, last_name VARCHAR NOT NULL,
                        age INTEGER NOT NULL);
INSERT INTO customers VALUES (1, 'Ada', 'Moss', 24), (2, 'Bo', 'Reed', 31);
INSERT INTO employees VALUES (1, 'Cy', 'Vale', 28);
"""

QUESTIONS = {
    "how many contestants are there?": "SELECT count(*) FROM athletes",
    "average age of the participants by club": "SELECT club, avg(age) FROM athletes GROUP BY 1",
    "how many people are in the North club?": "SELECT count(*) FROM athletes WHERE club = 'North'",
}


@pytest.fixture(scope="module")
def meet(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("meet"), "meet", ONE) as work:
        yield work


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("shop"), "shop", TWO) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_people_words_name_the_one_table_of_people(meet, question):
    assert_reads_as(meet, question, QUESTIONS[question])


def test_two_tables_of_people_leave_the_words_unplaced(shop):
    read = extract_intent("how many contestants are there?", shop.semantic, shop.values)
    assert read.intent is None, read.intent
