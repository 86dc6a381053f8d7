"""DuckDB, the embedded default: a database file opened read-only, external access off,
configuration locked, so even a statement the guard missed cannot write, read files or
lift the limits."""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from pathlib import Path
from typing import Any

import duckdb

from agent.errors import QueryTimeoutError, SqlError, SqlSyntaxError, WarehouseError
from agent.settings import Settings
from agent.warehouse.base import (
    Column,
    ForeignKey,
    Limits,
    QueryResult,
    RowCollector,
    Schema,
    TableInfo,
    Warehouse,
    bare_names_schema,
    is_system_schema,
    json_safe,
    quote,
    table_key,
)
from agent.warehouse.engines.base import PlanSize

log = logging.getLogger(__name__)

_SAMPLE_ABOVE_ROWS = 1_000_000  # bigger tables are sampled when reading distinct values
# At close, how long interrupted statements get to leave the connection (an interrupt lands within
# a vector or two; a statement that ignores it ends with the process).
_CLOSE_WAIT_S = 3.0


class DuckDBWarehouse(Warehouse):
    dialect = "duckdb"
    engine = "DuckDB"
    in_process = True

    def __init__(self, path: Path, settings: Settings, *, url: str = "", is_demo: bool = False):
        super().__init__(settings, url=url or f"duckdb:///{path}")
        self.path = Path(path)
        self.is_demo = is_demo
        self._lock = threading.Lock()
        self._running: set[duckdb.DuckDBPyConnection] = set()
        self._use: str | None = None  # the schema bare names mean, when it is not `main`
        try:
            self._con = duckdb.connect(
                str(self.path),
                read_only=True,
                config={
                    "enable_external_access": False,
                    "memory_limit": settings.query_memory_limit,
                    "threads": settings.query_threads,
                    # a query spilling past this (a runaway join, a huge sort) stops instead of filling the disk
                    **({"max_temp_directory_size": f"{settings.query_temp_disk_bytes}B"}
                       if settings.query_temp_disk_bytes else {}),
                    "lock_configuration": True,
                },
            )
        except duckdb.Error as exc:
            raise WarehouseError(
                "The warehouse could not be opened; ask the person who runs the bot to check "
                "WAREHOUSE_URL.",
                detail=str(exc),
            ) from exc

    def close(self) -> None:
        """Stop what still runs, then close. DuckDB refuses to close a connection a statement is using
        ("connection is busy"), so running statements are interrupted and given a moment to leave; one
        that will not is left to end with the process, said in one line, never a traceback at exit."""
        deadline = time.monotonic() + _CLOSE_WAIT_S
        while True:
            self.cancel()
            try:
                self._con.close()
                return
            except duckdb.Error as exc:
                if time.monotonic() >= deadline:
                    log.warning("the warehouse was still busy when closing (%s); its statements end with the process",
                                str(exc).splitlines()[0])
                    return
            time.sleep(0.05)

    def cancel(self) -> None:
        with self._lock:
            running = list(self._running)
        for cursor in running:
            cursor.interrupt()

    def _cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor whose bare names mean the schema the guard and the catalog take them to mean."""
        with self._lock:
            cursor = self._con.cursor()
        if self._use:
            cursor.execute(f"USE {quote(self._use, 'duckdb')}")
        return cursor

    # -- introspection --------------------------------------------------------------

    def _schemas(self, cursor: duckdb.DuckDBPyConnection) -> list[str]:
        """WAREHOUSE_SCHEMAS, else every schema of the file holding a table or view (`main` first)."""
        if self.settings.warehouse_schema_list:
            return self.settings.warehouse_schema_list
        rows = cursor.execute(
            "SELECT DISTINCT schema_name FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal "
            "UNION SELECT DISTINCT schema_name FROM duckdb_views() WHERE database_name = current_database() "
            "AND NOT internal"
        ).fetchall()
        # `main` first even when empty: bare names mean it unless another schema holds the tables
        return ["main", *sorted(r[0] for r in rows if r[0] != "main" and not is_system_schema(r[0]))]

    def _introspect(self) -> Schema:
        cursor = self._con.cursor()
        try:
            schemas = self._schemas(cursor)
            marks = ", ".join("?" for _ in schemas)
            here = "database_name = current_database()"
            tables = cursor.execute(
                f"SELECT schema_name, table_name, comment, estimated_size FROM duckdb_tables() "
                f"WHERE {here} AND schema_name IN ({marks}) AND NOT internal "
                f"UNION ALL SELECT schema_name, view_name, comment, NULL FROM duckdb_views() "
                f"WHERE {here} AND schema_name IN ({marks}) AND NOT internal ORDER BY 1, 2",
                schemas + schemas,
            ).fetchall()
            columns = cursor.execute(
                f"SELECT schema_name, table_name, column_name, data_type, comment FROM duckdb_columns() "
                f"WHERE {here} AND schema_name IN ({marks}) ORDER BY schema_name, table_name, column_index",
                schemas,
            ).fetchall()
            constraints = cursor.execute(
                f"SELECT schema_name, table_name, constraint_type, constraint_column_names, "
                f"referenced_table, referenced_column_names FROM duckdb_constraints() "
                f"WHERE {here} AND schema_name IN ({marks}) AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')",
                schemas,
            ).fetchall()
            every = [r[0] for r in cursor.execute(
                "SELECT schema_name FROM duckdb_schemas() WHERE database_name = current_database() ORDER BY 1").fetchall()]
        finally:
            cursor.close()
        counts = {s: sum(1 for row in tables if row[0] == s) for s in schemas}
        default = bare_names_schema(schemas, counts)
        schema = Schema(default_schema=default)
        if not tables:
            schema.seen_schemas = tuple(s for s in every if not is_system_schema(s))
        keys: dict[tuple[str, str], str] = {}
        # lower-case names first: where `bakers` and `"Bakers"` both exist, each keeps its own key
        for schema_name, table, comment, estimate in sorted(tables, key=lambda row: (row[1] != row[1].lower(), row[:2])):
            new_key = table_key(schema_name, table, default, taken=schema.tables)
            keys[(schema_name, table)] = new_key
            schema.tables[new_key] = []
            schema.info[new_key] = TableInfo(schema_name, table, comment or "", row_estimate=estimate)
        for schema_name, table, column, data_type, comment in columns:
            key = keys.get((schema_name, table))
            if key is not None:
                schema.tables[key].append(Column(column, data_type, comment or ""))
        for schema_name, table, kind, cols, ref_table, ref_cols in constraints:
            key = keys.get((schema_name, table))
            if key is None:
                continue
            if kind == "PRIMARY KEY":
                schema.info[key].primary_key = tuple(cols)
            elif ref_table:
                target = keys.get((schema_name, ref_table), table_key(schema_name, ref_table, default))
                schema.info[key].foreign_keys.append(ForeignKey(tuple(cols), target, tuple(ref_cols or ())))
        self._use = None if default == "main" else default
        return schema

    def _read_user_functions(self) -> frozenset[str]:
        # A macro named like a built-in ('lower') is what a bare call runs in DuckDB.
        cursor = self._cursor()
        try:
            # No function call in this query: a macro named like it would answer instead.
            rows = cursor.execute("SELECT DISTINCT function_name FROM duckdb_functions() WHERE NOT internal")
            return frozenset(row[0].lower() for row in rows.fetchall())
        finally:
            cursor.close()

    def _sample_values(self, table: str, column: str, limit: int) -> list[Any]:
        schema = self.schema()
        info = schema.info.get(table.lower())
        source = schema.reference(table, self.dialect)
        sample = ""
        if info is not None and (info.row_estimate or 0) > _SAMPLE_ABOVE_ROWS:
            sample = f" USING SAMPLE {_SAMPLE_ABOVE_ROWS} ROWS"
        name = quote(column, self.dialect)
        sql = f"SELECT DISTINCT {name} FROM (SELECT {name} FROM {source}{sample}) WHERE {name} IS NOT NULL LIMIT {int(limit)}"
        cursor = self._cursor()
        try:
            return [row[0] for row in cursor.execute(sql).fetchall()]
        finally:
            cursor.close()

    # -- queries ----------------------------------------------------------------------

    def _explain(self, sql: str) -> None:
        cursor = self._cursor()
        try:
            cursor.execute("EXPLAIN " + sql).fetchall()
        except duckdb.Error as exc:
            raise _as_sql_error(exc) from exc
        finally:
            cursor.close()

    def _plan_size(self, sql: str) -> PlanSize | None:
        cursor = self._cursor()
        try:
            [(_, plan)] = cursor.execute("EXPLAIN (FORMAT JSON) " + sql).fetchall()
        except duckdb.Error as exc:
            raise _as_sql_error(exc) from exc
        finally:
            cursor.close()
        most = max((_plan_rows(root)[1] for root in json.loads(plan)), default=None)
        return PlanSize(rows=most) if most is not None else None

    def _execute(self, sql: str, limits: Limits) -> QueryResult:
        cursor = self._cursor()
        timer = threading.Timer(limits.timeout_s, cursor.interrupt)
        timer.daemon = True  # never what keeps a stopping process alive
        started = time.perf_counter()
        collector = RowCollector(limits)
        with self._lock:
            self._running.add(cursor)
        timer.start()
        try:
            relation = cursor.execute(sql)
            description = relation.description or []
            with collector:
                while collector.add(relation.fetchmany(self.FETCH_BATCH)):
                    pass
        except duckdb.InterruptException as exc:
            raise _timeout(limits) from exc
        except duckdb.Error as exc:
            if not timer.is_alive() and "interrupt" in str(exc).lower():
                raise _timeout(limits) from exc
            raise _as_sql_error(exc) from exc
        finally:
            timer.cancel()
            with self._lock:
                self._running.discard(cursor)
            cursor.close()
        return QueryResult(
            columns=[d[0] for d in description],
            types=[str(d[1]) for d in description],
            rows=[tuple(json_safe(v) for v in row) for row in collector.rows],
            elapsed_ms=(time.perf_counter() - started) * 1000,
            sql=sql,
        )


def _plan_rows(step: dict[str, Any]) -> tuple[float, float]:
    """(rows a plan step yields, most rows any step of it handles): DuckDB's estimate where it states one;
    a cross product, which states none, yields the product of its inputs."""
    below = [_plan_rows(child) for child in step.get("children", [])]
    stated = str(step.get("extra_info", {}).get("Estimated Cardinality", "")).lstrip("~").replace(",", "")
    if stated.isdigit():
        rows = float(stated)
    elif "PRODUCT" in step.get("name", "") or "JOIN" in step.get("name", ""):
        rows = float(math.prod(r for r, _ in below)) if below else 0.0
    else:
        rows = max((r for r, _ in below), default=0.0)
    return rows, max([rows, *(most for _, most in below)])


def _timeout(limits: Limits) -> QueryTimeoutError:
    return QueryTimeoutError(
        f"The query took longer than {limits.timeout_s:g} seconds and was stopped; "
        "try a narrower filter or a smaller time range."
    )


def _as_sql_error(exc: duckdb.Error) -> SqlError:
    message = str(exc).strip()
    first_line = message.splitlines()[0] if message else "The query failed."
    if isinstance(exc, duckdb.ParserException):
        return SqlSyntaxError(f"The SQL has a syntax error: {first_line}", detail=message)
    if isinstance(exc, (duckdb.CatalogException, duckdb.BinderException)):
        return SqlError(f"The query refers to something that does not exist: {first_line}", detail=message)
    if isinstance(exc, duckdb.OutOfMemoryException):
        return SqlError(
            "The query needed more memory than the bot may use; aggregate or filter first.", detail=message
        )
    return SqlError(f"The warehouse could not run the query: {first_line}", detail=message)
