"""MySQL and MariaDB: one URL form, told apart by the server's version once connected (their
time-limit settings differ, MariaDB bounds temporary disk, and lacks REGEXP_LIKE)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect

from agent.warehouse.engines.base import DriverConnection, DriverCursor, PlanSize, ServerEngine, SessionLimits, finite


@cache
def mariadb_dialect() -> type[Dialect]:
    """MySQL's grammar with MariaDB's regexp operator: MariaDB has `x REGEXP p`, not REGEXP_LIKE. Made when
    a MariaDB query first needs it: every start imports this module (the engines' registry), and sqlglot's
    MySQL dialect costs a hundredth of a CPU-second that a start on another warehouse has no use for."""
    from sqlglot.dialects.mysql import MySQL
    from sqlglot.generators.mysql import MySQLGenerator

    class MariaDBDialect(MySQL):
        class Generator(MySQLGenerator):  # MySQL.Generator, by the name mypy can read as a class
            TRANSFORMS = {
                **MySQLGenerator.TRANSFORMS,
                exp.RegexpLike: lambda self, e: f"{self.sql(e, 'this')} REGEXP {self.sql(e, 'expression')}",
            }

    return MariaDBDialect


class MySQLOrMariaDB(ServerEngine):
    key = "mysql"
    label = "MySQL/MariaDB"
    dialect = "mysql"
    extra = "mysql"
    module = "pymysql"
    driver = "mysql+pymysql"
    schemes = ("mysql", "mariadb")
    database_is_schema = True
    pyformat = True
    commits_session_setup = True

    def connect_args(self, limits: SessionLimits) -> dict[str, Any]:
        return {
            "connect_timeout": limits.connect_seconds,
            "read_timeout": limits.seconds * 3 + 5,  # a last resort if the server never answers
            "charset": "utf8mb4",
        }

    def on_connect(self, cursor: DriverCursor, limits: SessionLimits) -> dict[str, Any]:
        cursor.execute("SET SESSION TRANSACTION READ ONLY")
        cursor.execute("SELECT VERSION()")
        session = {"mariadb": "mariadb" in str(cursor.fetchone()[0]).lower()}
        cursor.execute(self.query_timeout(limits.timeout_s, session))
        if limits.temp_disk_bytes:
            # in-memory temporary tables stay small (16 MiB, the server's usual default, never more)
            cursor.execute(f"SET SESSION tmp_table_size = {min(limits.temp_disk_bytes, 16 * 1024 * 1024)}")
            if session["mariadb"]:
                self._bound_mariadb_disk(cursor, limits.temp_disk_bytes)
        return session

    def _bound_mariadb_disk(self, cursor: DriverCursor, most: int) -> None:
        """MariaDB 10.2+: tmp_disk_table_size bounds each internal temporary table spilled to disk (a
        recursive CTE's rows, GROUP BY, DISTINCT, UNION, derived tables): past it the statement ends with
        error 1114. A sort's merge files have no such setting before 11.5, whose
        max_tmp_session_space_usage bounds every temporary file of the session; before it only the
        statement's time limit bounds them. MySQL has neither (its TempTable limits are server-wide)."""
        for variable in ("tmp_disk_table_size", "max_tmp_session_space_usage"):
            cursor.execute(f"SHOW VARIABLES LIKE '{variable}'")
            if cursor.fetchone():
                cursor.execute(f"SET SESSION {variable} = {int(most)}")

    def query_timeout(self, timeout_s: float, session: dict[str, Any]) -> str:
        if session.get("mariadb"):
            return f"SET SESSION max_statement_time = {timeout_s:.3f}"
        return f"SET SESSION max_execution_time = {int(timeout_s * 1000)}"

    def cancel(self, raw: DriverConnection, side_connection: Callable[[], DriverConnection]) -> bool:
        killer = side_connection()
        try:
            cursor = killer.cursor()
            cursor.execute(f"KILL QUERY {int(raw.thread_id())}")
            cursor.close()
        finally:
            killer.close()
        return True

    def row_estimates(self, schemas: list[str]) -> tuple[str, dict[str, Any]] | None:
        return ("SELECT table_schema, table_name, table_rows FROM information_schema.tables "
                "WHERE table_schema IN %(s)s", {"s": tuple(schemas)})

    def plan_statement(self, sql: str) -> str | None:
        return "EXPLAIN " + sql

    def plan_size(self, columns: list[str], rows: list[tuple[Any, ...]]) -> PlanSize | None:
        """One row per table access, each with the rows it reads: a join multiplies them."""
        column = [name.lower() for name in columns].index("rows")
        reads = [n for n in (finite(row[column]) for row in rows) if n is not None]
        return PlanSize(rows=float(math.prod(reads))) if reads else None

    def executable(self, sql: str, session: dict[str, Any]) -> str:
        if session.get("mariadb") and "regexp_like" in sql.lower():
            try:
                sql = ";\n".join(t.sql(dialect=mariadb_dialect()) for t in sqlglot.parse(sql, read="mysql") if t)
            except sqlglot.errors.SqlglotError:
                pass  # the server's own error says what is wrong
        return super().executable(sql, session)
