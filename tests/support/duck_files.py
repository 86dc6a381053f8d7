"""Small DuckDB warehouses made from a schema text, for tests that read a warehouse with its URL alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def bootstrapped(folder: Path, name: str, schema: str, **settings: str) -> tuple[Any, Any, Any]:
    """A DuckDB warehouse nobody modelled, made from `schema`, as `catalog init` bootstraps it: (semantic
    model, value index, open warehouse). The caller closes the warehouse."""
    from agent.catalog.commands import init
    from agent.semantic.model.layer import load_layer
    from agent.semantic.model.values import ValueIndex
    from agent.settings import load_settings
    from agent.warehouse import open_warehouse

    path = duckdb_file(folder, name, schema)
    loaded = load_settings(warehouse_url=f"duckdb://{path}", data_dir=str(folder / "data"), **settings)
    init(loaded, folder / "catalog")
    model = load_layer(folder / "catalog" / "semantic")
    warehouse = open_warehouse(loaded)
    return model, ValueIndex.from_warehouse(warehouse, model), warehouse
