"""A column of size letters ('S', 'M', 'L', 'XL') is said in words: 'large coffees' is size L; where the
column holds other values too, the words name nothing."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped
from agent.semantic.nlq.extract import extract_intent

SCHEMA = """
CREATE TABLE cups (cup_id INTEGER PRIMARY KEY, size VARCHAR NOT NULL, drink VARCHAR NOT NULL, price DECIMAL(5,2) NOT NULL);
CREATE TABLE boxes (box_id INTEGER PRIMARY KEY, grade VARCHAR NOT NULL);
INSERT INTO cups VALUES (1, 'S', 'Latte', 3.0), (2, 'M', 'Latte', 3.5), (3, 'L', 'Mocha', 4.5), (4, 'L', 'Latte', 4.0),
                        (5, 'XL', 'Mocha', 5.0);
INSERT INTO boxes VALUES (1, 'L'), (2, 'Premium'), (3, 'M');
"""

QUESTIONS = {
    "how many large cups are there?": "SELECT count(*) FROM cups WHERE size = 'L'",
    "average price of an extra large cup": "SELECT avg(price) FROM cups WHERE size = 'XL'",
}


@pytest.fixture(scope="module")
def cafe(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("sizes"), "cafe", SCHEMA) as work:
        yield work


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_size_words_name_size_letters(cafe, question):
    assert_reads_as(cafe, question, QUESTIONS[question])


def test_size_words_name_nothing_in_a_column_of_other_values(cafe):
    read = extract_intent("how many large boxes are there?", cafe.semantic, cafe.values)
    assert read.intent is None or not any(f.field == "grade" for f in read.intent.filters), read.intent
