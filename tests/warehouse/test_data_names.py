"""People call the data by the schema it lives in: 'how many movies are in the catalog?' counts the
movies; a place the warehouse does not name is still a word nobody read."""

from __future__ import annotations

import duckdb

from agent.bootstrap import build_groundwork
from agent.semantic.nlq.extract import extract_intent
from tests.warehouse.conftest import server_settings


def test_the_schema_name_said_as_a_place_names_the_data(tmp_path):
    path = tmp_path / "films.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA catalog; CREATE TABLE catalog.movies (movie_id INTEGER PRIMARY KEY, title VARCHAR)")
    con.execute("INSERT INTO catalog.movies VALUES (1, 'Heat'), (2, 'Alien'), (3, 'Up')")
    con.close()
    work = build_groundwork(server_settings(tmp_path, f"duckdb:///{path}"))
    try:
        read = extract_intent("how many movies are in the catalog?", work.semantic, work.values)
        assert read.intent is not None and read.intent.metrics and not read.intent.filters, read
        elsewhere = extract_intent("how many movies are in the basement?", work.semantic, work.values)
        assert elsewhere.intent is None and "basement" in (elsewhere.reason or ""), elsewhere
    finally:
        work.warehouse.close()
