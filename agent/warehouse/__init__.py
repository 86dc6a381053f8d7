"""The warehouse: where queries run (DuckDB by default)."""

from agent.warehouse.engine import Column, QueryResult, Schema, Warehouse

__all__ = ["Column", "QueryResult", "Schema", "Warehouse"]
