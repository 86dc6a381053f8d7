"""Run guarded, read-only queries with a time limit, a row cap and a memory limit.

Two locks keep a query from doing harm: the SQL guard refuses anything but one read
statement, and underneath DuckDB itself is opened read-only with external access off and
its configuration locked, so even a statement the guard missed cannot write, read files
or lift the limits.
"""

from __future__ import annotations

import datetime as dt
import decimal
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import duckdb

from agent.errors import (
    QueryTimeoutError,
    ResultTooLargeError,
    SqlError,
    SqlSyntaxError,
    WarehouseError,
)
from agent.budget.slots import BlockingSlots
from agent.settings import Settings
from agent.sql.guard import ensure_read_only
from agent.warehouse.demo import ensure_demo_warehouse

log = logging.getLogger(__name__)

# After the engine's own interrupt at the time limit, how long a query may take to stop
# (at most its limit again) before its caller gives up on it: the thread is abandoned and
# its slot stays taken until it ends.
STOP_GRACE_S = 5.0


@dataclass(frozen=True)
class Column:
    name: str
    type: str


@dataclass
class QueryResult:
    columns: list[str]
    types: list[str]
    rows: list[tuple]
    elapsed_ms: float = 0.0
    sql: str = ""

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def records(self) -> list[dict]:
        return [dict(zip(self.columns, row)) for row in self.rows]


@dataclass
class Schema:
    """Tables and their columns as the engine reports them (the source of truth for names)."""

    tables: dict[str, list[Column]] = field(default_factory=dict)

    def columns_of(self, table: str) -> list[Column]:
        return self.tables.get(table.lower(), [])

    def all_column_names(self) -> set[str]:
        return {c.name for cols in self.tables.values() for c in cols}


def _json_safe(value):
    """Engine values as plain JSON-friendly Python (results travel through checkpoints)."""
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    return value


class Warehouse:
    """A DuckDB database file opened read-only; safe to share across threads."""

    def __init__(self, path: Path, settings: Settings):
        self.path = Path(path)
        self.settings = settings
        self._lock = threading.Lock()
        self._schema: Schema | None = None
        self.slots = BlockingSlots(settings.warehouse_slots)
        try:
            self._con = duckdb.connect(
                str(self.path),
                read_only=True,
                config={
                    "enable_external_access": False,
                    "memory_limit": settings.query_memory_limit,
                    "threads": settings.query_threads,
                    "lock_configuration": True,
                },
            )
        except duckdb.Error as exc:
            raise WarehouseError(
                "The warehouse could not be opened; ask the person who runs the bot to check "
                "WAREHOUSE_URL.",
                detail=str(exc),
            ) from exc

    @classmethod
    def from_settings(cls, settings: Settings) -> "Warehouse":
        if not settings.warehouse_url:
            return cls(ensure_demo_warehouse(settings.data_dir), settings)
        url = urlparse(settings.warehouse_url)
        if url.scheme != "duckdb":
            raise WarehouseError(
                f"WAREHOUSE_URL uses the engine '{url.scheme}', which this build does not "
                "support; use duckdb:///path/to/file.duckdb."
            )
        path = Path((url.netloc + url.path) if url.netloc else url.path)
        if not path.exists():
            raise WarehouseError(f"WAREHOUSE_URL points at {path}, which does not exist.")
        return cls(path, settings)

    def close(self) -> None:
        busy = self.slots.snapshot()["busy"]
        if busy:
            # Closing under a running statement can block on it; the process is ending anyway.
            log.warning("warehouse left open: %d query(ies) still running", busy)
            return
        self._con.close()

    # -- metadata ---------------------------------------------------------------------

    def schema(self) -> Schema:
        if self._schema is None:
            rows = self._cursor().execute(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
            ).fetchall()
            schema = Schema()
            for table, column, data_type in rows:
                schema.tables.setdefault(table.lower(), []).append(Column(column, data_type))
            self._schema = schema
        return self._schema

    def distinct_values(self, table: str, column: str, limit: int = 2000) -> list:
        """Distinct non-null values of one column, for matching what people type to data."""
        columns = {c.name for c in self.schema().columns_of(table)}
        if column not in columns:
            raise SqlError(f"There is no column {column} in {table}.")
        sql = f'SELECT DISTINCT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL LIMIT {int(limit)}'
        return [row[0] for row in self._cursor().execute(sql).fetchall()]

    # -- queries ----------------------------------------------------------------------

    def dry_run(self, sql: str) -> None:
        """Validate a query with the engine's own EXPLAIN; raises SqlError when it would fail."""
        ensure_read_only(sql, dialect="duckdb")
        try:
            self._execute(self._cursor(), "EXPLAIN " + sql, None)
        except duckdb.Error as exc:
            raise _as_sql_error(exc) from exc

    def run(self, sql: str, *, row_cap: int | None = None, timeout_s: float | None = None) -> QueryResult:
        """Run one guarded read query; blocking, so async callers use `arun`."""
        ensure_read_only(sql, dialect="duckdb")
        cap = row_cap or self.settings.query_row_cap
        limit_s = timeout_s or self.settings.query_timeout_s
        cursor = self._cursor()
        timer = threading.Timer(limit_s, cursor.interrupt)
        timer.daemon = True  # never what keeps a stopping process alive
        started = time.perf_counter()
        timer.start()
        try:
            rows, description = self._execute(cursor, sql, cap + 1)
        except duckdb.InterruptException as exc:
            raise QueryTimeoutError(
                f"The query took longer than {limit_s:g} seconds and was stopped; "
                "try a narrower filter or a smaller time range."
            ) from exc
        except duckdb.Error as exc:
            if not timer.is_alive() and "interrupt" in str(exc).lower():
                raise QueryTimeoutError(
                    f"The query took longer than {limit_s:g} seconds and was stopped."
                ) from exc
            raise _as_sql_error(exc) from exc
        finally:
            timer.cancel()
            cursor.close()
        if len(rows) > cap:
            raise ResultTooLargeError(
                f"The query returns more than {cap:,} rows, the most I can bring back; "
                "add a filter, aggregate, or a LIMIT."
            )
        return QueryResult(
            columns=[d[0] for d in description],
            types=[str(d[1]) for d in description],
            rows=[tuple(_json_safe(v) for v in row) for row in rows],
            elapsed_ms=(time.perf_counter() - started) * 1000,
            sql=sql,
        )

    def budget_s(self, timeout_s: float | None = None) -> float:
        """How long a caller waits for a query with this time limit before abandoning it."""
        limit_s = timeout_s or self.settings.query_timeout_s
        return limit_s + min(STOP_GRACE_S, limit_s)

    async def arun(self, sql: str, *, owner: str | None = None, **limits) -> QueryResult:
        """`run` on a warehouse slot; `owner` (the person asking) holds at most one runaway at a time."""
        budget_s = self.budget_s(limits.get("timeout_s"))
        return await self.slots.call(self.run, sql, budget_s=budget_s, owner=owner, **limits)

    async def adry_run(self, sql: str, *, owner: str | None = None) -> None:
        await self.slots.call(self.dry_run, sql, budget_s=self.budget_s(), owner=owner)

    async def aping(self, timeout_s: float) -> None:
        """Does the engine answer a trivial query within `timeout_s`? Raises an AssistantError if not."""
        await self.slots.call(self.run, "SELECT 1", budget_s=timeout_s, timeout_s=timeout_s)

    @staticmethod
    def _execute(cursor: duckdb.DuckDBPyConnection, sql: str, max_rows: int | None) -> tuple[list, list]:
        """The one engine call every query goes through: rows (at most `max_rows`) and their description."""
        relation = cursor.execute(sql)
        rows = relation.fetchall() if max_rows is None else relation.fetchmany(max_rows)
        return rows, relation.description or []

    def _cursor(self) -> duckdb.DuckDBPyConnection:
        with self._lock:
            return self._con.cursor()


def _as_sql_error(exc: duckdb.Error) -> SqlError:
    message = str(exc).strip()
    first_line = message.splitlines()[0] if message else "The query failed."
    if isinstance(exc, duckdb.ParserException):
        return SqlSyntaxError(f"The SQL has a syntax error: {first_line}", detail=message)
    if isinstance(exc, (duckdb.CatalogException, duckdb.BinderException)):
        return SqlError(f"The query refers to something that does not exist: {first_line}", detail=message)
    return SqlError(f"The warehouse could not run the query: {first_line}", detail=message)
