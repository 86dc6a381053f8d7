"""PostgreSQL (and Redshift by URL): read-only sessions, statement_timeout, temp_file_limit where
the role may set it, cancel through the protocol, reltuples as row estimates."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agent.warehouse.engines.base import (
    CANCEL_GRACE_S,
    DriverConnection,
    DriverCursor,
    PlanSize,
    ServerEngine,
    SessionLimits,
    finite,
)


class PostgreSQL(ServerEngine):
    key = "postgres"
    label = "PostgreSQL"
    dialect = "postgres"
    extra = "postgres"
    module = "psycopg"
    driver = "postgresql+psycopg"
    schemes = ("postgres", "postgresql", "pg", "redshift")
    pyformat = True
    commits_session_setup = True

    def connect_args(self, limits: SessionLimits) -> dict[str, Any]:
        return {
            "connect_timeout": limits.connect_seconds,
            "application_name": "slack-data-assistant",
            "options": f"-c default_transaction_read_only=on -c statement_timeout={limits.timeout_ms} "
            f"-c idle_in_transaction_session_timeout={max(limits.timeout_ms * 3, 60_000)}",
        }

    def on_connect(self, cursor: DriverCursor, limits: SessionLimits) -> dict[str, Any]:
        # temp_file_limit is a superuser setting unless granted: set it where the role may
        if limits.temp_disk_bytes:
            cursor.execute("SAVEPOINT temp_limit")
            try:
                cursor.execute(f"SET temp_file_limit = '{max(limits.temp_disk_bytes // 1024, 1)}kB'")
            except Exception:  # noqa: BLE001 - not permitted for this role: the server's own limit holds
                cursor.execute("ROLLBACK TO SAVEPOINT temp_limit")
            cursor.execute("RELEASE SAVEPOINT temp_limit")
        return {}

    def query_timeout(self, timeout_s: float, session: dict[str, Any]) -> str | None:
        return f"SET LOCAL statement_timeout = {int(timeout_s * 1000)}"

    def search_path(self, schema: str) -> str | None:
        return f"SET LOCAL search_path TO {schema}"

    def cancel(self, raw: DriverConnection, side_connection: Callable[[], DriverConnection]) -> bool:
        raw.cancel_safe(timeout=CANCEL_GRACE_S)
        return True

    def row_estimates(self, schemas: list[str]) -> tuple[str, dict[str, Any]] | None:
        return ("SELECT n.nspname, c.relname, c.reltuples::bigint FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY(%(s)s)", {"s": schemas})

    def plan_statement(self, sql: str) -> str | None:
        return "EXPLAIN (FORMAT JSON) " + sql

    def plan_size(self, columns: list[str], rows: list[tuple[Any, ...]]) -> PlanSize | None:
        """One row, one JSON list of plans: the largest 'Plan Rows' of any node."""
        [(plan, *_)] = rows
        plan = json.loads(plan) if isinstance(plan, str) else plan
        found = [n for n in (_most_rows(entry["Plan"]) for entry in plan) if n is not None]
        return PlanSize(rows=max(found)) if found else None

    def sample(self, name: str, source: str, estimate: int, above: int) -> str:
        percent = max(100.0 * above / estimate, 0.01)
        return f"SELECT {name} FROM {source} TABLESAMPLE SYSTEM ({percent:.4f})"


def _most_rows(node: dict[str, Any]) -> float | None:
    found = [n for n in (finite(node.get("Plan Rows")), *(_most_rows(c) for c in node.get("Plans", []))) if n is not None]
    return max(found) if found else None
