"""A timestamp column keeps its time of day through the bootstrapped model: 'which hour do most visits
come in' is answered from it, while day, month and year questions read it as before; a DATE column
has no hours to tell, and an hour question on it is declined."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from agent.semantic.compile.intent import validate_intent

SCHEMA = """
CREATE TABLE visitors (visitor_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
CREATE TABLE visits (visit_id INTEGER PRIMARY KEY, visitor_id INTEGER NOT NULL REFERENCES visitors (visitor_id),
                     visited_at TIMESTAMP NOT NULL);
CREATE TABLE signups (signup_id INTEGER PRIMARY KEY, signed_on DATE NOT NULL);
INSERT INTO visitors VALUES (1, 'Ada'), (2, 'Bo');
INSERT INTO visits VALUES (1, 1, '2024-03-01 09:15:00'), (2, 1, '2024-03-02 20:05:00'), (3, 2, '2024-03-02 20:40:00'),
                          (4, 2, '2024-04-11 20:59:00'), (5, 1, '2024-04-12 08:00:00');
INSERT INTO signups VALUES (1, '2024-03-01'), (2, '2024-03-05');
"""

QUESTIONS = {
    "what hour of the day do most visits come in?":
        "SELECT hour(visited_at) FROM visits GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
    "number of visits by hour of day": "SELECT hour(visited_at), count(*) FROM visits GROUP BY 1",
    "how many visits were there in March 2024?":
        "SELECT count(*) FROM visits WHERE visited_at >= DATE '2024-03-01' AND visited_at < DATE '2024-04-01'",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("times"), "site", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_timestamp_answers_by_hour_and_by_date(site, question):
    assert_reads_as(site, question, QUESTIONS[question])


def test_a_date_column_has_no_hours(site):
    read = extract_intent("number of signups by hour of day", site.semantic, site.values)
    problems = validate_intent(read.intent, site.semantic) if read.intent is not None else [read.reason or ""]
    assert any("times of day" in p or "hour" in p for p in problems), problems


@pytest.mark.parametrize("question, sql", [
    ("how many visits came before 9am?", "SELECT count(*) FROM visits WHERE hour(visited_at) < 9"),
    ("how many visits after 8pm?", "SELECT count(*) FROM visits WHERE hour(visited_at) >= 20"),
    ("visits between 8am and 10am", "SELECT count(*) FROM visits WHERE hour(visited_at) BETWEEN 8 AND 9"),
])
def test_clock_times_say_the_hours_of_the_day(site, question, sql):
    read = extract_intent(question, site.semantic, site.values)
    assert read.intent is not None, read.reason
    got = site.warehouse.run(compile_intent(read.intent, site.semantic).sql)
    want = site.warehouse.run(sql)
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (question, got.rows, want.rows)


def test_a_clock_time_with_minutes_is_not_rounded_to_its_hour(site):
    read = extract_intent("how many visits came before 9:30am?", site.semantic, site.values)
    assert read.intent is None or not (read.intent.time and read.intent.time.hours), read.intent
