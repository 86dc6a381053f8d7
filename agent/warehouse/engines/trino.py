"""Trino (and Presto by URL): session properties bound each query's run and execution time; the
logical plan in JSON gives each step's estimated output rows."""

from __future__ import annotations

import json
from typing import Any

from agent.warehouse.engines.base import PlanSize, ServerEngine, SessionLimits, finite


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

    def plan_statement(self, sql: str) -> str | None:
        return "EXPLAIN (TYPE LOGICAL, FORMAT JSON) " + sql

    def plan_size(self, columns: list[str], rows: list[tuple[Any, ...]]) -> PlanSize | None:
        """One row holding the plan tree; each node's `estimates` carry `outputRowCount`, "NaN" where
        the connector has no statistics. The largest stated one, or None when none is stated."""
        [(plan, *_)] = rows
        found = [n for n in _row_counts(json.loads(plan) if isinstance(plan, str) else plan) if n is not None]
        return PlanSize(rows=max(found)) if found else None


def _row_counts(node: dict[str, Any]) -> list[float | None]:
    counts = [finite(e.get("outputRowCount")) for e in node.get("estimates", [])]
    for child in node.get("children", []):
        counts.extend(_row_counts(child))
    return counts
