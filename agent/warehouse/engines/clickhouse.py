"""ClickHouse: readonly sessions and max_execution_time (clickhouse-connect passes unknown URL
parameters to the server as settings), temporary disk bounded by max_temporary_data_on_disk_size;
EXPLAIN ESTIMATE gives the rows each table's read would take from its parts."""

from __future__ import annotations

from typing import Any

from agent.warehouse.engines.base import PlanSize, ServerEngine, SessionLimits, finite


class ClickHouse(ServerEngine):
    key = "clickhouse"
    label = "ClickHouse"
    dialect = "clickhouse"
    extra = "clickhouse"
    module = "clickhouse_connect"
    driver = "clickhousedb"
    schemes = ("clickhouse", "clickhousedb")

    def url_params(self, limits: SessionLimits) -> dict[str, str]:
        params = {"readonly": "1", "max_execution_time": str(limits.seconds), "timeout_overflow_mode": "throw",
                  "connect_timeout": str(limits.connect_seconds)}
        if limits.temp_disk_bytes:
            params["max_temporary_data_on_disk_size_for_query"] = str(limits.temp_disk_bytes)
        return params

    def row_estimates(self, schemas: list[str]) -> tuple[str, dict[str, Any]] | None:
        return ("SELECT database, name, total_rows FROM system.tables WHERE database IN %(s)s",
                {"s": tuple(schemas)})

    def plan_statement(self, sql: str) -> str | None:
        return "EXPLAIN ESTIMATE " + sql

    def plan_size(self, columns: list[str], rows: list[tuple[Any, ...]]) -> PlanSize | None:
        """One row per table read (database, table, parts, rows, marks): the rows read, added up. A join
        with no condition is priced by the query's shape (agent.warehouse.cost), not here."""
        column = [name.lower() for name in columns].index("rows")
        reads = [n for n in (finite(row[column]) for row in rows) if n is not None]
        return PlanSize(rows=sum(reads)) if reads else None
