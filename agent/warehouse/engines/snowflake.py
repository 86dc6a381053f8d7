"""Snowflake: STATEMENT_TIMEOUT_IN_SECONDS for the session, tagged queries, autocommit; EXPLAIN USING
JSON says how many bytes of micro-partitions a query would scan (Snowflake estimates no rows)."""

from __future__ import annotations

import json
from typing import Any

from agent.warehouse.engines.base import PlanSize, ServerEngine, SessionLimits, finite


class Snowflake(ServerEngine):
    key = "snowflake"
    label = "Snowflake"
    dialect = "snowflake"
    extra = "snowflake"
    module = "snowflake.sqlalchemy"
    driver = "snowflake"
    schemes = ("snowflake",)

    def connect_args(self, limits: SessionLimits) -> dict[str, Any]:
        return {
            "session_parameters": {
                "STATEMENT_TIMEOUT_IN_SECONDS": limits.seconds,
                "QUERY_TAG": "slack-data-assistant",
                "AUTOCOMMIT": True,
            },
            "login_timeout": limits.connect_seconds,
            "network_timeout": limits.seconds * 3 + 5,
        }

    def plan_statement(self, sql: str) -> str | None:
        return "EXPLAIN USING JSON " + sql

    def plan_size(self, columns: list[str], rows: list[tuple[Any, ...]]) -> PlanSize | None:
        """One row holding {"GlobalStats": {"bytesAssigned": …}, "Operations": …}: the bytes to scan."""
        [(plan, *_)] = rows
        stats = (json.loads(plan) if isinstance(plan, str) else plan).get("GlobalStats", {})
        scanned = finite(stats.get("bytesAssigned"))
        return PlanSize(bytes=scanned) if scanned is not None else None
