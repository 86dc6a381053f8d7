"""The reader's own words for what to do with the numbers ('average', 'total', 'top') are never a value of
the data when typed in lower case: reviews titled 'Average' or 'Top' do not make 'average rating' a
question about those reviews. Typed with its capital, as the data spells it, the title is still found."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import bootstrapped

SCHEMA = """
CREATE TABLE review (review_id INTEGER PRIMARY KEY, title VARCHAR NOT NULL, stars INTEGER NOT NULL);
INSERT INTO review VALUES (1, 'Average', 3), (2, 'Average', 2), (3, 'Loved it', 5), (4, 'Top', 5),
                          (5, 'Broke in a week', 1), (6, 'Would buy again', 4);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("reading_words"), "reading_words", SCHEMA) as work:
        yield work


def test_average_in_lower_case_is_the_average(shop):
    read = extract_intent("what's our average rating", shop.semantic, shop.values)
    assert read.intent is not None and not read.intent.filters, read.reason


def test_top_in_lower_case_ranks(shop):
    # not the review titled 'Top': the three with the most stars
    read = extract_intent("top 3 reviews by stars", shop.semantic, shop.values)
    assert read.intent is not None and not read.intent.filters and read.intent.limit == 3, read.reason


def test_a_value_spelt_as_the_data_spells_it_is_still_found(shop):
    read = extract_intent("how many reviews with the title Top", shop.semantic, shop.values)
    assert read.intent is not None, read.reason
    assert [(f.values) for f in read.intent.filters] == [["Top"]]
