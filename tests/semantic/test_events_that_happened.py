"""'how many tickets were escalated', 'escalated tickets by tier', 'tickets never escalated': with no calendar
words, the verb of a date the rows may lack says the event happened to them (the date is set), or, negated, that
it did not; it never groups by that date."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE account (account_id INTEGER PRIMARY KEY, account_name VARCHAR NOT NULL, tier VARCHAR NOT NULL);
CREATE TABLE ticket (ticket_id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES account,
                     "openedAt" TIMESTAMP NOT NULL, "escalatedAt" TIMESTAMP);
INSERT INTO account VALUES (1, 'Acme', 'Gold'), (2, 'Beta', 'Silver'), (3, 'Core', 'Gold');
INSERT INTO ticket VALUES (1, 1, '2024-01-03 09:00', '2024-01-04 10:00'), (2, 1, '2024-02-11 12:00', NULL),
                          (3, 2, '2024-05-01 08:00', '2024-05-03 16:00'), (4, 3, '2024-06-01 08:00', NULL),
                          (5, 3, '2024-06-02 08:00', NULL), (6, 2, '2024-07-09 11:00', '2024-07-09 15:00');
"""


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("events_happened"), "desk", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", [
    "how many tickets were escalated",
    "how many escalated tickets are there",
])
def test_the_verb_of_a_date_the_rows_may_lack_is_the_event_happening(desk, question):
    assert_reads_as(desk, question, 'SELECT count(*) FROM ticket WHERE "escalatedAt" IS NOT NULL')


def test_grouped_by_something_else(desk):
    assert_reads_as(desk, "escalated tickets by tier",
                    'SELECT a.tier, count(*) FROM ticket t JOIN account a USING (account_id) '
                    'WHERE t."escalatedAt" IS NOT NULL GROUP BY 1')


def test_never_is_the_rows_without_it(desk):
    assert_reads_as(desk, "how many tickets were never escalated",
                    'SELECT count(*) FROM ticket WHERE "escalatedAt" IS NULL')


def test_with_calendar_words_the_verb_still_dates_them(desk):
    assert_reads_as(desk, "how many tickets were escalated in may 2024",
                    "SELECT count(*) FROM ticket WHERE \"escalatedAt\" >= '2024-05-01' AND \"escalatedAt\" < '2024-06-01'")


@pytest.mark.parametrize("question", ["escalation rate by tier", "what share of tickets were escalated, by tier"])
def test_the_rate_of_the_event_is_the_share_of_rows_it_happened_to(desk, question):
    """'escalation' is the event of 'escalatedAt' (one stem); a share word is never taken for a value
    ('share' inside a ticket subject)."""
    assert_reads_as(desk, question,
                    'SELECT a.tier, count(t."escalatedAt") / count(*) FROM ticket t JOIN account a USING (account_id) '
                    'GROUP BY 1')


def test_things_the_rows_point_at_count_those_the_event_happened_to(desk):
    """'accounts escalated': the escalation date is the tickets', which point at accounts: the accounts with an
    escalated ticket, never a grouping by the date."""
    assert_reads_as(desk, "how many accounts were escalated",
                    'SELECT count(DISTINCT account_id) FROM ticket WHERE "escalatedAt" IS NOT NULL')
