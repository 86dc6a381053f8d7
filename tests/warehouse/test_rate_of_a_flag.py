"""'which role has the highest attrition': a rate-ranking word before a yes/no condition said in the singular
ranks by the model's rate of it; 'the most leavers' counts the flagged rows, on the table that holds the
flag, never the model's default count of something else."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE departments (department_id INTEGER PRIMARY KEY, department_name VARCHAR NOT NULL);
CREATE TABLE roles (role_id INTEGER PRIMARY KEY, role_name VARCHAR NOT NULL);
CREATE TABLE employees (employee_id INTEGER PRIMARY KEY, role_id INTEGER NOT NULL REFERENCES roles (role_id),
                        department_id INTEGER NOT NULL REFERENCES departments (department_id),
                        attrition VARCHAR NOT NULL, age INTEGER NOT NULL);
INSERT INTO departments VALUES (1, 'Sales'), (2, 'Research');
INSERT INTO roles VALUES (1, 'Analyst'), (2, 'Manager'), (3, 'Clerk');
INSERT INTO employees VALUES (1, 1, 1, 'Yes', 30), (2, 1, 1, 'Yes', 41), (3, 1, 2, 'Yes', 25), (4, 1, 2, 'No', 33),
    (5, 1, 2, 'No', 29), (6, 1, 1, 'No', 50), (7, 2, 1, 'Yes', 45), (8, 2, 2, 'No', 52), (9, 3, 2, 'Yes', 23),
    (10, 3, 1, 'Yes', 24);
COMMENT ON COLUMN employees.attrition IS 'Yes = the employee left the company';
"""


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("flag_rate"), "company", SCHEMA) as work:
        yield work


def test_the_highest_of_a_flag_is_its_rate(company):
    assert_reads_as(company, "which role has the highest attrition?",
                    "SELECT role_name, avg(CASE WHEN attrition = 'Yes' THEN 1.0 ELSE 0 END) AS r "
                    "FROM employees JOIN roles USING (role_id) GROUP BY 1 ORDER BY 2 DESC LIMIT 1")


def test_the_most_of_a_flag_counts_its_rows(company):
    assert_reads_as(company, "which role has the most leavers?",
                    "SELECT role_name, count(*) FROM employees JOIN roles USING (role_id) "
                    "WHERE attrition = 'Yes' GROUP BY 1 ORDER BY 2 DESC LIMIT 1")
