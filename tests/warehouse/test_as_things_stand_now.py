"""'how many reps do we have on each team right now': where the counted rows carry one yes/no column for being
so at present (a comment saying 'NULL = still employed'), words that say 'as things stand today' keep only those
rows; said of rows with no such column, or with two, they are asked about, never dropped in silence."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE teams (team_id INTEGER PRIMARY KEY, team_name VARCHAR NOT NULL);
CREATE TABLE agents (agent_id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL REFERENCES teams (team_id),
                     full_name VARCHAR NOT NULL, left_on DATE);
COMMENT ON COLUMN agents.left_on IS 'last working day; NULL = still employed';
CREATE TABLE trucks (truck_id INTEGER PRIMARY KEY, plate VARCHAR NOT NULL, sold_on DATE, scrapped_on DATE);
COMMENT ON COLUMN trucks.sold_on IS 'NULL = still owned';
COMMENT ON COLUMN trucks.scrapped_on IS 'NULL = still running';
CREATE TABLE crews (crew_id INTEGER PRIMARY KEY, crew_name VARCHAR NOT NULL, disbanded_on DATE);
COMMENT ON COLUMN crews.disbanded_on IS 'NULL while the crew is active';
INSERT INTO crews VALUES (1, 'North', NULL), (2, 'South', '2023-06-30'), (3, 'East', NULL);
INSERT INTO teams VALUES (1, 'Billing'), (2, 'Tech');
INSERT INTO agents VALUES (1, 1, 'Ann Lee', NULL), (2, 1, 'Bob Ray', '2024-03-01'), (3, 2, 'Cat Oak', NULL),
                          (4, 2, 'Dan Fir', NULL);
INSERT INTO trucks VALUES (1, 'AB-1', NULL, NULL), (2, 'CD-2', '2024-01-01', NULL), (3, 'EF-3', NULL, '2023-05-05');
"""


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("present"), "desk", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("how many agents do we have right now", "SELECT count(*) FROM agents WHERE left_on IS NULL"),
    ("how many reps do we have on each team at the moment",
     "SELECT t.team_name, count(*) FROM agents a JOIN teams t USING (team_id) WHERE a.left_on IS NULL GROUP BY 1"),
    ("how many agents do we have", "SELECT count(*) FROM agents"),  # nothing said of now: every row
    # 'NULL while the crew is active': a state said after the thing it is of
    ("how many crews do we have right now", "SELECT count(*) FROM crews WHERE disbanded_on IS NULL"),
])
def test_now_keeps_the_rows_so_at_present(desk, question, sql):
    assert_reads_as(desk, question, sql)


def test_now_of_rows_with_two_present_columns_is_asked(desk):
    read = extract_intent("how many trucks do we currently have", desk.semantic, desk.values)
    assert read.intent is None and "currently" in (read.reason or ""), read
