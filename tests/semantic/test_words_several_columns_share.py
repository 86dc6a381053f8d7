"""Words a warehouse gives several columns, and words no column gives, on a small hiring warehouse read from
its URL alone: a code's label shared in another form by other columns ('hire' a rating, 'hired' a status) is
no column's alone; a phrasal verb no column says ('go through') is asked about; a mark of test rows on
things pointing at the counted rows does not filter them; 'our biggest candidate source' is one source."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE candidate (candidate_id INTEGER PRIMARY KEY, full_name VARCHAR NOT NULL, lead_source VARCHAR NOT NULL);
COMMENT ON COLUMN candidate.lead_source IS 'REF = employee referral, JB = job board, AGY = agency';
CREATE TABLE application (application_id INTEGER PRIMARY KEY, candidate_id INTEGER NOT NULL,
                          applied_on DATE NOT NULL, app_status VARCHAR NOT NULL);
COMMENT ON COLUMN application.app_status IS 'A = active, R = rejected, H = hired';
CREATE TABLE interview (interview_id INTEGER PRIMARY KEY, application_id INTEGER NOT NULL,
                        held_on DATE NOT NULL, rating VARCHAR);
COMMENT ON COLUMN interview.rating IS '1 = no hire, 2 = lean no, 3 = hire, 4 = strong hire';
CREATE TABLE office (office_id INTEGER PRIMARY KEY, office_name VARCHAR NOT NULL);
CREATE TABLE recruiter (recruiter_id INTEGER PRIMARY KEY, office_id INTEGER NOT NULL, recruiter_name VARCHAR NOT NULL,
                        is_test BOOLEAN NOT NULL);
INSERT INTO candidate VALUES (1, 'Ann', 'JB'), (2, 'Bo', 'JB'), (3, 'Cy', 'REF'), (4, 'Di', 'AGY'), (5, 'Ed', 'JB');
INSERT INTO application VALUES (1, 1, '2024-01-02', 'H'), (2, 2, '2024-02-03', 'R'), (3, 3, '2024-02-04', 'H'),
                               (4, 4, '2024-03-05', 'A'), (5, 5, '2024-03-06', 'R'), (6, 1, '2024-04-01', 'R');
INSERT INTO interview VALUES (1, 1, '2024-01-10', '3'), (2, 1, '2024-01-11', '4'), (3, 2, '2024-02-10', '1'),
                             (4, 3, '2024-02-12', '3'), (5, 4, '2024-03-12', NULL), (6, 5, '2024-03-13', '3');
INSERT INTO office VALUES (1, 'Austin'), (2, 'Boston'), (3, 'Lab');
INSERT INTO recruiter VALUES (1, 1, 'Rae', false), (2, 2, 'Sam', false), (3, 3, 'QA login', true);
"""


@pytest.fixture(scope="module")
def hiring(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("hiring"), "hiring", SCHEMA) as work:
        yield work


def test_a_label_other_columns_give_in_another_form_is_asked_not_taken(hiring):
    # 'hire' labels a rating, 'hired' a status: 'hires' and 'hired' are either column's only beside its name
    alone = {p.words: p.dimension for p in hiring.values.phrases if p.words in {("hire",), ("hires",), ("hired",)}
             and not p.needs_cue}
    assert alone == {}
    read = extract_intent("how many hires did we make in 2024", hiring.semantic, hiring.values)
    assert read.intent is None or all(f.field != "rating" for f in read.intent.filters)


def test_a_phrasal_verb_no_column_says_is_asked(hiring):
    read = extract_intent("what % of applications actually go through, by lead source?", hiring.semantic,
                          hiring.values)
    assert read.intent is None and {"go", "through"} <= set(read.ignored_words)


def test_the_biggest_of_a_things_column_is_one(hiring):
    assert_reads_as(hiring, "whats our biggest candidate lead source",
                    "SELECT c.lead_source FROM application a JOIN candidate c USING (candidate_id) GROUP BY 1 "
                    "ORDER BY count(*) DESC LIMIT 1", leading=True)


def test_test_rows_pointing_at_the_counted_things_do_not_filter_them(hiring):
    # the Lab office has only a test login: it is still an office
    assert_reads_as(hiring, "how many offices do we have", "SELECT count(*) FROM office")


TRIPS = """
CREATE TABLE trip_requests (request_id INTEGER PRIMARY KEY, requested_at TIMESTAMP NOT NULL, trip_status VARCHAR NOT NULL);
CREATE TABLE driver_payouts (payout_id INTEGER PRIMARY KEY, paid_on DATE NOT NULL, trip_count INTEGER NOT NULL);
INSERT INTO trip_requests VALUES (1, '2024-01-02 08:00', 'completed'), (2, '2024-01-02 09:00', 'completed'),
                                 (3, '2024-01-03 10:00', 'cancelled');
INSERT INTO driver_payouts VALUES (1, '2024-01-08', 2);
"""


def test_the_word_before_a_kind_is_no_word_of_that_column(tmp_path_factory):
    # 'trip status' sorts trips into kinds: 'trips' never counts its statuses (2 here, for 3 trips)
    with bootstrapped(tmp_path_factory.mktemp("trips"), "trips", TRIPS) as work:
        read = extract_intent("how many trips in january 2024", work.semantic, work.values)
        assert read.intent is None or "trip_status__count_distinct" not in read.intent.metrics, read
