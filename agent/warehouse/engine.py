"""Open the warehouse WAREHOUSE_URL names: the embedded demo, a DuckDB file, or a server."""

from __future__ import annotations

from pathlib import Path

from agent.errors import WarehouseError
from agent.settings import Settings
from agent.warehouse.base import Column, QueryResult, Schema, Warehouse
from agent.warehouse.demo import ensure_demo_warehouse
from agent.warehouse.duck import DuckDBWarehouse
from agent.warehouse.urls import duckdb_path, engine_of, mask_passwords_in_logs, require_extra

__all__ = ["Column", "QueryResult", "Schema", "Warehouse", "open_warehouse"]


def open_warehouse(settings: Settings) -> Warehouse:
    """The configured warehouse; nothing connects yet for servers (start-up never hangs)."""
    mask_passwords_in_logs()
    url = settings.warehouse_url
    if not url:
        return DuckDBWarehouse(ensure_demo_warehouse(settings.data_dir), settings, is_demo=True)
    engine = engine_of(url)
    if engine is None:
        path = duckdb_path(url)
        if not Path(path).exists():
            raise WarehouseError(f"WAREHOUSE_URL points at {path}, which does not exist.")
        return DuckDBWarehouse(path, settings, url=url)
    require_extra(engine)  # a missing driver is a sentence, not the ImportError of the import below
    from agent.warehouse.sql_engine import SqlAlchemyWarehouse  # needs SQLAlchemy: server installs only

    return SqlAlchemyWarehouse(url, engine, settings)
