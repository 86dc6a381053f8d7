"""'by department and job role': a thing listed right after a grouping word groups too. Both are tables of
their own here (a grouping by a thing is by its name), so without the list the second was read as a
thing counted and silently dropped. 'which job roles have no leavers': the groups none of whose rows is
flagged (a count of 0 kept per group, the flag said by its comment)."""

from __future__ import annotations

import pytest

from agent.bootstrap import build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from tests.support.duck_files import duckdb_file
from tests.warehouse.conftest import server_settings

SCHEMA = """
CREATE TABLE departments (department_id INTEGER PRIMARY KEY, department_name VARCHAR NOT NULL);
CREATE TABLE job_roles (job_role_id INTEGER PRIMARY KEY, job_role_name VARCHAR NOT NULL);
CREATE TABLE employees (employee_id INTEGER PRIMARY KEY,
                        department_id INTEGER NOT NULL REFERENCES departments (department_id),
                        job_role_id INTEGER NOT NULL REFERENCES job_roles (job_role_id), age INTEGER NOT NULL,
                        attrition VARCHAR NOT NULL, over_time VARCHAR NOT NULL,
                        monthly_income INTEGER NOT NULL);
COMMENT ON COLUMN employees.attrition IS '''Yes'' = the employee left the company, ''No'' = still employed';
COMMENT ON COLUMN employees.over_time IS '''Yes'' = the employee works overtime';
INSERT INTO departments VALUES (1, 'Sales'), (2, 'Research');
INSERT INTO job_roles VALUES (1, 'Manager'), (2, 'Scientist'), (3, 'Representative');
INSERT INTO employees VALUES (1, 1, 1, 40, 'No', 'Yes', 5000), (2, 1, 3, 25, 'Yes', 'Yes', 2000),
                             (3, 1, 3, 31, 'No', 'No', 3000), (4, 2, 2, 29, 'No', 'No', 4000),
                             (5, 2, 1, 50, 'Yes', 'No', 6000), (6, 1, 1, 38, 'No', 'No', 7000);
"""

BOTH = ("SELECT d.department_name, j.job_role_name, {measure} FROM employees e JOIN departments d USING "
        "(department_id) JOIN job_roles j USING (job_role_id) GROUP BY 1, 2")
QUESTIONS = {
    "employees by department and job role": BOTH.format(measure="count(*)"),
    "average age by department and job role": BOTH.format(measure="avg(e.age)"),
    "number of employees per job role and department": BOTH.format(measure="count(*)"),
}


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    folder = tmp_path_factory.mktemp("listed")
    path = duckdb_file(folder, "company", SCHEMA)
    work = build_groundwork(server_settings(folder, f"duckdb:///{path}"))
    yield work
    work.warehouse.close()


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_every_listed_grouping_groups(company, question):
    read = extract_intent(question, company.semantic, company.values)
    assert read.intent is not None, read.reason
    assert len(read.intent.dimensions) == 2, read.intent.dimensions
    got = company.warehouse.run(compile_intent(read.intent, company.semantic).sql)
    want = company.warehouse.run(QUESTIONS[question])
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (question, got.rows, want.rows)


NONE_LEFT = {
    "which job roles have no leavers": "SELECT j.job_role_name FROM employees e JOIN job_roles j USING (job_role_id) "
                                       "GROUP BY 1 HAVING count(*) FILTER (WHERE attrition = 'Yes') = 0",
    "in which department and job role has nobody ever left?":
        "SELECT d.department_name, j.job_role_name FROM employees e JOIN departments d USING (department_id) "
        "JOIN job_roles j USING (job_role_id) GROUP BY 1, 2 HAVING count(*) FILTER (WHERE attrition = 'Yes') = 0",
}


@pytest.mark.parametrize("question", sorted(NONE_LEFT))
def test_groups_none_of_whose_rows_is_flagged(company, question):
    read = extract_intent(question, company.semantic, company.values)
    assert read.intent is not None, read.reason
    assert read.intent.having and not read.intent.filters
    got = company.warehouse.run(compile_intent(read.intent, company.semantic).sql)
    want = company.warehouse.run(NONE_LEFT[question])
    assert want.rows and rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), \
        (question, got.rows, want.rows)


def test_a_rate_of_one_flag_set_against_the_rows_another_leaves_out(company):
    """'how many times higher is attrition for people who work overtime than for those who don't': the first
    flag is measured (its rate), the second splits the rows; overtime 1 of 2 left, the others 1 of 4."""
    question = "how many times higher is attrition for people who work overtime than for those who don't?"
    read = extract_intent(question, company.semantic, company.values)
    assert read.intent is not None and read.intent.contrast is not None, read.reason
    assert read.intent.contrast.kind == "ratio" and not read.intent.filters
    got = company.warehouse.run(compile_intent(read.intent, company.semantic).sql)
    assert got.rows == [(2.0,)] or [float(v) for v in got.rows[0]] == [2.0]
    side_by_side = extract_intent("attrition rate for people who work overtime vs everyone else",
                                  company.semantic, company.values).intent
    assert side_by_side is not None and side_by_side.dimensions == ["over_time"]
    rows = company.warehouse.run(compile_intent(side_by_side, company.semantic).sql).rows
    assert sorted((bool(r[0]), float(r[1])) for r in rows) == [(False, 0.25), (True, 0.5)]


def test_per_month_of_a_monthly_measure_is_its_period_not_a_grouping(company):
    """'earn per month' of a monthly income says the measure's period; 'on average' is read too."""
    read = extract_intent("how much do leavers earn per month on average?", company.semantic, company.values)
    assert read.intent is not None, read.reason
    assert not read.intent.dimensions and read.ignored_words == []
    got = company.warehouse.run(compile_intent(read.intent, company.semantic).sql)
    assert [float(v) for v in got.rows[0]] == [4000.0]  # the two leavers: 2000 and 6000


@pytest.mark.parametrize("question, gap", [
    ("how much less do leavers earn per month than people who stayed, on average?", 750.0),
    ("how much more do leavers earn per month than everyone else, on average?", -750.0),
])
def test_how_much_less_is_the_shortfall_against_the_others(company, question, gap):
    """Leavers earn 4000 on average, the others 4750: 'less' is the others minus the leavers; 'people who
    stayed' are the others of a flag told as 'left the company' (an opposite verb, vocabulary data)."""
    read = extract_intent(question, company.semantic, company.values)
    assert read.intent is not None and read.intent.contrast is not None, read.reason
    got = company.warehouse.run(compile_intent(read.intent, company.semantic).sql)
    assert [round(float(v), 6) for v in got.rows[0]] == [gap]
