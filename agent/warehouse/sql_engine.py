"""Server warehouses (PostgreSQL, MySQL/MariaDB, Trino, Snowflake, BigQuery, ClickHouse)
through SQLAlchemy 2: pooled connections, read-only sessions, the engine's own timeout,
a cancel at the time limit, and errors turned into sentences.

Each query runs on a worker thread while the caller waits with a deadline: at the limit
the engine is asked to cancel; if it does not stop within a grace period the connection
is abandoned (invalidated, never returned to the pool) and the caller gets its answer.
"""

from __future__ import annotations

import logging
import re
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import sqlalchemy
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Inspector
from sqlalchemy.engine.interfaces import (
    ReflectedColumn,
    ReflectedForeignKeyConstraint,
    ReflectedPrimaryKeyConstraint,
    ReflectedTableComment,
    TableKey,
)
from sqlalchemy.pool import ConnectionPoolEntry

from agent.errors import QueryTimeoutError, ResultTooLargeError, SqlError, SqlSyntaxError, WarehouseError
from agent.settings import Settings
from agent.warehouse.base import (
    Column,
    PermissionDeniedError,
    WarehouseUnavailableError,
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
from agent.warehouse.engines.base import CANCEL_GRACE_S, DriverConnection, PlanSize
from agent.warehouse.urls import Engine, mask_url, plan, require_extra

log = logging.getLogger(__name__)

# Each reflected table's columns, as SQLAlchemy's inspector gives them (by (schema, table)).
Columns = dict[TableKey, list[ReflectedColumn]]

_SAMPLE_ABOVE_ROWS = 1_000_000
_MAX_BACKOFF_S = 60.0


class SqlAlchemyWarehouse(Warehouse):
    def __init__(self, url: str, engine: Engine, settings: Settings):
        require_extra(engine)
        super().__init__(settings, url=url)
        self.info = engine
        self.dialect = engine.dialect
        self.engine = engine.label
        self._plan = plan(
            url, engine, timeout_s=settings.query_timeout_s, max_bytes_billed=settings.query_max_bytes_billed,
            temp_disk_bytes=settings.query_temp_disk_bytes,
        )
        pool_size = settings.warehouse_pool_size
        try:
            self._sa = sqlalchemy.create_engine(
                self._plan.url,
                connect_args=self._plan.connect_args,
                pool_size=pool_size,
                max_overflow=2,
                pool_pre_ping=True,
                pool_recycle=1800,
                pool_timeout=settings.query_timeout_s,
            )
        except (sa_exc.ArgumentError, ValueError) as exc:
            raise WarehouseError(
                f"WAREHOUSE_URL ({mask_url(url)}) is not a valid {engine.label} URL: {mask_url(str(exc))}"
            ) from exc
        event.listen(self._sa, "connect", self._on_connect)
        self._workers = ThreadPoolExecutor(max_workers=pool_size + 2, thread_name_prefix="warehouse")
        self._running: dict[int, sqlalchemy.Connection] = {}
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._backoff_s = 1.0
        self._last_failure: WarehouseError | None = None
        # The schema bare names mean when it is not the server's default (a role that reads only
        # `sales`): set for each PostgreSQL transaction so pasted SQL means what the guard read.
        self._search_path: str | None = None

    # -- sessions ---------------------------------------------------------------------

    def _on_connect(self, dbapi_connection: DriverConnection, record: ConnectionPoolEntry) -> None:
        """Every new session: read-only, and the engine's own limits (its module says which)."""
        cursor = dbapi_connection.cursor()
        try:
            record.info["session"] = self.info.on_connect(cursor, self._plan.limits)
        finally:
            cursor.close()
        if self.info.commits_session_setup:  # a rollback when the pool takes it back would undo the SETs
            dbapi_connection.commit()

    def _connect(self) -> sqlalchemy.Connection:
        """A pooled connection, or a clear sentence; a down warehouse is retried with backoff."""
        now = time.monotonic()
        if now < self._down_until and self._last_failure is not None:
            raise self._last_failure
        try:
            conn = self._sa.connect()
        except sa_exc.DBAPIError as exc:
            failure = self._connection_error(exc)
            self._last_failure = failure
            self._down_until = now + self._backoff_s
            log.warning(
                "warehouse %s unavailable (retry in %.0f s): %s",
                self.describe(), self._backoff_s, mask_url(str(exc.orig or exc)).splitlines()[0],
            )
            self._backoff_s = min(self._backoff_s * 2, _MAX_BACKOFF_S)
            raise failure from None
        self._backoff_s = 1.0
        self._down_until = 0.0
        self._last_failure = None
        return conn

    def health(self) -> str | None:
        """None when the warehouse answers, else the sentence a person would get."""
        try:
            with self._connect() as conn:
                conn.exec_driver_sql("SELECT 1").fetchall()
        except WarehouseError as exc:
            return exc.user_message
        return None

    def _connection_error(self, exc: sa_exc.DBAPIError) -> WarehouseError:
        text = str(exc.orig or exc).lower()
        where = self.describe()
        if any(word in text for word in ("password authentication failed", "access denied for user",
                                         "authentication failed", "incorrect username or password")) or (
            "role" in text and "does not exist" in text
        ):
            return WarehouseUnavailableError(
                f"The warehouse ({where}) refused the bot's credentials; ask the person who runs the "
                "bot to check the user and password in WAREHOUSE_URL.",
                detail=mask_url(str(exc.orig)),
            )
        if "does not exist" in text or "unknown database" in text:
            return WarehouseUnavailableError(
                f"The database named in WAREHOUSE_URL ({where}) does not exist on that server.",
                detail=mask_url(str(exc.orig)),
            )
        return WarehouseUnavailableError(
            f"I cannot reach the warehouse ({where}) right now; I will keep retrying. If this lasts, "
            "ask the person who runs the bot to check that the server is up and WAREHOUSE_URL is right.",
            detail=mask_url(str(exc.orig or exc)),
        )

    def close(self) -> None:
        self.cancel()
        self._workers.shutdown(wait=False, cancel_futures=True)
        self._sa.dispose()

    def cancel(self) -> None:
        with self._lock:
            running = list(self._running.values())
        for conn in running:
            self._cancel(conn)

    def _cancel(self, conn: sqlalchemy.Connection) -> bool:
        """Ask the engine to stop the statement running on `conn`; False when it could not."""
        try:
            if not self.info.cancel(conn.connection.dbapi_connection, self._sa.raw_connection):
                return False
        except Exception as exc:  # noqa: BLE001 - any failure means: abandon the connection
            log.warning("could not cancel a query on %s: %s", self.describe(), mask_url(str(exc)))
            return False
        return True

    # -- queries ----------------------------------------------------------------------

    def _execute(self, sql: str, limits: Limits, *, stream: bool = True) -> QueryResult:
        conn = self._connect()
        future = self._workers.submit(self._run_on, conn, sql, limits, stream)
        try:
            return future.result(timeout=limits.timeout_s + CANCEL_GRACE_S)
        except FutureTimeout:
            cancelled = self._cancel(conn)
            try:
                return future.result(timeout=CANCEL_GRACE_S)
            except FutureTimeout:
                log.warning("abandoning a connection to %s whose query would not stop (cancel %s)",
                            self.describe(), "sent" if cancelled else "failed")
                threading.Thread(target=_abandon, args=(conn,), daemon=True).start()
                raise _timeout(limits) from None
        finally:
            if future.done():
                conn.close()

    def _run_on(self, conn: sqlalchemy.Connection, sql: str, limits: Limits, stream: bool) -> QueryResult:
        started = time.perf_counter()
        collector = RowCollector(limits)
        with self._lock:
            self._running[id(conn)] = conn
        try:
            with conn.begin():
                self._per_query_timeout(conn, limits)
                path = self.info.search_path(quote(self._search_path, self.dialect)) if self._search_path else None
                if path:
                    conn.exec_driver_sql(path)
                # A server-side cursor keeps a big result on the server until it is fetched (and
                # bounded); EXPLAIN cannot run in one.
                text = self.info.executable(sql, _session(conn))
                result = conn.execution_options(stream_results=stream).exec_driver_sql(text)
                columns = list(result.keys())
                cursor_description = result.cursor.description if result.cursor else None
                with collector:
                    while collector.add(result.fetchmany(self.FETCH_BATCH)):
                        pass
                result.close()
        except sa_exc.DBAPIError as exc:
            raise self._as_error(exc, limits) from None
        except ResultTooLargeError:
            # The rest of a streamed result would be read (or block) on the next use: drop it.
            _abandon(conn)
            raise
        finally:
            with self._lock:
                self._running.pop(id(conn), None)
        return QueryResult(
            columns=columns,
            types=[_type_name(d) for d in (cursor_description or [])],
            rows=[tuple(json_safe(v) for v in row) for row in collector.rows],
            elapsed_ms=(time.perf_counter() - started) * 1000,
            sql=sql,
        )

    def _per_query_timeout(self, conn: sqlalchemy.Connection, limits: Limits) -> None:
        if limits.timeout_s == self.settings.query_timeout_s:
            return
        statement = self.info.query_timeout(limits.timeout_s, _session(conn))
        if statement:
            conn.exec_driver_sql(statement)

    def _explain(self, sql: str) -> None:
        limits = self.limits(timeout_s=min(self.settings.query_timeout_s, 10.0))
        try:
            self._execute("EXPLAIN " + sql, limits, stream=False)
        except SqlError as exc:
            # MariaDB/MySQL refuse EXPLAIN over a view without SHOW VIEW (1345) although SELECT is
            # granted: the query itself with no row asked for checks it as well (LIMIT 0 stops at once)
            if not self.info.database_is_schema or not (exc.detail or "").startswith("(1345,"):
                raise
            self._execute(f"SELECT * FROM ({sql}) AS dry_run LIMIT 0", limits, stream=False)

    def _plan_size(self, sql: str) -> PlanSize | None:
        """The planner's estimate: the engine's EXPLAIN statement and its reading of the answer (each
        engine's module), or its driver's dry run (BigQuery)."""
        statement = self.info.plan_statement(sql)
        if statement is None:
            with self._connect() as conn:
                return self.info.dry_run_size(conn.connection.dbapi_connection, sql)
        result = self._execute(statement, self.limits(timeout_s=min(self.settings.query_timeout_s, 10.0)), stream=False)
        return self.info.plan_size(result.columns, result.rows)

    def _as_error(self, exc: sa_exc.DBAPIError, limits: Limits) -> Exception:
        orig = exc.orig
        message = mask_url(str(orig or exc)).strip()
        first = driver_sentence(orig or exc)
        state = getattr(getattr(orig, "diag", None), "sqlstate", None) or getattr(orig, "sqlstate", None)
        errno = orig.args[0] if orig is not None and orig.args and isinstance(orig.args[0], int) else None
        if state == "57014" or errno in (3024, 1969, 1317) or "statement timeout" in message.lower():
            return _timeout(limits)
        if state == "42501" or errno in (1142, 1143, 1044):
            table = _denied_table(message)
            what = f"table {table}" if table else "something the query reads"
            return PermissionDeniedError(
                f"The bot's warehouse account is not allowed to read {what}; ask the person who runs "
                f"the bot to grant it SELECT, or ask about another table.",
                detail=message,
            )
        if state == "53400" or errno == 1114:  # temp_file_limit; a MariaDB temporary table past tmp_disk_table_size
            return SqlError(
                f"The query needed more than the {self.settings.query_temp_disk_bytes / 1_000_000:,.0f} MB of "
                "temporary disk one query may fill, so the warehouse stopped it; filter or aggregate before "
                "joining, or bound the recursion.", detail=message)
        if state == "25006" or errno in (1792, 1290):
            return SqlError(f"The warehouse session is read-only, so it refused: {first}", detail=message)
        if state == "42P01" or errno == 1146:
            self._schema = None  # the table may have been dropped since the schema was read
            return SqlError(f"The query refers to something that does not exist: {first}", detail=message)
        if state in ("42703", "42883", "42702", "42803") or errno in (1054, 1305, 1052, 1055):
            return SqlError(f"The query refers to something that does not exist: {first}", detail=message)
        if state == "42601" or errno == 1064:
            return SqlSyntaxError(f"The SQL has a syntax error: {first}", detail=message)
        if isinstance(exc, sa_exc.OperationalError) and exc.connection_invalidated:
            return WarehouseUnavailableError(
                f"The connection to the warehouse ({self.describe()}) dropped during the query; try again.",
                detail=message,
            )
        return SqlError(f"The warehouse could not run the query: {first}", detail=message)

    # -- introspection ------------------------------------------------------------------

    def _readable(self, conn: sqlalchemy.Connection) -> set[tuple[str, str]] | None:
        """(schema, table) of every table the role has a privilege on (information_schema lists only
        those, on every engine here); None when the engine cannot say."""
        try:
            rows = conn.exec_driver_sql("SELECT table_schema, table_name FROM information_schema.tables").fetchall()
        except sa_exc.DBAPIError as exc:
            log.info("could not list readable tables on %s: %s", self.describe(), mask_url(str(exc.orig)).splitlines()[0])
            conn.rollback()
            return None
        return {(str(a), str(b)) for a, b in rows if a is not None and b is not None}

    def _schemas(self, inspector: Inspector, readable: set[tuple[str, str]] | None) -> list[str]:
        """WAREHOUSE_SCHEMAS, else every schema holding a table the bot's role may read (the
        server's default first), system schemas left out. MySQL/MariaDB call a database a schema:
        the one the URL names is the scope there."""
        configured = self.settings.warehouse_schema_list
        if configured:
            return configured
        default = inspector.default_schema_name
        if self.info.database_is_schema and default:
            return [default]
        if readable is None:
            return [default] if default else []
        seen = {owner for owner, _ in readable}
        others = sorted(s for s in seen if s != default and not is_system_schema(s))
        # the server's default first even when empty: bare names mean it unless another holds the tables
        return ([default] if default else []) + others

    def _introspect(self) -> Schema:
        with self._connect() as conn:
            inspector = sqlalchemy.inspect(conn)
            readable = self._readable(conn)
            schemas = self._schemas(inspector, readable)
            schema = Schema(default_schema=schemas[0] if schemas else (inspector.default_schema_name or ""))
            read: dict[str, tuple[Columns, dict[TableKey, ReflectedPrimaryKeyConstraint],
                                  dict[TableKey, list[ReflectedForeignKeyConstraint]],
                                  dict[TableKey, ReflectedTableComment]]] = {}
            for schema_name in schemas:
                try:
                    columns = self._columns(conn, inspector, schema_name)
                    pks = inspector.get_multi_pk_constraint(schema=schema_name)
                    fks = inspector.get_multi_foreign_keys(schema=schema_name)
                    comments = _optional(inspector.get_multi_table_comment, schema_name)
                except sa_exc.DBAPIError as exc:
                    raise self._as_error(exc, self.limits()) from None
                read[schema_name] = (columns, pks, fks, comments)
            schema.default_schema = bare_names_schema(schemas, {
                s: sum(1 for _, t in read[s][0] if readable is None or (s, t) in readable) for s in schemas})
            keys: dict[tuple[str, str], str] = {}
            hidden: set[str] = set()
            for schema_name, (columns, pks, _, comments) in read.items():
                # lower-case names first: where `bakers` and `Bakers` both exist, each keeps its own key
                for (_, table), cols in sorted(columns.items(), key=lambda item: (item[0][1] != item[0][1].lower(), item[0])):
                    if readable is not None and (schema_name, table) not in readable:
                        hidden.update({table.lower(), f"{schema_name}.{table}".lower()})
                        continue
                    new_key = table_key(schema_name, table, schema.default_schema, taken=schema.tables)
                    keys[(schema_name, table)] = new_key
                    schema.tables[new_key] = [
                        Column(c["name"], str(c["type"]), c.get("comment") or "") for c in cols
                    ]
                    table_comment = comments.get((schema_name, table))
                    comment = (table_comment.get("text") if table_comment else None) or ""
                    constraint = pks.get((schema_name, table))
                    pk = tuple((constraint.get("constrained_columns") if constraint else None) or ())
                    schema.info[new_key] = TableInfo(schema_name, table, comment, pk)
            for schema_name, (_, _, fks, _) in read.items():
                for (_, table), foreign in fks.items():
                    key = keys.get((schema_name, table))
                    if not key:
                        continue
                    for fk in foreign:
                        ref_schema = fk.get("referred_schema") or schema_name
                        target = keys.get((ref_schema, fk["referred_table"]),
                                          table_key(ref_schema, fk["referred_table"], schema.default_schema))
                        schema.info[key].foreign_keys.append(
                            ForeignKey(tuple(fk["constrained_columns"]), target, tuple(fk["referred_columns"]))
                        )
            schema.unreadable = frozenset(hidden)
            if not schema.tables:
                schema.seen_schemas = tuple(self._all_schemas(inspector))
            self._row_estimates(conn, schemas, schema, keys)
        self._search_path = schema.default_schema if schema.default_schema != inspector.default_schema_name else None
        return schema

    def _columns(self, conn: sqlalchemy.Connection, inspector: Inspector, schema_name: str) -> Columns:
        """Columns of the schema's tables and views. Reflecting a MariaDB view needs SHOW VIEW, which a
        reader rarely has: its columns then come from information_schema, which SELECT is enough for."""
        try:
            return inspector.get_multi_columns(schema=schema_name, kind=sqlalchemy.engine.ObjectKind.ANY)
        except sa_exc.DBAPIError:
            conn.rollback()
        columns = inspector.get_multi_columns(schema=schema_name)
        views = set(inspector.get_view_names(schema=schema_name))
        rows = conn.exec_driver_sql(
            "SELECT table_name, column_name, column_type FROM information_schema.columns WHERE table_schema = %(s)s "
            "ORDER BY table_name, ordinal_position", {"s": schema_name}).fetchall()
        for table, column, type_name in rows:
            if table in views:
                # information_schema gives a view column's name and type text; the reader uses no more.
                columns.setdefault((schema_name, table), []).append(
                    {"name": column, "type": str(type_name).upper()}  # type: ignore[typeddict-item]
                )
        return columns

    def _all_schemas(self, inspector: Inspector) -> list[str]:
        try:
            return [s for s in inspector.get_schema_names() if not is_system_schema(s)]
        except (sa_exc.DBAPIError, NotImplementedError):
            return []

    def _row_estimates(
        self, conn: sqlalchemy.Connection, schemas: list[str], schema: Schema, keys: dict[tuple[str, str], str]
    ) -> None:
        estimates = self.info.row_estimates(schemas)
        if estimates is None:
            return
        sql, params = estimates
        try:
            rows = conn.exec_driver_sql(sql, params).fetchall()
        except sa_exc.DBAPIError as exc:
            log.info("no row estimates from %s: %s", self.describe(), mask_url(str(exc.orig)).splitlines()[0])
            conn.rollback()
            return
        for schema_name, table, estimate in rows:
            key = keys.get((schema_name, table))
            if key is not None and estimate is not None and estimate >= 0:
                schema.info[key].row_estimate = int(estimate)

    def _read_user_functions(self) -> frozenset[str]:
        # PostgreSQL picks the best match by argument types along the search path, so a
        # public.lower(varchar) can win over pg_catalog.lower(text).
        if self.info.key != "postgres":
            return frozenset()
        sql = ("SELECT DISTINCT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
               "WHERE n.nspname = ANY (pg_catalog.current_schemas(false)) "  # what a bare name can reach
               # an extension's functions (citext's lower) were installed by whoever runs the server
               "AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')")
        return frozenset(row[0].lower() for row in self._execute(sql, self.limits(row_cap=100_000)).rows)

    def _sample_values(self, table: str, column: str, limit: int) -> list[Any]:
        schema = self.schema()
        info = schema.info.get(table.lower())
        source = schema.reference(table, self.dialect)
        name = quote(column, self.dialect)
        rows = (info.row_estimate if info is not None else None) or 0
        if rows > _SAMPLE_ABOVE_ROWS:
            inner = self.info.sample(name, source, rows, _SAMPLE_ABOVE_ROWS)
        else:
            inner = f"SELECT {name} FROM {source}"
        sql = f"SELECT DISTINCT {name} FROM ({inner}) sampled WHERE {name} IS NOT NULL LIMIT {int(limit)}"
        return [row[0] for row in self._execute(sql, self.limits(row_cap=limit + 1)).rows]


def _session(conn: sqlalchemy.Connection) -> dict[str, Any]:
    """What the engine learnt about this connection's server when it connected."""
    record = conn.connection._connection_record
    session: dict[str, Any] = record.info.get("session", {}) if record is not None else {}
    return session


def _optional(
    method: Callable[..., dict[TableKey, ReflectedTableComment]], schema_name: str
) -> dict[TableKey, ReflectedTableComment]:
    """Table comments where the dialect reads them; none where it cannot."""
    try:
        return method(schema=schema_name)
    except NotImplementedError:
        return {}


def _abandon(conn: sqlalchemy.Connection) -> None:
    try:
        with warnings.catch_warnings():  # PyMySQL warns that the unread rows are dropped: intended
            warnings.simplefilter("ignore")
            conn.invalidate()
    except Exception:  # noqa: BLE001 - the connection is being thrown away anyway
        pass


def _type_name(description: Sequence[Any]) -> str:
    """The column's type name; "" when the driver gives a number (PostgreSQL's type OID, MySQL's
    field code), which names nothing a reader of types knows: the values then tell."""
    code = description[1] if len(description) > 1 else None
    return "" if code is None or isinstance(code, int) else str(code)


_PART = r"(?:`[^`]+`|\"[^\"]+\"|'[^']+'|[\w$]+)"
_DENIED = re.compile(rf"\btable\s+((?:{_PART}\.)*{_PART})", re.IGNORECASE)


def driver_sentence(error: BaseException) -> str:
    """The database's message with its error class, as a person reads it ('OperationalError 1792:
    Cannot execute statement in a READ ONLY transaction.'), never a driver's argument tuple."""
    args: tuple[Any, ...] = getattr(error, "args", ())
    if len(args) >= 2 and isinstance(args[0], int) and isinstance(args[1], str):  # PyMySQL, MySQLdb
        kind, text = f"{type(error).__name__} {args[0]}", args[1]
    else:
        kind, text = type(error).__name__, str(error)
    lines = mask_url(text).strip().splitlines()
    line = lines[0].strip() if lines else "the query failed"
    return f"{kind}: {line}" + ("" if line.endswith((".", "!", "?")) else ".")


def _denied_table(message: str) -> str | None:
    """'permission denied for table x' / "... for table `db`.`x`" -> x."""
    found = _DENIED.search(message)
    if not found:
        return None
    parts: list[str] = re.findall(_PART, found.group(1))
    return parts[-1].strip("`'\"")


def _timeout(limits: Limits) -> QueryTimeoutError:
    return QueryTimeoutError(
        f"The query took longer than {limits.timeout_s:g} seconds and was stopped; "
        "try a narrower filter or a smaller time range."
    )

