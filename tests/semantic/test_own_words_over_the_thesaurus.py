"""A phrase the thesaurus gives one column ('job title' for a role) names another column whose own label holds
all its words ('job requisition title'): the warehouse's own words win, so the role is never read for it."""

from __future__ import annotations

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import bootstrapped

SCHEMA = """
CREATE TABLE app_user (user_id INTEGER PRIMARY KEY, full_name VARCHAR NOT NULL, role VARCHAR NOT NULL);
CREATE TABLE job_requisition (req_id INTEGER PRIMARY KEY, job_requisition_title VARCHAR NOT NULL,
                              owner_id INTEGER NOT NULL REFERENCES app_user (user_id));
CREATE TABLE application (application_id INTEGER PRIMARY KEY,
                          req_id INTEGER NOT NULL REFERENCES job_requisition (req_id));
INSERT INTO app_user VALUES (1, 'Ann Lee', 'recruiter'), (2, 'Bo Diaz', 'hiring manager');
INSERT INTO job_requisition VALUES (10, 'Data Engineer', 1), (11, 'Sales Lead', 2);
INSERT INTO application VALUES (100, 10), (101, 10), (102, 11);
"""


def test_a_thesaurus_phrase_all_of_whose_words_another_column_owns_is_not_the_thesaurus_column(tmp_path):
    with bootstrapped(tmp_path, "hiring", SCHEMA) as work:
        read = extract_intent("applications by job title", work.semantic, work.values)
        assert read.intent is None or "role" not in read.intent.dimensions, read
        by_role = extract_intent("applications by position", work.semantic, work.values)  # one word: still the role
        assert by_role.intent is not None and by_role.intent.dimensions == ["role"], by_role
