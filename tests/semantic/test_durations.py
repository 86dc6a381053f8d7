"""How long something took, said the ways analysts say it, on a warehouse nobody modelled: a measure of
the time between two dates or times of one row (agent/semantic/nlq/parse/durations.py), checked row
for row against hand-written SQL; and what it must not guess."""

from __future__ import annotations

import pytest

from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.definitions import problems_of
from agent.semantic.nlq.extract import extract_intent
from tests.support.duck_files import bootstrapped

SCHEMA = """
CREATE TABLE ops.ticket (ticket_id INTEGER PRIMARY KEY, priority VARCHAR NOT NULL, opened_at TIMESTAMP NOT NULL,
                         first_response_at TIMESTAMP, resolved_at TIMESTAMP);
CREATE TABLE ops.outage (outage_id INTEGER PRIMARY KEY, region VARCHAR NOT NULL, start_ts TIMESTAMP NOT NULL,
                         end_ts TIMESTAMP);
CREATE TABLE ops.subscription (subscription_id INTEGER PRIMARY KEY, plan VARCHAR NOT NULL, started_on DATE NOT NULL,
                               ended_on DATE);
CREATE TABLE ops.shipment (shipment_id INTEGER PRIMARY KEY, service VARCHAR NOT NULL, booked_at TIMESTAMP NOT NULL,
                           pickup_date DATE NOT NULL, delivered_date DATE);
CREATE TABLE ops.claim (claim_id INTEGER PRIMARY KEY, claim_type VARCHAR NOT NULL, loss_dt DATE NOT NULL,
                        reported_dt DATE NOT NULL, closed_dt DATE);
INSERT INTO ops.ticket VALUES
  (1, 'high', '2024-03-01 09:00', '2024-03-01 09:30', '2024-03-01 12:00'),
  (2, 'high', '2024-03-02 10:00', '2024-03-02 10:10', '2024-03-03 10:00'),
  (3, 'low', '2024-03-02 11:00', '2024-03-02 13:00', '2024-03-05 11:00'),
  (4, 'low', '2024-04-07 08:00', NULL, NULL);
INSERT INTO ops.outage VALUES (1, 'north', '2024-01-01 00:00', '2024-01-01 06:00'),
  (2, 'north', '2024-02-01 10:00', '2024-02-01 11:30'), (3, 'south', '2024-02-03 22:00', '2024-02-04 02:00'),
  (4, 'south', '2024-02-05 01:00', NULL);
INSERT INTO ops.subscription VALUES (1, 'basic', '2023-01-01', '2023-03-01'), (2, 'basic', '2023-02-01', NULL),
  (3, 'premium', '2023-01-10', '2024-01-10'), (4, 'premium', '2023-05-01', '2023-06-01');
INSERT INTO ops.shipment VALUES (1, 'express', '2023-12-30 10:00', '2024-01-02', '2024-01-03'),
  (2, 'standard', '2024-01-05 09:00', '2024-01-06', '2024-01-10'), (3, 'express', '2024-02-01 12:00', '2024-02-02', NULL);
INSERT INTO ops.claim VALUES (1, 'fire', '2024-01-01', '2024-01-05', '2024-03-05'),
  (2, 'glass', '2024-01-10', '2024-01-11', '2024-01-20'), (3, 'glass', '2024-02-01', '2024-02-01', NULL);
"""

QUESTIONS = {
    # the event after 'first': from the row's beginning (opened at) to the date the words name, in the unit said
    "avg first response time by priority, in mins": (
        "SELECT priority, avg(epoch(first_response_at - opened_at)) / 60 FROM ops.ticket GROUP BY 1"),
    # 'resolution' is said by no column here but 'resolved' is its dictionary form's start
    "average resolution time in hours by priority": (
        "SELECT priority, avg(epoch(resolved_at - opened_at)) / 3600 FROM ops.ticket GROUP BY 1"),
    # a row's own span: start and end; between times in hours unless said
    "avg outage length by region": (
        "SELECT region, avg(epoch(end_ts - start_ts)) / 3600 FROM ops.outage GROUP BY 1"),
    "how long do subscriptions last on average, by plan": (
        "SELECT plan, avg(ended_on - started_on) FROM ops.subscription GROUP BY 1"),
    # both ends named by an event word of a date column ('delivery' for delivered date), in days
    "average days from pickup to delivery by service": (
        "SELECT service, avg(delivered_date - pickup_date) FROM ops.shipment GROUP BY 1"),
    "avg transit days (pickup to delivery) for each service": (
        "SELECT service, avg(delivered_date - pickup_date) FROM ops.shipment GROUP BY 1"),
    # the median said of it, as an analyst reports skewed times; the reading line names it, never its SQL
    "median resolution time in hours by priority": (
        "SELECT priority, median(epoch(resolved_at - opened_at)) / 3600 FROM ops.ticket GROUP BY 1"),
    "longest days from reported to closed by claim type": (
        "SELECT claim_type, max(closed_dt - reported_dt) FROM ops.claim GROUP BY 1"),
    # the unit asked for, the question put the way people ask it
    "how many hours on average does it take to resolve a ticket, by priority": (
        "SELECT priority, avg(epoch(resolved_at - opened_at)) / 3600 FROM ops.ticket GROUP BY 1"),
    # dated by their opening, so 'in march' is the tickets opened in March
    "avg time to resolve a ticket in march 2024, in hours": (
        "SELECT avg(epoch(resolved_at - opened_at)) / 3600 FROM ops.ticket "
        "WHERE opened_at >= '2024-03-01' AND opened_at < '2024-04-01'"),
}


@pytest.fixture(scope="module")
def domain(tmp_path_factory):
    model, values, warehouse = bootstrapped(tmp_path_factory.mktemp("durations"), "durations",
                                            "CREATE SCHEMA ops;" + SCHEMA, warehouse_schemas="ops")
    yield model, values, warehouse
    warehouse.close()


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_duration_gets_the_right_rows(domain, question):
    model, values, warehouse = domain
    extraction = extract_intent(question, model, values)
    assert extraction.intent is not None, extraction.reason
    want = warehouse.run(QUESTIONS[question])
    got = warehouse.run(compile_intent(extraction.intent, model).sql)
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (question, got.rows, want.rows)
    assert not problems_of(extraction.intent.definitions, model)  # held to the rule an LLM's definitions are


def test_the_reading_names_both_dates_and_the_unit(domain):
    model, values, _ = domain
    extraction = extract_intent("avg first response time by priority, in mins", model, values)
    assert extraction.intent is not None
    assert [d.label for d in extraction.intent.definitions] == ["average minutes from opened at to first response at"]
    median = extract_intent("median resolution time in hours", model, values)
    assert median.intent is not None, median.reason
    reading = compile_intent(median.intent, model).reason
    assert "median hours from opened at to resolved at" in reading and "epoch" not in reading.lower(), reading


@pytest.mark.parametrize("question", [
    # rows dated by their booking: which of the shipment's dates says 2024 is not said
    "avg days from pickup to delivery in 2024",
    # 'settled' says paid as well as closed: no column says it, so it is not taken for 'closed'
    "how long does it take us to settle a claim on average",
    # an invoice has no date of its own here, and a thing's name says none of its dates
    "average days from shipment to delivery",
])
def test_a_duration_nobody_said_is_not_guessed(domain, question):
    model, values, _ = domain
    extraction = extract_intent(question, model, values)
    assert extraction.intent is None or not extraction.intent.definitions, extraction.intent


@pytest.mark.parametrize("dialect, hours, days", [
    ("duckdb", "DATE_DIFF('SECOND', opened_at, closed_at)", "DATE_DIFF('DAY', CAST(opened_at AS DATE), CAST(closed_at AS DATE))"),
    ("postgres", "EXTRACT(epoch FROM CAST(closed_at AS TIMESTAMP) - CAST(opened_at AS TIMESTAMP))", "/ 86400"),
    ("mysql", "TIMESTAMPDIFF(SECOND, opened_at, closed_at)", "DATEDIFF(CAST(closed_at AS DATE), CAST(opened_at AS DATE))"),
    ("snowflake", "DATEDIFF(SECOND, opened_at, closed_at)", "DATEDIFF(DAY, CAST(opened_at AS DATE), CAST(closed_at AS DATE))"),
    ("bigquery", "DATE_DIFF(closed_at, opened_at, SECOND)", "DATE_DIFF(CAST(closed_at AS DATE), CAST(opened_at AS DATE), DAY)"),
    ("trino", "DATE_DIFF('SECOND', opened_at, closed_at)", "DATE_DIFF('DAY', CAST(opened_at AS DATE), CAST(closed_at AS DATE))"),
])
def test_the_time_between_is_spelt_in_each_dialect(dialect, hours, days):
    """Exact seconds for hours and minutes (MySQL's DATEDIFF counts days only, so TIMESTAMPDIFF there);
    calendar days between the dates, whatever the times of day."""
    from agent.semantic.nlq.parse.durations import TimeColumn, duration_sql

    opened = TimeColumn("ticket", "opened_at", "opened at", frozenset({"open"}), frozenset({"opened"}), True)
    closed = TimeColumn("ticket", "closed_at", "closed at", frozenset({"close"}), frozenset({"closed"}), True)
    assert hours in duration_sql(opened, closed, "hours", dialect)
    assert duration_sql(opened, closed, "hours", dialect).endswith("/ 3600.0")
    assert days in duration_sql(opened, closed, "days", dialect)
