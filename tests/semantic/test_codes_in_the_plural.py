"""A code said in the plural ('how many DVDs') is that code, as a word in the plural is its noun; not when
other codes of the column hold it ('DIPA', 'NEIPA' beside 'IPA': 'IPAs' may mean them all, so it is asked)."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE title (title_id INTEGER PRIMARY KEY, format_cd VARCHAR(3) NOT NULL, added_on DATE NOT NULL);
CREATE TABLE beer (beer_id INTEGER PRIMARY KEY, style_cd VARCHAR(5) NOT NULL, abv DOUBLE NOT NULL);
INSERT INTO title VALUES (1, 'DVD', '2024-01-02'), (2, 'BK', '2024-01-09'), (3, 'DVD', '2024-02-02'),
                         (4, 'BK', '2024-02-09'), (5, 'CD', '2024-03-01');
INSERT INTO beer VALUES (1, 'IPA', 6.5), (2, 'DIPA', 8.5), (3, 'STT', 5.0), (4, 'NEIPA', 6.8);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("plural_codes"), "plural_codes", SCHEMA) as work:
        yield work


def test_a_code_in_the_plural_is_that_code(shop):
    assert_reads_as(shop, "how many DVDs do we have", "SELECT count(*) FROM title WHERE format_cd = 'DVD'")


def test_a_code_other_codes_hold_is_not_read_in_the_plural(shop):
    read = extract_intent("average abv of our IPAs", shop.semantic, shop.values)
    assert read.intent is None or all("IPA" not in f.values for f in read.intent.filters)
