"""The one table whose rows are people (a first and a last name, an age…) is also what 'people',
'contestants', 'participants' name; where two tables hold people, those words name neither."""

from __future__ import annotations

import pytest

from agent.groundwork import build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compiler import compile_intent
from agent.semantic.extract import extract_intent
from tests.support.duck_files import duckdb_file
from tests.warehouse.conftest import server_settings

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


def _groundwork(tmp_path_factory, name, schema):
    folder = tmp_path_factory.mktemp(name)
    return build_groundwork(server_settings(folder, f"duckdb:///{duckdb_file(folder, name, schema)}"))


@pytest.fixture(scope="module")
def meet(tmp_path_factory):
    work = _groundwork(tmp_path_factory, "meet", ONE)
    yield work
    work.warehouse.close()


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    work = _groundwork(tmp_path_factory, "shop", TWO)
    yield work
    work.warehouse.close()


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_people_words_name_the_one_table_of_people(meet, question):
    read = extract_intent(question, meet.semantic, meet.values)
    assert read.intent is not None, read.reason
    got = meet.warehouse.run(compile_intent(read.intent, meet.semantic).sql)
    want = meet.warehouse.run(QUESTIONS[question])
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (question, got.rows, want.rows)


def test_two_tables_of_people_leave_the_words_unplaced(shop):
    read = extract_intent("how many contestants are there?", shop.semantic, shop.values)
    assert read.intent is None, read.intent
