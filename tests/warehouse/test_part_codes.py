"""A part number typed exactly as it is stored ('BV-21409') is a value of the warehouse, though the column
holds more values than a free-text column is read up to: codes are typed as they are, like the things' own
names, so they are read as far as those."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

# 600 parts: more than a column of free text is read up to (300), fewer than the things' names (1,500)
SCHEMA = """
CREATE TABLE parts (part_id INTEGER PRIMARY KEY, part_code VARCHAR NOT NULL, part_note VARCHAR NOT NULL,
                    unit_cost DECIMAL(10, 2) NOT NULL);
INSERT INTO parts SELECT i, CASE WHEN i % 2 = 0 THEN 'BV-' ELSE 'PC-' END || (20000 + i)::VARCHAR,
                         'note number ' || i::VARCHAR || ' about the part', 1 + i / 100.0
                  FROM range(1, 601) AS t(i);
"""


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("part_codes"), "parts", SCHEMA) as work:
        yield work


def test_a_part_code_typed_exactly_is_its_part(parts):
    assert_reads_as(parts, "whats the unit cost on BV-20422?",
                    "SELECT unit_cost FROM parts WHERE part_code = 'BV-20422'")


def test_free_text_with_as_many_values_is_still_not_read(parts):
    codes = [v for vs in parts.values.values.values() for v in vs if v.startswith("BV-")]
    notes = [v for vs in parts.values.values.values() for v in vs if "about the part" in v]
    assert len(codes) == 300 and not notes
