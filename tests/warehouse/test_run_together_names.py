"""Names with no case or underscore left ('orderdetails', 'pizzatypeid', 'yearid'), as a copy made by a tool
that folds case leaves them: split where English words meet (wordfreq's frequencies), a word English knows
kept whole ('invoice', 'hometown'), a code or an abbreviation left alone; then read like any other name."""

from __future__ import annotations

import pytest

from agent.text.words import split_name
from tests.support.small_warehouse import assert_reads_as, bootstrapped


@pytest.mark.parametrize("name, words", [
    ("orderdetails", "order details"),
    ("orderdetailid", "order detail id"),
    ("yearid", "year id"),
    ("worklifebalance", "work life balance"),
    ("yearsatcompany", "years at company"),
    ("isrunnerup", "is runner up"),
    ("showstopperbake", "showstopper bake"),
    ("viewers7day", "viewers 7 day"),
    ("ukairdate", "uk air date"),
    ("pizzaTypeId", "pizza type id"),  # camelCase as before
    ("invoice", "invoice"),  # a word of its own, never 'in voice'
    ("hometown", "hometown"),
    ("acctbal", "acctbal"),  # an abbreviation: left to the abbreviations list
    ("lgid", "lgid"),
    ("technicaltop3", "technical top 3"),
    ("c_2b", "c 2b"),  # a letter after digits stays a code
])
def test_a_run_together_name_is_split_where_english_words_meet(name, words):
    assert split_name(name) == words


SCHEMA = """
CREATE TABLE pizzatypes (pizzatypeid VARCHAR PRIMARY KEY, pizzaname VARCHAR NOT NULL, category VARCHAR NOT NULL);
CREATE TABLE orders (orderid INTEGER PRIMARY KEY, orderdate DATE NOT NULL);
CREATE TABLE orderdetails (orderdetailid INTEGER PRIMARY KEY, orderid INTEGER NOT NULL REFERENCES orders (orderid),
                           pizzatypeid VARCHAR NOT NULL REFERENCES pizzatypes (pizzatypeid),
                           quantity INTEGER NOT NULL, unitprice DECIMAL(6, 2) NOT NULL);
INSERT INTO pizzatypes VALUES ('bbq', 'Barbecue Chicken', 'Chicken'), ('veg', 'Garden Veggie', 'Veggie'),
                              ('pep', 'Pepperoni', 'Classic');
INSERT INTO orders VALUES (1, '2015-01-03'), (2, '2015-01-04'), (3, '2015-02-07'), (4, '2015-03-01');
INSERT INTO orderdetails VALUES (1, 1, 'bbq', 2, 16.75), (2, 1, 'pep', 1, 12.00), (3, 2, 'veg', 3, 14.50),
                                (4, 3, 'bbq', 1, 16.75), (5, 4, 'pep', 4, 12.00), (6, 4, 'veg', 1, 14.50);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("run_together"), "lowercased_shop", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question, sql", [
    ("how many orders did we take in january?", "SELECT count(*) FROM orders WHERE month(orderdate) = 1"),
    ("total quantity sold by pizza name",
     "SELECT t.pizzaname, sum(d.quantity) FROM orderdetails d JOIN pizzatypes t USING (pizzatypeid) GROUP BY 1"),
    ("average unit price by category",
     "SELECT t.category, avg(d.unitprice) FROM orderdetails d JOIN pizzatypes t USING (pizzatypeid) GROUP BY 1"),
])
def test_a_lower_cased_warehouse_reads_as_its_camel_case_original(shop, question, sql):
    assert_reads_as(shop, question, sql)


SEASONS = """
CREATE TABLE teams (yearid INTEGER NOT NULL, teamid VARCHAR NOT NULL, name VARCHAR NOT NULL, w INTEGER NOT NULL,
                    attendance INTEGER NOT NULL, PRIMARY KEY (yearid, teamid));
INSERT INTO teams VALUES (2015, 'CHN', 'Chicago Cubs', 97, 2959812), (2015, 'NYA', 'New York Yankees', 87, 3193795),
                         (2016, 'CHN', 'Chicago Cubs', 103, 3232420), (2016, 'NYA', 'New York Yankees', 84, 3063405);
"""


@pytest.fixture(scope="module")
def seasons(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("seasons"), "season_keys", SEASONS) as work:
        yield work


def test_a_year_in_a_key_is_what_a_year_filters(seasons):
    # 'yearid' is part of the key; its values are years, so 'in 2016' is about it (the table has no date)
    assert_reads_as(seasons, "total attendance in 2016", "SELECT sum(attendance) FROM teams WHERE yearid = 2016")


def test_millions_and_billions_said_short():
    from agent.text.phrases import tokenize

    assert [t.number for t in tokenize("over 100m or 2bn")] == [None, 1e8, None, 2e9]
