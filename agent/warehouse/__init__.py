"""The warehouse: where queries run (DuckDB by default, servers by WAREHOUSE_URL)."""

from agent.warehouse.base import (
    Column,
    ForeignKey,
    Limits,
    PermissionDeniedError,
    QueryResult,
    Schema,
    TableInfo,
    Warehouse,
    WarehouseUnavailableError,
)
from agent.warehouse.engine import open_warehouse

__all__ = [
    "Column",
    "ForeignKey",
    "Limits",
    "PermissionDeniedError",
    "QueryResult",
    "Schema",
    "TableInfo",
    "Warehouse",
    "WarehouseUnavailableError",
    "open_warehouse",
]
