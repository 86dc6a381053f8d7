"""A yes/no column told as a verb and its object ('left the company') is said by the verb alone right after
its rows: 'how many staff left', 'average salary of staff who left'."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, full_name VARCHAR NOT NULL, salary INTEGER NOT NULL,
                    team VARCHAR NOT NULL, attrition VARCHAR NOT NULL);
COMMENT ON COLUMN staff.attrition IS '''Yes'' = the employee left the company, ''No'' = still employed';
INSERT INTO staff VALUES (1, 'Ada Byron', 5000, 'North', 'Yes'), (2, 'Bo Chen', 4000, 'North', 'No'),
                         (3, 'Cy Dorn', 3000, 'South', 'Yes'), (4, 'Di Eve', 6000, 'North', 'No');
"""

QUESTIONS = {
    "how many staff left?": "SELECT count(*) FROM staff WHERE attrition = 'Yes'",
    "average salary of staff who left": "SELECT avg(salary) FROM staff WHERE attrition = 'Yes'",
    # the share's part is what is said from the verb on; the North staff are the whole
    "what % of north staff left?":
        "SELECT 100.0 * count(*) FILTER (WHERE attrition = 'Yes') / count(*) FROM staff WHERE team = 'North'",
}


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("verbs"), "office", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_flag_said_by_its_verb(office, question):
    assert_reads_as(office, question, QUESTIONS[question])
