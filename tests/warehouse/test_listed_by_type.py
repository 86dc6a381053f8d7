"""A thing with no name of its own is listed by its type's name: 'list the deluxe rooms' where rooms are
(room type, floor) rows and the room types have the names; a thing with no name and no table of its types
is asked about."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import bootstrapped
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent

SCHEMA = """
CREATE TABLE room_types (room_type_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, tier VARCHAR NOT NULL);
CREATE TABLE rooms (room_id INTEGER PRIMARY KEY, room_type_id INTEGER NOT NULL REFERENCES room_types (room_type_id),
                    floor INTEGER NOT NULL, nightly_rate DECIMAL(8,2) NOT NULL);
CREATE TABLE parcels (parcel_id INTEGER PRIMARY KEY, weight_kg DECIMAL(6,2) NOT NULL, zone VARCHAR NOT NULL);
INSERT INTO room_types VALUES (1, 'Garden Suite', 'Deluxe'), (2, 'Sky Loft', 'Deluxe'), (3, 'Twin', 'Standard');
INSERT INTO rooms VALUES (1, 1, 1, 300), (2, 1, 2, 310), (3, 2, 9, 420), (4, 3, 1, 90), (5, 3, 2, 95);
INSERT INTO parcels VALUES (1, 2.0, 'North'), (2, 3.5, 'South');
"""


@pytest.fixture(scope="module")
def hotel(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("types"), "hotel", SCHEMA) as work:
        yield work


def test_a_thing_without_a_name_is_listed_by_its_types_name(hotel):
    read = extract_intent("list the deluxe rooms", hotel.semantic, hotel.values)
    assert read.intent is not None, read.reason
    got = hotel.warehouse.run(compile_intent(read.intent, hotel.semantic).sql)
    want = hotel.warehouse.run("SELECT name FROM room_types WHERE tier = 'Deluxe'")
    names = [row[:1] for row in got.rows]
    assert rows_match(want.columns, want.rows, want.columns, names, ordered=False), got.rows


def test_a_thing_without_a_name_or_a_type_is_asked_about(hotel):
    read = extract_intent("list the parcels", hotel.semantic, hotel.values)
    assert read.intent is None or read.intent.dimensions != ["zone"], read.intent
