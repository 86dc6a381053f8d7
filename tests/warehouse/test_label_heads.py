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
