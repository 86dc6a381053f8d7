"""Values of text columns on a wide warehouse: the most telling columns are read at start-up
(every table's first, short codes before free text), the rest in the background, bounded, and
the catalog people search is swapped for the complete one when it is read."""

from __future__ import annotations

import logging

import duckdb
import pytest

from agent.catalog.introspected import LiveCatalog, value_targets
from agent.settings import load_settings
from agent.warehouse import Column, Schema, TableInfo, open_warehouse

TABLES, TEXT_COLUMNS = 12, 5


@pytest.fixture
def wide(tmp_path):
    """12 tables of 5 low-cardinality text columns each: 60 columns, more than the start-up share."""
    path = tmp_path / "wide.duckdb"
    con = duckdb.connect(str(path))
    for t in range(TABLES):
        columns = ", ".join(f"c{i} VARCHAR" for i in range(TEXT_COLUMNS))
        con.execute(f"CREATE TABLE t{t:02d} (id INTEGER, {columns})")
        values = ", ".join(f"'v{t}_{i}_' || (i % 3)" for i in range(TEXT_COLUMNS))
        con.execute(f"INSERT INTO t{t:02d} SELECT i, {values} FROM range(30) r(i)")
    con.close()
    settings = load_settings(_env_file=None, data_dir=tmp_path, warehouse_url=f"duckdb://{path}", openai_api_key=None,
                             redis_url=None, slack_bot_token=None)
    wh = open_warehouse(settings)
    yield wh
    wh.close()


def _with_values(catalog) -> set[tuple[str, str]]:
    return {(t, c) for t, table in catalog.data.tables.items() for c, doc in table.columns.items() if doc.values}


def test_every_table_gets_its_first_text_column_before_any_gets_a_second():
    schema = Schema(
        tables={
            "wide": [Column("notes", "TEXT"), Column("code", "VARCHAR(8)"), Column("size", "INTEGER"),
                     Column("status", "ENUM('a', 'b')"), Column("remark", "VARCHAR")],
            "lookup": [Column("name", "VARCHAR(40)"), Column("label", "VARCHAR(200)")],
            "big": [Column("kind", "VARCHAR(10)")],
        },
        info={"lookup": TableInfo("main", "lookup", row_estimate=10), "wide": TableInfo("main", "wide", row_estimate=1000),
              "big": TableInfo("main", "big", row_estimate=10**7)},
    )
    order = value_targets(schema)
    assert order[:3] == [("lookup", "name"), ("wide", "code"), ("big", "kind")]  # short types, small tables first
    assert order[3:] == [("wide", "status"), ("lookup", "label"), ("wide", "notes"), ("wide", "remark")]
    assert ("wide", "size") not in order


def test_the_rest_is_read_in_the_background_and_swapped_in(wide, caplog):
    caplog.set_level(logging.INFO, logger="agent.catalog.introspected")
    live = LiveCatalog(wide, None, start_columns=TABLES)
    first = _with_values(live.current())
    # at start-up: one column of every table, not five columns of the first tables
    assert len(first) == TABLES and {t for t, _ in first} == {f"t{t:02d}" for t in range(TABLES)}
    assert live.completion is not None
    live.completion.join(timeout=120)
    assert not live.completion.is_alive()
    assert live.version == 1 and len(_with_values(live)) == TABLES * TEXT_COLUMNS
    assert live.data.tables["t03"].columns["c4"].values == ["v3_4_0", "v3_4_1", "v3_4_2"]
    assert any("reading the other 48 in the background" in r.getMessage() for r in caplog.records)
    assert any("48/48 background columns read" in r.getMessage() for r in caplog.records)


def test_the_background_is_bounded_and_stops_when_closed(wide, caplog):
    caplog.set_level(logging.INFO, logger="agent.catalog.introspected")
    bounded = LiveCatalog(wide, None, start_columns=TABLES, background_columns=TABLES)
    bounded.completion.join(timeout=120)
    assert len(_with_values(bounded)) == 2 * TABLES
    assert any("values of 36 text columns will not be read" in r.getMessage() for r in caplog.records)
    closed = LiveCatalog(wide, None, start_columns=TABLES)
    closed.close()
    closed.completion.join(timeout=120)
    assert not closed.completion.is_alive() and closed.version == 0
