"""'corn' where the crop's code is CORN and its name Corn names one crop either way: it is read as the name,
not asked about; a word two different columns hold ('Dallas' as a customer's city and a site's) still is."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE crops (crop_id INTEGER PRIMARY KEY, crop_code VARCHAR NOT NULL, crop_name VARCHAR NOT NULL);
CREATE TABLE sites (site_id INTEGER PRIMARY KEY, site_name VARCHAR NOT NULL, city VARCHAR NOT NULL);
CREATE TABLE deliveries (delivery_id INTEGER PRIMARY KEY, crop_id INTEGER NOT NULL REFERENCES crops (crop_id),
                         site_id INTEGER NOT NULL REFERENCES sites (site_id), ship_city VARCHAR NOT NULL,
                         moisture DOUBLE NOT NULL);
INSERT INTO crops VALUES (1, 'CORN', 'Corn'), (2, 'WWHT', 'Winter Wheat'), (3, 'BARL', 'Barley');
INSERT INTO sites VALUES (1, 'North yard', 'Dallas'), (2, 'South yard', 'Austin');
INSERT INTO deliveries VALUES (1, 1, 1, 'Austin', 15.0), (2, 1, 2, 'Dallas', 17.0), (3, 2, 1, 'Dallas', 13.0),
                              (4, 3, 2, 'Austin', 12.0), (5, 1, 2, 'Austin', 16.0);
"""


@pytest.fixture(scope="module")
def farm(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("code_name"), "farm", SCHEMA) as work:
        yield work


def test_a_code_spelt_as_its_name_is_the_name(farm):
    assert_reads_as(farm, "average moisture of corn deliveries",
                    "SELECT avg(moisture) FROM deliveries d JOIN crops c USING (crop_id) WHERE c.crop_name = 'Corn'")


def test_a_word_two_other_columns_hold_is_still_asked_about(farm):
    read = extract_intent("average moisture for dallas", farm.semantic, farm.values)
    assert read.intent is None and read.ambiguous, read
