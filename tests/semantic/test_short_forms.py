"""Short forms a warehouse explains in its own comments ('rntl': Rental agreements), read as the words
they stand for; a warehouse using them is asked about in those words."""

from __future__ import annotations

import pytest

from agent.semantic.model.short_forms import short_forms_in_comments
from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped


@pytest.mark.parametrize(("name", "comment", "expected"), [
    ("rntl", "Rental agreements: one row per vehicle handed to a customer", {"rntl": "rental"}),
    ("dmg_clm", "Damage claims raised on a rental", {"dmg": "damage", "clm": "claim"}),
    ("pu_dt", "pickup date/time", {"pu": "pickup", "dt": "date"}),  # two letters: the word in the same place
    ("ldw_ind", "Y = customer bought the loss damage waiver (LDW)", {"ldw": "loss damage waiver"}),
    ("br_rgn", "Branch regions", {"br": "branch", "rgn": "region"}),
    ("dist", "Distributors that deliver our kegs", {"dist": "distributor"}),  # a word the dictionary lacks
])
def test_a_short_form_is_read_from_its_comment(name, comment, expected):
    assert short_forms_in_comments([(name, comment)], {}) == expected


@pytest.mark.parametrize(("name", "comment"), [
    ("status", "O = open, C = closed"),  # a word, no short form
    ("dt_x", "the day the row was made"),  # 'dt' is no abbreviation of the word in its place
    ("xq", "extra queue"),  # two initials fit too many pairs of words
    ("closed_at", "closing application date"),  # 'at' is a grammar word, not 'application'
    ("cd", "card"),  # known already: the vocabulary's reading stands
])
def test_no_short_form_is_made_up(name, comment):
    assert short_forms_in_comments([(name, comment)], {"cd": "code"}) == {}


SCHEMA = """
CREATE TABLE branch (br_cd VARCHAR PRIMARY KEY, br_nm VARCHAR NOT NULL, br_typ_cd VARCHAR NOT NULL,
                     city_nm VARCHAR NOT NULL);
COMMENT ON TABLE branch IS 'Rental branches (locations)';
COMMENT ON COLUMN branch.br_typ_cd IS 'AP = airport location, DT = downtown location';
CREATE TABLE rntl (rntl_id INTEGER PRIMARY KEY, pu_br_cd VARCHAR NOT NULL REFERENCES branch (br_cd),
                   pu_dt TIMESTAMP NOT NULL, chg INTEGER NOT NULL);
COMMENT ON COLUMN rntl.chg IS 'charges';
COMMENT ON TABLE rntl IS 'Rental agreements: one row per vehicle handed to a customer';
COMMENT ON COLUMN rntl.pu_dt IS 'pickup date/time';
CREATE TABLE dist (dist_id INTEGER PRIMARY KEY, dist_nm VARCHAR NOT NULL);
COMMENT ON TABLE dist IS 'Distributors that deliver our vehicles to branches';
INSERT INTO dist VALUES (1, 'Northway'), (2, 'Coastline');
INSERT INTO branch VALUES ('BOS', 'Boston Logan', 'AP', 'Boston'), ('MIA', 'Miami Intl', 'AP', 'Miami'),
                          ('CAM', 'Cambridge', 'DT', 'Boston');
INSERT INTO rntl VALUES (1, 'BOS', '2023-05-01 10:00', 120), (2, 'BOS', '2024-01-02 09:00', 80),
                        (3, 'MIA', '2024-02-03 08:00', 95), (4, 'MIA', '2024-03-04 12:00', 60);
"""


@pytest.fixture(scope="module")
def rentals(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("short_forms"), "rentals", SCHEMA) as work:
        yield work


def test_a_table_named_by_a_short_form_is_asked_about_in_its_word(rentals):
    assert_reads_as(rentals, "how many rentals did we do in 2024", "SELECT count(*) FROM rntl WHERE year(pu_dt) = 2024")


def test_a_tables_own_comment_explains_its_name_before_the_vocabulary(rentals):
    # the vocabulary reads 'dist' as distance; the table's own comment says its rows are distributors
    assert_reads_as(rentals, "how many distributors do we have", "SELECT count(*) FROM dist")


def test_things_named_by_a_value_ending_in_their_word_are_listed(rentals):
    """'airport locations': a branch type's label ending in a word for branches; 'nm' is a name."""
    assert_reads_as(rentals, "list our airport locations pls", "SELECT br_nm FROM branch WHERE br_typ_cd = 'AP'",
                    leading=True)


def test_the_one_thing_named_by_a_value_several_hold_is_asked_about(rentals):
    """'the boston branch' where two branches are in Boston: which one; 'rentals in boston' is both."""
    read = extract_intent("how many rentals did the boston branch do", rentals.semantic, rentals.values)
    assert read.intent is None and read.ambiguous and read.ambiguous[0].options == ["Boston Logan", "Cambridge"], read
    assert_reads_as(rentals, "how many rentals did the Cambridge branch do",
                    "SELECT count(*) FROM rntl WHERE pu_br_cd = 'CAM'")
    assert_reads_as(rentals, "how many rentals in boston",
                    "SELECT count(*) FROM rntl JOIN branch ON br_cd = pu_br_cd WHERE city_nm = 'Boston'")


def test_a_measures_comment_explains_its_short_form(rentals):
    # 'chg' is commented 'charges' on the measure only: the metric is called by that word
    assert_reads_as(rentals, "total charges in 2024", "SELECT sum(chg) FROM rntl WHERE year(pu_dt) = 2024")
