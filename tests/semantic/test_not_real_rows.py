"""Rows a warehouse marks as no real business (a yes/no 'is test' column) are left out of every answer, on
the counted rows or on the thing they belong to; a question about those rows is read as asked."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE account (account_id INTEGER PRIMARY KEY, account_name VARCHAR NOT NULL, is_test BOOLEAN NOT NULL);
CREATE TABLE purchase (purchase_id INTEGER PRIMARY KEY, account_id INTEGER, amount DECIMAL(10, 2) NOT NULL,
                       bought_on DATE NOT NULL);
INSERT INTO account VALUES (1, 'Acme', false), (2, 'Globex', false), (3, 'QA sandbox', true), (4, 'Initech', false);
INSERT INTO purchase VALUES (1, 1, 100, '2024-01-05'), (2, 2, 250, '2024-02-01'), (3, 3, 9999, '2024-02-03'),
                            (4, 3, 5000, '2024-03-01'), (5, 4, 75, '2024-03-09'),
                            (6, NULL, 40, '2024-04-02');
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("not_real"), "accounts", SCHEMA) as work:
        yield work


def test_test_accounts_are_not_counted(shop):
    assert_reads_as(shop, "how many accounts do we have", "SELECT count(*) FROM account WHERE NOT is_test")


def test_rows_of_a_test_account_are_left_out_through_the_join_and_rows_of_none_stay(shop):
    assert_reads_as(shop, "how many purchases were made in 2024",
                    "SELECT count(*) FROM purchase p LEFT JOIN account a USING (account_id) WHERE a.is_test IS NOT TRUE")


def test_a_question_about_the_test_rows_is_read_as_asked(shop):
    assert_reads_as(shop, "how many test accounts are there", "SELECT count(*) FROM account WHERE is_test")


DELETED = """
CREATE TABLE lead (lead_id INTEGER PRIMARY KEY, lead_source VARCHAR NOT NULL, created_at DATE NOT NULL,
                   deleted_at TIMESTAMP);
INSERT INTO lead VALUES (1, 'web', '2024-01-05', NULL), (2, 'web', '2024-02-01', '2024-02-02 10:00:00'),
                        (3, 'door', '2024-02-03', NULL), (4, 'web', '2024-03-01', NULL),
                        (5, 'door', '2024-03-09', '2024-04-01 09:00:00');
"""


@pytest.fixture(scope="module")
def leads(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("deleted"), "leads", DELETED) as work:
        yield work


def test_rows_with_a_deleted_date_are_left_out(leads):
    """A soft delete ('deleted at' set) takes the row away for the business, as a test flag does."""
    assert_reads_as(leads, "leads by source in 2024",
                    "SELECT lead_source, count(*) FROM lead WHERE deleted_at IS NULL GROUP BY 1")
