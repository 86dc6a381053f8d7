"""Trino (and Presto by URL): session properties bound each query's run and execution time."""

from __future__ import annotations

from typing import Any

from agent.warehouse.engines.base import ServerEngine, SessionLimits


class Trino(ServerEngine):
    key = "trino"
    label = "Trino"
    dialect = "trino"
    extra = "trino"
    module = "trino.sqlalchemy"
    driver = "trino"
    schemes = ("trino", "presto")

    def connect_args(self, limits: SessionLimits) -> dict[str, Any]:
        return {
            "session_properties": {"query_max_run_time": f"{limits.seconds}s",
                                   "query_max_execution_time": f"{limits.seconds}s"},
            "request_timeout": limits.seconds * 3 + 5,
        }
