"""'average satisfaction score', 'avg csat by team': an aggregation said of things (a table's rows) that hold
one number of their own is that number aggregated, never the things counted; with two numbers it is asked."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE teams (team_id INTEGER PRIMARY KEY, team_name VARCHAR NOT NULL);
CREATE TABLE agents (agent_id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL REFERENCES teams (team_id),
                     agent_name VARCHAR NOT NULL);
CREATE TABLE satisfaction_ratings (rating_id INTEGER PRIMARY KEY,
                                   agent_id INTEGER NOT NULL REFERENCES agents (agent_id), score INTEGER NOT NULL);
CREATE TABLE surveys (survey_id INTEGER PRIMARY KEY, agent_id INTEGER NOT NULL REFERENCES agents (agent_id),
                      ease INTEGER NOT NULL, speed INTEGER NOT NULL);
INSERT INTO teams VALUES (1, 'Billing'), (2, 'Tech');
INSERT INTO agents VALUES (1, 1, 'Ann Lee'), (2, 2, 'Bob Ray');
INSERT INTO satisfaction_ratings VALUES (1, 1, 5), (2, 1, 3), (3, 2, 4), (4, 2, 2), (5, 2, 3);
INSERT INTO surveys VALUES (1, 1, 4, 2), (2, 2, 5, 1);
"""


@pytest.fixture(scope="module")
def helpdesk(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("one_number"), "helpdesk", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("average satisfaction rating", "SELECT avg(score) FROM satisfaction_ratings"),
    ("avg satisfaction rating by team", "SELECT t.team_name, avg(r.score) FROM satisfaction_ratings r "
                                        "JOIN agents a USING (agent_id) JOIN teams t USING (team_id) GROUP BY 1"),
])
def test_the_things_one_number_aggregated(helpdesk, question, sql):
    assert_reads_as(helpdesk, question, sql)


def test_things_with_two_numbers_are_asked_about(helpdesk):
    from agent.semantic.nlq.extract import extract_intent

    read = extract_intent("average survey", helpdesk.semantic, helpdesk.values)
    assert read.intent is None or read.intent.metrics != ["survey_count"], read
