"""A CRM's warehouse read by its URL alone: 'tickets' for support_tickets (the last word of a table's name), what
a table's comment says one row is ('One row per customer company': customers, clients), 'CSAT' for a
satisfaction score, 'revenue' for the amount of invoices, a dropped letter ('acounts'), and the data's own
name ('in our CRM', its schema) never taken for a value."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE SCHEMA crm;
CREATE TABLE crm.accounts (account_id INTEGER PRIMARY KEY, company_name VARCHAR NOT NULL, industry VARCHAR NOT NULL,
                           country VARCHAR NOT NULL);
COMMENT ON TABLE crm.accounts IS 'One row per customer company';
CREATE TABLE crm.support_tickets (ticket_id INTEGER PRIMARY KEY,
                                  account_id INTEGER NOT NULL REFERENCES crm.accounts (account_id),
                                  priority VARCHAR NOT NULL, satisfaction_score SMALLINT);
CREATE TABLE crm.invoices (invoice_id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES crm.accounts (account_id),
                           amount DECIMAL(10, 2) NOT NULL, issued_date DATE NOT NULL);
INSERT INTO crm.accounts VALUES (1, 'Acme Ltd', 'Retail', 'France'), (2, 'Birch AG', 'Media', 'Germany'),
                                (3, 'Cobalt SA', 'Retail', 'France');
INSERT INTO crm.support_tickets VALUES (1, 1, 'urgent', 5), (2, 1, 'low', 3), (3, 2, 'urgent', NULL), (4, 3, 'low', 4);
INSERT INTO crm.invoices VALUES (1, 1, 100, DATE '2023-01-05'), (2, 2, 250, DATE '2022-02-01'),
                                (3, 3, 80, DATE '2023-03-09'), (4, 1, 100, DATE '2023-02-05');
"""


@pytest.fixture(scope="module")
def crm(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("crm_words"), "company", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("how many tickets are there", "SELECT count(*) FROM crm.support_tickets"),
    ("how many customers do we have", "SELECT count(*) FROM crm.accounts"),
    ("how many clients are in our CRM", "SELECT count(*) FROM crm.accounts"),
    ("acounts per country pls", "SELECT country, count(*) FROM crm.accounts GROUP BY 1"),
    ("whats our avg CSAT", "SELECT avg(satisfaction_score) FROM crm.support_tickets"),
    ("revenue by industry", "SELECT a.industry, sum(i.amount) FROM crm.invoices i JOIN crm.accounts a USING (account_id) "
                            "GROUP BY 1"),
])
def test_a_crms_words(crm, question, sql):
    assert_reads_as(crm, question, sql)


@pytest.mark.parametrize(("question", "sql"), [
    ("revenue in 2022 and 2023", "SELECT year(issued_date), sum(amount) FROM crm.invoices WHERE year(issued_date) "
                                 "IN (2022, 2023) GROUP BY 1"),
    ("revenue 2023 vs 2022", "SELECT year(issued_date), sum(amount) FROM crm.invoices WHERE year(issued_date) "
                             "IN (2022, 2023) GROUP BY 1"),
    ("how much did revenue grow from 2022 to 2023",
     "SELECT sum(amount) FILTER (WHERE year(issued_date) = 2023) - sum(amount) FILTER (WHERE year(issued_date) = 2022) "
     "FROM crm.invoices"),
    ("how much did revenue grow in 2023 vs 2022, in percent?",
     "SELECT 100.0 * (sum(amount) FILTER (WHERE year(issued_date) = 2023) - sum(amount) FILTER "
     "(WHERE year(issued_date) = 2022)) / sum(amount) FILTER (WHERE year(issued_date) = 2022) FROM crm.invoices"),
])
def test_two_years_side_by_side_and_the_change_between_them(crm, question, sql):
    assert_reads_as(crm, question, sql)


def test_the_busiest_thing_is_ranked_by_the_rows_that_point_at_it(crm):
    # invoices are the one dated table pointing at accounts: their rows rank the accounts, named ('customer
    # company', as the table's comment calls its rows)
    sql = ("SELECT a.company_name, count(*) n FROM crm.invoices i JOIN crm.accounts a USING (account_id) "
           "GROUP BY 1 ORDER BY n DESC LIMIT 1")
    assert_reads_as(crm, "which is our busiest customer", sql, leading=True)
