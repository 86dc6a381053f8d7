"""One small interface over every warehouse engine: run read-only with limits, dry run,
introspect, cancel, and the dialect its SQL is written in.

Engines implement four primitives (`_execute`, `_explain`, `_introspect`, `cancel`); this
base class adds the guard, the limits, the schema cache with a time-to-live and the async
wrappers, so every engine refuses, bounds and reports the same way.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import decimal
import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from collections.abc import Callable, Collection, Sequence
from types import TracebackType
from typing import Any

import functools
import re

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect

from agent.budget.slots import BlockingSlots, off_slot
from agent.errors import ResultTooLargeError, SqlError, WarehouseError
from agent.settings import Settings
from agent.sql.checked import CheckedQuery, SqlInput
from agent.sql.guard import GuardPolicy, UnknownTableError, check_query, recheck
from agent.sql.parse import clean_sql_text
from agent.warehouse.checked import CheckedQueries
from agent.warehouse.cost import costly_shape
from agent.warehouse.engines.base import PlanSize

log = logging.getLogger(__name__)

_MIN_REFRESH_S = 30.0  # an unknown table re-reads the schema at most this often
# After the engine's own cancel at the time limit, how long a query may take to stop (at most
# its limit again) before its caller gives up on it: the thread is abandoned and its slot
# stays taken until it ends.
STOP_GRACE_S = 5.0
# Reading the schema is a few statements (tables, columns, keys, comments), each under the query
# limit: its budget is that many queries'.
INTROSPECTION_QUERIES = 4
PING_SQL = "SELECT 1"  # readiness's trivial query: valid on every engine as written
# Asking the engine for a plan's size is planning only; past this the query is taken as not costly.
ESTIMATE_BUDGET_S = 2.0
# The niceness a costly in-process query runs at: ~1/10 of a core's share against ordinary work when the
# cores are contended (Linux's weights: 110 against 1024), all of it when they are idle.
COSTLY_NICENESS = 10


class WarehouseUnavailableError(WarehouseError):
    """The warehouse does not answer or refuses the bot's credentials."""

    code = "warehouse_unavailable"


class PermissionDeniedError(WarehouseError):
    code = "permission_denied"


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    comment: str = ""


@dataclass(frozen=True)
class ForeignKey:
    columns: tuple[str, ...]
    table: str  # the referenced table's key in `Schema.tables`
    ref_columns: tuple[str, ...]


@dataclass
class TableInfo:
    """What introspection knows about one table besides its columns."""

    schema: str
    name: str  # as the engine spells it (case and all)
    comment: str = ""
    primary_key: tuple[str, ...] = ()
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    row_estimate: int | None = None


@dataclass
class Schema:
    """Tables and their columns as the engine reports them (the source of truth for names).

    `tables` is keyed by the lower-case table name, or `schema.table` for tables outside
    the first configured schema.
    """

    tables: dict[str, list[Column]] = field(default_factory=dict)
    info: dict[str, TableInfo] = field(default_factory=dict)
    # The schema unqualified names mean (the first configured one): DuckDB's `main`, PostgreSQL's
    # `public`, the database itself on MySQL/MariaDB.
    default_schema: str = "main"
    # Every schema the engine listed, when none held a readable table (to say which were seen).
    seen_schemas: tuple[str, ...] = ()
    # Tables the engine lists but the bot's role may not read: left out of the catalog and the model
    # (their metrics would all fail), known to the guard so a query on one gets the engine's own
    # "permission denied" sentence naming it, not "no such table".
    unreadable: frozenset[str] = frozenset()

    def key_of(self, table: str) -> str | None:
        """The key of a table however a caller names it: its key, `schema.table` (the default
        schema's tables included), quoted parts, any letter case. The exact spelling wins over a
        case-blind match, so `Bakers` and `bakers` stay apart on an engine that keeps both."""
        if table in self.tables:
            return table
        parts = split_name(table)
        if not parts:
            return None
        owner, name = (parts[-2] if len(parts) > 1 else self.default_schema), parts[-1]
        exact = [k for k, i in self.info.items() if i.name == name and (i.schema == owner or i.schema.lower() == owner.lower())]
        if len(exact) == 1:
            return exact[0]
        blind = [k for k, i in self.info.items() if i.name.lower() == name.lower() and i.schema.lower() == owner.lower()]
        if len(blind) == 1:
            return blind[0]
        return table.lower() if table.lower() in self.tables else None

    def columns_of(self, table: str) -> list[Column]:
        key = self.key_of(table)
        return self.tables.get(key, []) if key is not None else []

    def column(self, table: str, name: str) -> Column | None:
        """A column of `table` by its exact name, else by a case-blind match when only one fits."""
        columns = self.columns_of(table)
        exact = [c for c in columns if c.name == name]
        blind = [c for c in columns if c.name.lower() == name.lower()]
        return exact[0] if exact else (blind[0] if len(blind) == 1 else None)

    def all_column_names(self) -> set[str]:
        return {c.name for cols in self.tables.values() for c in cols}

    def known_names(self) -> frozenset[str]:
        """Every way a query may name a table: bare, schema-qualified, lower-case."""
        names = set(self.tables) | self.unreadable
        for key, info in self.info.items():
            names.add(f"{info.schema}.{info.name}".lower())
            names.add(info.name.lower())
            names.add(key)
        return frozenset(names)

    def reference(self, table: str, dialect: str) -> str:
        """The table as SQL in `dialect`: qualified by its schema unless it lives in the schema
        bare names mean, each part quoted when the engine would otherwise misread it."""
        return self.table_expression(table, dialect).sql(dialect=dialect)

    def table_expression(self, table: str, dialect: str, alias: str | None = None) -> exp.Table:
        key = self.key_of(table)
        info = self.info.get(key) if key is not None else None
        if info is None:
            return table_reference(table, dialect, alias)
        return _table(info.name, None if info.schema == self.default_schema else info.schema, dialect, alias)


def table_reference(name: str, dialect: str, alias: str | None = None) -> exp.Table:
    """A table as written (`schema.table`, `"sales"."pizzaTypes"`), each part quoted where the engine would
    misread it bare (`sales."orderDetails"` on PostgreSQL), under a quoted alias when given."""
    parts = split_name(name) or [name]
    return _table(parts[-1], parts[-2] if len(parts) > 1 else None, dialect, alias)


def _table(name: str, owner: str | None, dialect: str, alias: str | None) -> exp.Table:
    return exp.Table(this=identifier(name, dialect), db=identifier(owner, dialect) if owner else None,
                     alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True)) if alias else None)


def table_key(schema_name: str, table: str, default_schema: str, taken: Collection[str] = ()) -> str:
    """A table's key in `Schema.tables`: its lower-case name, `schema.table` outside the default
    schema (so two schemas' `orders` stay apart); the exact spelling when the lower-case one is
    taken (MySQL on Linux keeps `Bakers` and `bakers` apart, and so do quoted PostgreSQL names)."""
    exact = table if schema_name == default_schema else f"{schema_name}.{table}"
    return exact if exact.lower() in taken else exact.lower()


def bare_names_schema(schemas: list[str], table_counts: dict[str, int]) -> str:
    """The schema unqualified names mean: the first one listed (WAREHOUSE_SCHEMAS' first, or the
    server's default) when it holds a table, else the one holding the most (a role that reads only
    `sales` is not left with every name qualified)."""
    if not schemas:
        return ""
    if table_counts.get(schemas[0]):
        return schemas[0]
    best = max(schemas, key=lambda s: table_counts.get(s, 0))
    return best if table_counts.get(best) else schemas[0]


SYSTEM_SCHEMAS = frozenset({"information_schema", "pg_catalog", "pg_toast", "mysql", "performance_schema", "sys",
                            "system", "temp", "crdb_internal", "pg_extension"})


def is_system_schema(name: str) -> bool:
    """The engine's own catalogs, never a team's data."""
    lower = name.lower()
    return lower in SYSTEM_SCHEMAS or lower.startswith(("pg_temp_", "pg_toast_temp_"))


def split_name(name: str) -> list[str]:
    """`schema.table`, `"sales"."pizzaTypes"`, `` `db`.`T` `` or a bare name as its parts, quotes
    removed; a name with spaces and no quotes is one part per dot."""
    if not any(q in name for q in '"`['):
        return [p for p in name.split(".") if p]
    parts = re.findall(r'"((?:[^"]|"")*)"|`((?:[^`]|``)*)`|\[([^\]]*)\]|([^."`\[\]]+)', name)
    return [next(p for p in group if p).replace('""', '"').replace("``", "`") for group in parts if any(group)]


# Engines that fold an unquoted name to lower case: a name with any capital must be quoted there.
# (SQLAlchemy reports Snowflake's case-blind upper-case names in lower case, so the same rule holds.)
# Words SQL reserves (PostgreSQL's reserved list, which is close to the standard's; sqlglot's parser
# is lenient with several of them, so its reading alone does not tell).
_RESERVED = frozenset("""all analyse analyze and any array as asc asymmetric authorization binary both case cast check
collate collation column concurrently constraint create cross current_catalog current_date current_role
current_schema current_time current_timestamp current_user default deferrable desc distinct do else end
except false fetch for foreign freeze from full grant group having ilike in initially inner intersect into is
isnull join lateral leading left like limit localtime localtimestamp natural not notnull null offset on only
or order outer overlaps placing primary references returning right select session_user similar some
symmetric system_user table tablesample then to trailing true union unique user using variadic verbose when
where window with""".split())
_FOLDS_LOWER = frozenset({"postgres", "redshift", "trino", "presto", "snowflake", "materialize", "risingwave"})


@functools.lru_cache(maxsize=4096)
def needs_quotes(name: str, dialect: str) -> bool:
    """Would the engine misread `name` bare: odd characters, a case it folds away, or a word the
    SQL grammar reserves (`order`, `group`, `user`: read back through sqlglot's own parser)?"""
    if not (name.isidentifier() and name.isascii()):
        return True
    if dialect in _FOLDS_LOWER and name != name.lower():
        return True
    generator = Dialect.get_or_raise(dialect).generator_class
    if name.lower() in _RESERVED or name.lower() in {w.lower() for w in getattr(generator, "RESERVED_KEYWORDS", ())}:
        return True
    try:
        select = sqlglot.parse_one(f"SELECT {name} FROM {name}", read=dialect)
    except sqlglot.errors.SqlglotError:
        return True
    column, table = select.expressions[0] if isinstance(select, exp.Select) else None, select.find(exp.Table)
    return not (isinstance(column, exp.Column) and column.name == name and table is not None and table.name == name)


def identifier(name: str, dialect: str) -> exp.Identifier:
    """One name part as the engine must read it (quoted only when it must be)."""
    if needs_quotes(name, dialect) and dialect == "snowflake" and name.isidentifier() and name == name.lower():
        return exp.to_identifier(name.upper(), quoted=True)  # SQLAlchemy's spelling of a case-blind name
    return exp.to_identifier(name, quoted=needs_quotes(name, dialect))


def quote(name: str, dialect: str) -> str:
    """An identifier quoted only when it must be (odd characters, a case the engine folds, keywords)."""
    return identifier(name, dialect).sql(dialect=dialect)


@dataclass
class QueryResult:
    columns: list[str]
    types: list[str]
    rows: list[tuple[Any, ...]]
    elapsed_ms: float = 0.0
    sql: str = ""

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row)) for row in self.rows]


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:,.0f} MB" if size >= 1_000_000 else f"{size / 1_000:,.0f} kB"


class FetchTotal:
    """What one request has brought back over all its queries, bounded by `most` bytes: a person's
    question that runs many queries (or a follow-up that re-reads a large result) cannot hold more
    than this in the bot's memory, whatever each query's own cap allows."""

    def __init__(self, most: int):
        self.most = most
        self.size = 0
        self._lock = threading.Lock()

    def charge(self, size: int) -> None:
        with self._lock:
            if self.size + size > self.most:
                raise ResultTooLargeError(
                    f"This question's queries have brought back {_megabytes(self.most)} of results "
                    "between them, the most one question may; ask for fewer rows or columns, or ask the "
                    "parts as separate questions."
                )
            self.size += size

    def refund(self, size: int) -> None:
        """A query that failed keeps none of its rows: what it fetched no longer counts."""
        with self._lock:
            self.size = max(self.size - size, 0)


@dataclass(frozen=True)
class Limits:
    timeout_s: float
    row_cap: int
    max_bytes: int
    total: FetchTotal | None = None  # the request's total over all its queries, when it has one


def json_safe(value: Any) -> Any:
    """Engine values as plain JSON-friendly Python (results travel through checkpoints)."""
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return value


def value_bytes(value: Any) -> int:
    """A cheap upper-bound-ish size of one value as it travels in a reply."""
    if value is None:
        return 1
    if isinstance(value, (str, bytes, bytearray)):
        return len(value) + 8
    if isinstance(value, (list, tuple)):
        return sum(value_bytes(v) for v in value) + 8
    if isinstance(value, dict):
        return sum(value_bytes(k) + value_bytes(v) for k, v in value.items()) + 8
    return 16


class RowCollector:
    """Rows fetched in batches, stopped as soon as the row cap, the byte budget or the request's total
    is passed. A context manager: a query that fails gives back what it charged to the total."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.rows: list[tuple[Any, ...]] = []
        self.size = 0
        self._charged = 0

    def __enter__(self) -> RowCollector:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if error is not None and self.limits.total is not None:
            self.limits.total.refund(self._charged)

    def add(self, batch: Sequence[tuple[Any, ...]]) -> bool:
        """Add one batch; False when the result is complete (empty batch)."""
        if not batch:
            return False
        before = self.size
        self._add_rows(batch)
        if self.limits.total is not None:
            self.limits.total.charge(self.size - before)
            self._charged += self.size - before
        return True

    def _add_rows(self, batch: Sequence[tuple[Any, ...]]) -> None:
        for row in batch:
            self.size += sum(value_bytes(v) for v in row)
            self.rows.append(row)
            if len(self.rows) > self.limits.row_cap:
                raise ResultTooLargeError(
                    f"The query returns more than {self.limits.row_cap:,} rows, the most I can bring "
                    "back; add a filter, aggregate, or a LIMIT."
                )
            if self.size > self.limits.max_bytes:
                raise ResultTooLargeError(
                    f"The query's result is larger than {_megabytes(self.limits.max_bytes)}, "
                    "the most I can bring back; select fewer or shorter columns, or aggregate."
                )


def _yielding_cpu(run: Callable[..., QueryResult], *args: Any, **kwargs: Any) -> QueryResult:
    """`run` on this thread at a lower CPU priority: an in-process engine's costly query runs on the
    cores that answer everyone else (the agent's steps, other people's cheap queries), so it takes
    what they leave. Linux gives each thread its own niceness, and a slot's thread whose niceness
    changed ends with its call (agent/budget/threads.py), so nothing else is lowered; elsewhere (or if
    refused) the query runs as it is."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), COSTLY_NICENESS)
    return run(*args, **kwargs)


class Warehouse:
    """Base class of every engine adapter; shared by every request, safe across threads."""

    dialect: str = "duckdb"  # sqlglot's name for the SQL this warehouse runs
    engine: str = "duckdb"  # the product name people know it by
    is_demo: bool = False
    # The engine runs its queries on this process's threads (DuckDB): its cores are the bot's.
    in_process: bool = False
    FETCH_BATCH = 200

    def __init__(self, settings: Settings, *, url: str = ""):
        self.settings = settings
        self.slots = BlockingSlots(settings.warehouse_slots, share=settings.warehouse_slot_share)
        self.url = url
        self._schema: Schema | None = None
        self._schema_at = 0.0
        self._schema_lock = threading.Lock()
        self._user_functions: frozenset[str] = frozenset()
        self._checked = CheckedQueries()
        self._guard: tuple[Schema, GuardPolicy] | None = None  # the guard's policy, and the schema it is of

    # -- what engines provide ---------------------------------------------------------

    def _execute(self, sql: str, limits: Limits) -> QueryResult:
        """Run SQL as given (no guard) on a read-only session within `limits`."""
        raise NotImplementedError

    def _explain(self, sql: str) -> None:
        raise NotImplementedError

    def _introspect(self) -> Schema:
        raise NotImplementedError

    def _sample_values(self, table: str, column: str, limit: int) -> list[Any]:
        raise NotImplementedError

    def _read_user_functions(self) -> frozenset[str]:
        """Lower-case names of functions someone created that a bare call could reach (engines
        where a built-in always wins, like MariaDB, have none to report)."""
        return frozenset()

    def _plan_size(self, sql: str) -> PlanSize | None:
        """What the engine's planner expects of `sql` (its most rows at any step, the bytes it scans);
        None when it does not say."""
        return None

    def cancel(self) -> None:
        """Stop every query this adapter is running (used at shutdown and by deadlines)."""

    def close(self) -> None:
        pass

    def health(self) -> str | None:
        """None when the warehouse answers; an embedded file always does."""
        return None

    def describe(self) -> str:
        """Where this warehouse is, safe to log (no password)."""
        from agent.warehouse.urls import mask_url

        return mask_url(self.url) if self.url else self.engine

    # -- schema ---------------------------------------------------------------------

    def schema(self) -> Schema:
        """The introspected schema, read once and again after `catalog_ttl_s`."""
        ttl = self.settings.catalog_ttl_s
        with self._schema_lock:
            if self._schema is None or (ttl and time.monotonic() - self._schema_at > ttl):
                started = time.perf_counter()
                log.info("reading the schema of %s", self.describe())
                # Under a budget enforced from outside: a catalog read that never returns is abandoned.
                self._schema = self.slots.call_blocking(
                    self._introspect_with_functions, budget_s=self.budget_s() * INTROSPECTION_QUERIES
                )
                self._schema_at = time.monotonic()
                log.info(
                    "read %d tables from %s in %.1f s",
                    len(self._schema.tables), self.describe(), time.perf_counter() - started,
                )
            return self._schema

    def _introspect_with_functions(self) -> Schema:
        schema = self._introspect()
        self._user_functions = self._read_user_functions()
        return schema

    def refresh(self) -> Schema:
        with self._schema_lock:
            self._schema = None
        return self.schema()

    def guard_policy(self) -> GuardPolicy:
        """Made once per schema read (a refresh reads a new one), not at each of a request's checks
        (six for a data question): the table names are gathered once, not per check."""
        schema = self.schema()
        kept = self._guard
        if kept is None or kept[0] is not schema:
            kept = self._guard = (schema, GuardPolicy(
                tables=schema.known_names(), allow_system=self.settings.warehouse_allow_system_tables,
                user_functions=self._user_functions,
            ))
        return kept[1]

    def check(self, sql: SqlInput) -> CheckedQuery:
        """The guard with this warehouse's dialect and tables; a table created since the schema
        was read gets one refresh before it is refused. A text this warehouse checked before, or a
        query checked elsewhere (a CPU worker's guard), is judged on its tree: never parsed again.
        A query this warehouse judged under its current tables is passed on as it is: the policy, the
        audit, the cost estimate and the run are handed the one reading, and the guard is not asked again."""
        if isinstance(sql, CheckedQuery) and sql.dialect == self.dialect and sql.policy is self.guard_policy():
            return sql
        query = sql if isinstance(sql, CheckedQuery) else self._checked.get(clean_sql_text(sql), self.dialect)
        if query is not None and query.dialect == self.dialect and query.policy is self.guard_policy():
            return query  # a text judged under the current tables before (the confirmed SQL, come back as text)
        try:
            return self._checked.keep(self._judge(sql if query is None else query))
        except UnknownTableError:
            if time.monotonic() - self._schema_at < _MIN_REFRESH_S:
                raise
            self.refresh()
            return self._checked.keep(self._judge(sql if query is None else query))

    def known(self, sql: str) -> CheckedQuery | None:
        """`sql` as this warehouse checked it before, judged under its current tables (`check`: not
        parsed again); None when it has not read the text, or no longer keeps it."""
        query = self._checked.get(clean_sql_text(sql), self.dialect)
        return None if query is None else self.check(query)

    def _judge(self, sql: SqlInput) -> CheckedQuery:
        if isinstance(sql, CheckedQuery) and sql.dialect == self.dialect:
            return recheck(sql, self.guard_policy())
        return check_query(sql, dialect=self.dialect, policy=self.guard_policy())

    def distinct_values(self, table: str, column: str, limit: int = 2000) -> list[Any]:
        """Distinct non-null values of one column (sampled on big tables), for matching words."""
        schema = self.schema()
        key, found = schema.key_of(table), schema.column(table, column)
        if key is None or found is None:
            raise SqlError(f"There is no column {column} in {table}.")
        return self.slots.call_blocking(self._sample_values, key, found.name, limit, budget_s=self.budget_s())

    # -- queries ----------------------------------------------------------------------

    def limits(self, *, row_cap: int | None = None, timeout_s: float | None = None,
               total: FetchTotal | None = None) -> Limits:
        return Limits(
            timeout_s=timeout_s or self.settings.query_timeout_s,
            row_cap=row_cap or self.settings.query_row_cap,
            max_bytes=self.settings.query_result_bytes,
            total=total,
        )

    def dry_run(self, sql: SqlInput) -> None:
        """Validate a query with the engine's own EXPLAIN; raises SqlError when it would fail."""
        self._explain(self.check(sql).sql)

    def run(self, sql: SqlInput, *, row_cap: int | None = None, timeout_s: float | None = None,
            total: FetchTotal | None = None) -> QueryResult:
        """Run one guarded read query; blocking, so async callers use `arun`. `total`: the request's
        fetch total, charged as rows arrive."""
        query = self.check(sql)
        return self._execute(query.sql, self.limits(row_cap=row_cap, timeout_s=timeout_s, total=total))

    def budget_s(self, timeout_s: float | None = None) -> float:
        """How long a caller waits for a query with this time limit before abandoning it."""
        limit_s = timeout_s or self.settings.query_timeout_s
        return limit_s + min(STOP_GRACE_S, limit_s)

    async def arun(self, sql: SqlInput, *, owner: str | None = None, channel: str | None = None, **limits: Any) -> QueryResult:
        """`run` on a warehouse slot. `owner` (the person asking) holds at most one runaway at a time, and
        they and `channel` at most a share of the slots; a query the engine estimates costly never takes
        the slot kept for others."""
        budget_s = self.budget_s(limits.get("timeout_s"))
        costly = await self.is_costly(sql)
        run = functools.partial(_yielding_cpu, self.run) if costly and self.in_process else self.run
        return await self.slots.call(run, sql, budget_s=budget_s, owner=owner, channel=channel, costly=costly, **limits)

    async def is_costly(self, sql: SqlInput) -> bool:
        """Whether `sql` is costly: the engine's plan expects more rows than `warehouse_costly_rows` at some
        step or to scan more than `warehouse_costly_bytes`, or its shape is costly whatever the plan says
        (recursion, a regular expression over a large table: agent.warehouse.cost). Asked off the slots
        (planning is quick); an engine that cannot say, or is slow to, leaves the shape to decide."""

        def estimate() -> str | None:
            query = self.check(sql)
            shape = costly_shape(query.tree, self._table_rows, self.settings.warehouse_costly_rows)
            if shape is not None:
                return shape
            try:
                size = self._plan_size(query.sql)
            except Exception as exc:  # noqa: BLE001 - running the query says what is wrong with it, in a sentence
                log.info("no plan estimate for a query: %s: %s", type(exc).__name__,
                         str(exc).splitlines()[0] if str(exc) else "")
                return None
            return self._costly_size(size)

        try:
            why = await off_slot(estimate, budget_s=ESTIMATE_BUDGET_S)
        except Exception as exc:  # noqa: BLE001 - the guard's refusal or a slow planner: running says what is wrong
            log.info("no cost estimate for a query: %s: %s", type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")
            return False
        if why is not None:
            log.info("a query is costly: %s", why)
        return why is not None

    def _costly_size(self, size: PlanSize | None) -> str | None:
        if size is None:
            return None
        if size.rows is not None and size.rows > self.settings.warehouse_costly_rows:
            return f"the plan expects {size.rows:,.0f} rows at some step"
        if size.bytes is not None and size.bytes > self.settings.warehouse_costly_bytes:
            return f"the plan scans {size.bytes:,.0f} bytes"
        return None

    def _table_rows(self, table: exp.Table) -> int | None:
        """A table's estimated rows as introspection read them; None for a name that is no table (a CTE's)."""
        schema = self.schema()
        key = schema.key_of(".".join(part.name for part in table.parts))
        info = schema.info.get(key) if key is not None else None
        return info.row_estimate if info is not None else None

    async def adry_run(self, sql: SqlInput, *, owner: str | None = None) -> None:
        await self.slots.call(self.dry_run, sql, budget_s=self.budget_s(), owner=owner)

    async def aping(self, timeout_s: float) -> None:
        """Does the engine answer a trivial query within `timeout_s`? Raises an AssistantError if not.

        The query is ours, a constant, so it goes to the engine without the guard: the guard would read
        the whole schema first (its table list), which readiness does not need and a first /readyz
        would wait for; the first question reads it instead."""
        await self.slots.call(self._execute, PING_SQL, self.limits(timeout_s=timeout_s), budget_s=timeout_s)
