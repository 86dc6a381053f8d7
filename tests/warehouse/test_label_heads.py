"""What a column's label is about is its word before a preposition ('years at company' is about years), so
a word several labels are about ('years': total working years, years at company, years in role) names none
of them alone, and a comparison on it is asked, never given to one of them."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE employees (employee_id INTEGER PRIMARY KEY, total_working_years INTEGER NOT NULL,
                        years_at_company INTEGER NOT NULL, years_in_role INTEGER NOT NULL,
                        hired_at TIMESTAMP NOT NULL);
INSERT INTO employees VALUES (1, 20, 3, 1, '2020-01-01'), (2, 12, 11, 4, '2012-05-01'), (3, 5, 5, 5, '2019-03-01');
"""


@pytest.fixture(scope="module")
def staff(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("heads"), "staff", SCHEMA) as work:
        yield work


def test_a_word_several_labels_are_about_is_asked(staff):
    read = extract_intent("how many employees have been here more than 10 years?", staff.semantic, staff.values)
    assert read.intent is None, read


def test_the_whole_label_names_its_column(staff):
    assert_reads_as(staff, "how many employees have more than 10 years at company?",
                    "SELECT count(*) FROM employees WHERE years_at_company > 10")


VIEWERS = """
CREATE TABLE Ratings (EpisodeId INTEGER PRIMARY KEY, Viewers7Day DOUBLE NOT NULL, Viewers28Day DOUBLE NOT NULL,
                      AirDate DATE NOT NULL);
INSERT INTO Ratings VALUES (1, 2.5, 3.0, '2020-01-01'), (2, 4.0, 4.5, '2020-01-08'), (3, 3.5, 3.9, '2020-01-15');
"""


@pytest.fixture(scope="module")
def ratings(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("viewers"), "ratings", VIEWERS) as work:
        yield work


@pytest.mark.parametrize("question", ["average viewers", "total viewers by month", "which episode had the most viewers?"])
def test_a_word_two_columns_are_about_asks_which_with_both(ratings, question):
    read = extract_intent(question, ratings.semantic, ratings.values)
    assert read.intent is None
    assert [a.text for a in read.ambiguous] == ["viewers"]
    assert sorted(read.ambiguous[0].options) == ["viewers_28_day", "viewers_7_day"]


def test_the_answer_to_which_reads(ratings):
    assert_reads_as(ratings, "average viewers 28 day", 'SELECT avg(Viewers28Day) FROM Ratings')


def test_the_catalog_finds_a_word_inside_a_camel_case_name(ratings):
    from agent.catalog.introspected import LiveCatalog

    found = LiveCatalog(ratings.warehouse, None).search("viewers", limit=1)
    assert found and "Viewers7Day" in found[0].matched_columns
