"""The warehouse: where queries run (DuckDB by default, servers by WAREHOUSE_URL)."""

from agent.warehouse.base import Column, ForeignKey, Limits, QueryResult, Schema, TableInfo, Warehouse
from agent.warehouse.engine import open_warehouse

__all__ = ["Column", "ForeignKey", "Limits", "QueryResult", "Schema", "TableInfo", "Warehouse", "open_warehouse"]
