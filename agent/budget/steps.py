"""The SQL layer's CPU-heavy entry points as they run inside a CpuPool worker process.

Everything here takes and returns plain picklable values. A fix needs the engine's dry run;
a worker opens its own read-only connection to the warehouse file for that (DuckDB lets
several processes read one file), so nothing of the bot's process crosses over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agent.sql.explain import Explanation, explain_sql
from agent.sql.fix import FixResult, fix_sql
from agent.sql.guard import ensure_read_only
from agent.sql.parse import transpile
from agent.warehouse.base import Schema

_connections: dict[tuple[str, str], object] = {}  # one per worker process, opened on first use


@dataclass(frozen=True)
class WarehouseFile:
    """Enough to open the warehouse read-only from another process."""

    path: Path
    memory_limit: str
    probe_rows: int = 100

    def dry_run(self, sql: str) -> None:
        self._read("EXPLAIN " + sql, sql)

    def probe(self, sql: str) -> list[tuple]:
        """A small read query a repair uses to look at the data (at most `probe_rows` rows)."""
        return self._read(sql, sql)[: self.probe_rows]

    def _read(self, statement: str, sql: str) -> list[tuple]:
        import duckdb

        from agent.warehouse.duck import _as_sql_error

        ensure_read_only(sql, dialect="duckdb")
        key = (str(self.path), self.memory_limit)
        if key not in _connections:
            _connections[key] = duckdb.connect(
                str(self.path),
                read_only=True,
                config={
                    "enable_external_access": False,
                    "memory_limit": self.memory_limit,
                    "threads": 1,
                    "lock_configuration": True,
                },
            )
        try:
            return _connections[key].execute(statement).fetchmany(self.probe_rows + 1)
        except duckdb.Error as exc:
            raise _as_sql_error(exc) from exc


def guard(sql: str, dialect: str) -> None:
    ensure_read_only(sql, dialect=dialect)


def translate(sql: str, read: str, write: str) -> str:
    return transpile(sql, read=read, write=write)


def explain(sql: str, dialect: str, column_descriptions: dict[str, str]) -> Explanation:
    return explain_sql(sql, dialect=dialect, column_descriptions=column_descriptions)


def fix(
    sql: str,
    error: str | None,
    dialect: str,
    schema: Schema,
    target: str,
    dry_run: Callable[[str], None],
    probe: Callable[[str], list[tuple]],
) -> FixResult:
    return fix_sql(sql, error=error, dialect=dialect, schema=schema, dry_run=dry_run, probe=probe, target=target)
