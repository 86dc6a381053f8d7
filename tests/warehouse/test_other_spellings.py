"""One thing typed two ways in the source system ('Bluewater Analytics', 'Blue Water Analytics'; 'Water
Damage', 'water dmg') is one value to the reader: naming either means both. And the things' own names are
read even when there are hundreds of them, as people name their customers."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

_ACCOUNTS = ", ".join(f"({i}, 'Account Number {i}')" for i in range(3, 403))
SCHEMA = f"""
CREATE TABLE account (account_id INTEGER PRIMARY KEY, account_name VARCHAR NOT NULL);
CREATE TABLE claim (claim_id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES account (account_id),
                    claim_type VARCHAR NOT NULL);
INSERT INTO account VALUES (1, 'Bluewater Analytics'), (2, 'Blue Water Analytics'), {_ACCOUNTS};
INSERT INTO claim VALUES (1, 1, 'Water Damage'), (2, 2, 'water dmg'), (3, 2, 'Theft'), (4, 3, 'Fire'),
                         (5, 1, 'Theft'), (6, 4, 'Water Damage');
"""


@pytest.fixture(scope="module")
def claims(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("other_spellings"), "claims", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", ["how many water damage claims", "how many claims were water dmg"])
def test_a_value_typed_two_ways_is_both(claims, question):
    assert_reads_as(claims, question, "SELECT count(*) FROM claim WHERE claim_type IN ('Water Damage', 'water dmg')")


@pytest.mark.parametrize("said", ["bluewater analytics", "blue water analytics"])
def test_a_name_typed_two_ways_is_one_thing_among_hundreds(claims, said):
    assert_reads_as(claims, f"how many claims has {said} made",
                    "SELECT count(*) FROM claim JOIN account USING (account_id) "
                    "WHERE account_name IN ('Bluewater Analytics', 'Blue Water Analytics')")


def test_names_that_read_differently_stay_apart(claims):
    read = extract_intent("how many claims has account number 3 made", claims.semantic, claims.values)
    assert read.intent is not None and [f.values for f in read.intent.filters] == [["Account Number 3"]], read
