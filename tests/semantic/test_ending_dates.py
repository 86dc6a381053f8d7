"""Rows that come to an end: 'lapsed this year' is dated by the end date and keeps the status; a planned end
date a year ahead does not move 'this year'; 'so far' beside a period adds nothing."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE policy (policy_id INTEGER PRIMARY KEY, status VARCHAR NOT NULL, start_date DATE NOT NULL,
                     end_date DATE NOT NULL);
INSERT INTO policy VALUES
  (1, 'Lapsed', '2024-02-01', '2025-02-01'), (2, 'Lapsed', '2023-03-01', '2024-03-01'),
  (3, 'Active', '2025-05-01', '2026-05-01'), (4, 'Active', '2025-06-30', '2026-06-30'),
  (5, 'Cancelled', '2024-12-10', '2025-04-02'), (6, 'Lapsed', '2024-05-20', '2025-05-20');
"""


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("ending_dates"), "policies", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", ["how many policies lapsed this year", "how many policies lapsed so far this year",
                                      "how many policies lapsed this year to date"])
def test_lapsed_this_year_is_dated_by_the_end_and_stays_lapsed(policies, question):
    assert_reads_as(policies, question,
                    "SELECT count(*) FROM policy WHERE status = 'Lapsed' AND year(end_date) = 2025")


def test_cancelled_in_a_year_is_dated_by_the_end(policies):
    assert_reads_as(policies, "how many policies were cancelled in 2025",
                    "SELECT count(*) FROM policy WHERE status = 'Cancelled' AND year(end_date) = 2025")


def test_a_verb_of_beginning_keeps_its_own_date(policies):
    assert_reads_as(policies, "how many policies started in 2024",
                    "SELECT count(*) FROM policy WHERE year(start_date) = 2024")
