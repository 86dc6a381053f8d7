"""A table's comment names its rows ('Depots, also called hubs'), and the things counted are grouped by their
own attribute before one reached through other rows ('customers in each region': the region of their state,
not of the agent who sold to them). On a small insurer bootstrapped from its schema alone."""

from __future__ import annotations

import pytest

from agent.semantic.model.row_names import placeholder_description, row_names
from tests.support.small_warehouse import assert_reads_as, bootstrapped


@pytest.mark.parametrize(("comment", "names"), [
    ("Depots, also called hubs: our cross-dock terminals", ["depot", "hub"]),
    ("Lanes (routes) we run: one origin hub to one destination hub", ["lane", "route"]),
    ("Shipments, a.k.a. loads: one row per load a customer booked", ["shipment", "load"]),
    ("Suppliers we buy from", ["supplier"]),
    ("Point-of-sale lines (museum stores / gift shops)", ["museum store", "gift shop"]),  # 'lines' names nothing
    ("One row per club (gym location)", ["club", "gym location"]),
    ("Keg deliveries, one row per delivery line", ["keg delivery"]),
    # what is said of the rows begins at a verb's -ing or -ed form after them: accounts, never 'receiving keg'
    ("Accounts receiving kegs: bars, shops, restaurants", ["account"]),
    ("Offers received on our listings", ["offer"]),
    ("Customer care cases logged in the CRM", ["care case"]),
    ("A member's booking of a group class", []),  # a possessive is no plural
])
def test_the_names_a_comment_gives_its_rows(comment, names):
    assert row_names(comment) == names


@pytest.mark.parametrize("comment", [
    "aircraft (manufacturer, model, engines, seats)",  # a list of what a row holds, not other names for it
    "One row per user and movie they rated",  # a row is a pair, named by neither
    "Catalogue records: one row per title",  # words of no thing in particular
    placeholder_description("bakers"),  # the bootstrap's own words, not the team's
])
def test_comments_that_name_no_rows(comment):
    assert row_names(comment) == []


SCHEMA = """
CREATE TABLE us_state (state_cd VARCHAR PRIMARY KEY, region_name VARCHAR NOT NULL);
COMMENT ON TABLE us_state IS 'US states and the sales region each belongs to';
CREATE TABLE agent (agent_id INTEGER PRIMARY KEY, agent_name VARCHAR NOT NULL, region VARCHAR NOT NULL);
COMMENT ON TABLE agent IS 'Brokers appointed to sell our policies';
CREATE TABLE policy_holder (holder_id INTEGER PRIMARY KEY, holder_name VARCHAR NOT NULL,
                            state_cd VARCHAR NOT NULL REFERENCES us_state (state_cd));
COMMENT ON TABLE policy_holder IS 'Our customers: one row per policy holder';
CREATE TABLE policy (policy_id INTEGER PRIMARY KEY, holder_id INTEGER NOT NULL REFERENCES policy_holder (holder_id),
                     agent_id INTEGER NOT NULL REFERENCES agent (agent_id), premium DECIMAL(8,2) NOT NULL);
COMMENT ON TABLE policy IS 'Policies, also called covers: one row per policy';
INSERT INTO us_state VALUES ('NY', 'Northeast'), ('TX', 'Southwest');
INSERT INTO agent VALUES (1, 'Ann Lee', 'Northeast'), (2, 'Bo Diaz', 'Southwest');
INSERT INTO policy_holder VALUES (10, 'Cy Park', 'NY'), (11, 'Di Ruiz', 'TX'), (12, 'Ed Moss', 'TX');
INSERT INTO policy VALUES (100, 10, 2, 900), (101, 11, 2, 1200), (102, 12, 1, 700), (103, 12, 2, 650);
"""


@pytest.fixture(scope="module")
def insurer(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("described_rows"), "insurer", SCHEMA) as work:
        yield work


def test_rows_are_counted_by_the_name_their_comment_gives(insurer):
    words = {t.name: t.entity_words for t in insurer.semantic.tables}
    assert "cover" in words["policy"] and "customer" in words["policy_holder"]
    assert_reads_as(insurer, "how many covers do we have", "SELECT count(*) FROM policy")


def test_things_counted_are_grouped_by_their_own_region(insurer):
    assert_reads_as(insurer, "number of customers in each region",
                    "SELECT s.region_name, count(*) FROM policy_holder h JOIN us_state s USING (state_cd) "
                    "GROUP BY s.region_name")


SHOP = """
CREATE TABLE store (store_id INTEGER PRIMARY KEY, store_name VARCHAR NOT NULL);
CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL REFERENCES store (store_id),
                    net_amount DECIMAL(8,2) NOT NULL);
INSERT INTO store VALUES (1, 'North'), (2, 'South');
INSERT INTO sales VALUES (1, 1, 10.5), (2, 1, 4.5), (3, 2, 30);
"""


def test_another_word_for_the_money_a_table_of_sales_brings_in_is_its_amount(tmp_path):
    # 'spend' is what 'sales' are from the buyer's side: their amount added up, not how many sales there were
    with bootstrapped(tmp_path, "shop", SHOP) as shop:
        assert_reads_as(shop, "total spend by store", "SELECT store_name, sum(net_amount) FROM sales "
                                                     "JOIN store USING (store_id) GROUP BY store_name")
        assert_reads_as(shop, "how many sales by store", "SELECT store_name, count(*) FROM sales "
                                                         "JOIN store USING (store_id) GROUP BY store_name")


def test_a_row_name_another_table_or_a_name_column_claims_is_not_taken():
    from agent.semantic.model.layer import _add_described_row_names

    tables = [
        {"name": "cust_acct", "entity_words": ["cust acct", "customer account"], "description": "Customer accounts"},
        {"name": "outage_acct", "entity_words": ["outage acct"], "description": "Accounts affected by each outage"},
        {"name": "prescriptions", "entity_words": ["prescription"], "description": "Drugs prescribed at a visit"},
        {"name": "ofr", "entity_words": ["ofr"], "description": "Offers received on our listings"},
    ]
    dimensions = {"rx_drug_name": {"label": "Rx drug name", "synonyms": []}}
    _add_described_row_names(tables, dimensions, {"name", "names"})
    words = {t["name"]: t["entity_words"] for t in tables}
    assert words["outage_acct"] == ["outage acct"]  # 'accounts' are the customer accounts' word
    assert words["prescriptions"] == ["prescription"]  # 'drugs' are what the drug name column names
    assert words["ofr"] == ["ofr", "offer"]
