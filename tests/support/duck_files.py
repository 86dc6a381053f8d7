"""Small DuckDB warehouses made from a schema text, for tests that read a warehouse with its URL alone."""

from __future__ import annotations

from pathlib import Path

import duckdb


def duckdb_file(folder: Path, name: str, schema: str) -> Path:
    """`folder/name.duckdb` made from `schema` (SQL statements), closed so the product opens it itself."""
    path = folder / f"{name}.duckdb"
    con = duckdb.connect(str(path))
    try:
        con.execute(schema)
    finally:
        con.close()
    return path
