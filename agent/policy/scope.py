"""A run's view of the agent's context: the warehouse, catalog, semantic model and values as the
person asking may see them, with every query checked against their rights and audited.

Tools only ever see this view, so whatever path a query takes (generated, compiled, fixed,
edited, pasted) it meets the same check at the same place before the engine runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from agent.audit import AuditRecord, AuditTrail
from agent.errors import AssistantError
from agent.policy.access import AccessDenied, Access, Identity, Policy
from agent.policy.reads import Reads, TableName, spelt
from agent.sql.checked import CheckedQuery, SqlInput, sql_text
from agent.policy.views import masked_value_words, scoped_catalog, scoped_schema, scoped_semantic, scoped_values
from agent.warehouse import QueryResult, Schema, Warehouse, WarehouseUnavailableError
from agent.warehouse.base import FetchTotal


if TYPE_CHECKING:
    from agent.context import AgentContext
    from agent.context import ChatContext

log = logging.getLogger(__name__)

MAX_SHARED_VIEWS = 64

def warehouse_tables(warehouse: Warehouse) -> tuple[dict[TableName, list[str]], str]:
    """Every table as (schema, table) with its columns, and the schema unqualified names mean."""
    schema = warehouse.schema()
    tables: dict[TableName, list[str]] = {}
    for key, columns in schema.tables.items():
        info = schema.info.get(key)
        owner, _, bare = key.rpartition(".")
        name = (info.schema, info.name) if info else (owner or schema.default_schema, bare)
        tables[name] = [c.name for c in columns]
    return tables, schema.default_schema


class ScopedWarehouse:
    """The warehouse for one person: queries pass their access check and land in the audit trail."""

    def __init__(self, warehouse: Warehouse, access: Access, audit: AuditTrail | None, who: ChatContext,
                 session_id: str | None):
        self._warehouse = warehouse
        self.access = access
        self._audit = audit
        self._who = who
        self._session_id = session_id
        self._schema: Schema | None = None
        # One request's results over all its queries (REQUEST_RESULT_BYTES), on top of each query's cap.
        self.fetched = FetchTotal(warehouse.settings.request_result_bytes)
        # What the tools ask of the engine for every query (its dialect, a text it read before, the guard
        # alone; the person's rights are `authorized`'s): the engine's own, bound once, not looked up
        # through __getattr__ at each use.
        self.dialect = warehouse.dialect
        self.known = warehouse.known
        self.check = warehouse.check

    def __getattr__(self, name: str) -> Any:  # path, settings, close…: the engine's own
        return getattr(self._warehouse, name)

    def schema(self) -> Schema:
        if self._schema is None:
            full = self._warehouse.schema()
            self._schema = scoped_schema(full, self.access) if self.access.restricted else full
        return self._schema

    def distinct_values(self, table: str, column: str, limit: int = 2000) -> list[Any]:
        key = self.access.table_of(table)
        named = spelt(column, self.access.tables.get(key, [])) if key is not None else None
        if key is None or named is None or not self.access.column_readable(key, named):
            raise AccessDenied(f"You don't have access to the column {table}.{column}. "
                               f"Ask {self.access.contact} if you need it.")
        if self.access.masked(key, named):
            return []  # a masked column's values are not this person's to match words against
        return self._warehouse.distinct_values(table, column, limit)

    def authorize(self, sql: str, dialect: str | None = None) -> str:
        return self.access.authorize(sql, dialect)

    def authorized(self, sql: SqlInput) -> CheckedQuery:
        """The engine's guard, then this person's rights, on the one reading of `sql`: the query to run
        (with masked columns rewritten, a new text the guard reads in its turn)."""
        query = self._warehouse.check(sql)
        executed = self.access.authorize(query)
        return query if executed is query else self._warehouse.check(executed)

    def dry_run(self, sql: SqlInput) -> None:
        self._warehouse.dry_run(self.authorized(sql))

    async def adry_run(self, sql: SqlInput, **options: Any) -> None:
        checked = await asyncio.to_thread(self.authorized, sql)
        await self._warehouse.adry_run(checked, **options)

    def run(self, sql: SqlInput, **limits: Any) -> QueryResult:
        """Blocking, for callers already off the event loop."""
        with self._audited(sql) as record:
            executed = self._checked(sql, record)
            result = self._warehouse.run(executed, **{"total": self.fetched, **limits})
            record.outcome, record.rows = "ok", result.row_count
            return result

    async def arun(self, sql: SqlInput, **options: Any) -> QueryResult:
        """The engine's own `arun` (its slots and budgets), after the person's check; audited."""
        with self._audited(sql) as record:
            executed = await asyncio.to_thread(self._checked, sql, record)
            result = await self._warehouse.arun(executed, **{"total": self.fetched, **options})
            record.outcome, record.rows = "ok", result.row_count
            return result

    def record_elsewhere(self, records: list[AuditRecord]) -> None:
        """Queries run for this person outside this process (a fix's probes in a worker), into the trail."""
        for record in records:
            record.request_id, record.session_id = self._who.request_id, self._session_id
            record.user, record.channel = self._who.user, self._who.channel
            if self._audit is not None:
                self._audit.record(record)

    def _checked(self, sql: SqlInput, record: AuditRecord) -> CheckedQuery:
        """The guard's reading of `sql`, what it reads for the trail, and the person's check on it."""
        query = self._warehouse.check(sql)
        reads = self._reads(query)
        if reads is not None:
            record.tables = sorted(".".join(t) for t in reads.tables)
        executed = self.access.authorize(query, reads=reads)
        if executed is query:
            return query
        record.executed_sql = sql_text(executed)
        return self._warehouse.check(executed)

    @contextlib.contextmanager
    def _audited(self, sql: SqlInput) -> Iterator[AuditRecord]:
        """One audit record for one query, whatever happens to it."""
        started = time.perf_counter()
        record = AuditRecord(
            request_id=self._who.request_id, session_id=self._session_id, user=self._who.user,
            channel=self._who.channel, sql=sql_text(sql), outcome="error",
        )
        try:
            yield record
        except AssistantError as exc:
            record.outcome = "refused" if isinstance(exc, AccessDenied) or exc.code == "unsafe_sql" else "error"
            record.error_code, record.error = exc.code, exc.user_message
            raise
        except BaseException as exc:
            record.error_code, record.error = "internal", type(exc).__name__
            raise
        finally:
            record.duration_ms = round((time.perf_counter() - started) * 1000, 3)
            if self._audit is not None:
                self._audit.record(record)

    def _reads(self, query: CheckedQuery) -> Reads | None:
        try:
            return self.access.reads(query)
        except AssistantError:
            return None  # the run below reports what is wrong with the SQL


class Governance:
    """Built once at start: the policy (or none) and the audit trail; scopes each run's context."""

    def __init__(self, warehouse: Warehouse, policy: Policy | None, audit: AuditTrail | None):
        self.policy = policy
        self.audit = audit
        self._warehouse = warehouse
        self._tables: dict[TableName, list[str]] | None = None
        self.default_schema = "main"  # until the schema is read: what the warehouse says then
        self.dialect = getattr(warehouse, "dialect", "duckdb")
        if policy is not None:
            try:
                policy.check_against(self.tables, self.default_schema)
            except WarehouseUnavailableError as exc:
                # Start anyway: every query is still checked against the policy; only the check that
                # its names exist waits for the warehouse.
                log.warning("the access policy is checked against the schema once the warehouse answers: %s",
                            exc.user_message)
        self._views: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}
        self._lock = threading.Lock()

    @property
    def tables(self) -> dict[TableName, list[str]]:
        """The warehouse's tables, read on first use so a warehouse that is down at start-up stops nothing."""
        if self._tables is None:
            self._tables, self.default_schema = warehouse_tables(self._warehouse)
        return self._tables

    def identity(self, who: ChatContext) -> Identity:
        return Identity(user=who.user, channel=who.channel, groups=frozenset(who.groups))

    def access_for(self, who: ChatContext) -> Access:
        if self.policy is None:
            return Access.unrestricted(self.tables, self.default_schema, self.dialect)
        return self.policy.access_for(self.identity(who), self.tables, self.default_schema, self.dialect)

    def may_answer_for(self, who: ChatContext, owner: str | None) -> bool:
        if self.policy is None:
            return owner is None or who.user is None or who.user == owner
        return self.policy.may_answer_for(self.identity(who), owner)

    def may_teach(self, who: ChatContext) -> bool:
        return self.policy is None or self.policy.may_teach(self.identity(who))

    def context_for(self, base: AgentContext, who: ChatContext, session_id: str | None = None) -> AgentContext:
        """`base` as `who` may see it: scoped warehouse, catalog, semantic model and values."""
        access = self.access_for(who)
        catalog, semantic, values = self._views_for(base, access)
        return dataclasses.replace(
            base,
            # A Warehouse by duck typing: its own checks, the engine's everything else (__getattr__).
            warehouse=cast(Warehouse, ScopedWarehouse(base.warehouse, access, self.audit, who, session_id)),
            catalog=catalog,
            semantic=semantic,
            values=values,
            per_run=True,  # a model that reads per person reads this view (AgentContext.__post_init__)
        )

    def _views_for(self, base: AgentContext, access: Access) -> tuple[Any, Any, Any]:
        if not access.narrowed():
            return base.catalog, base.semantic, base.values
        # a live catalog completes its values in the background: a newer version gets a new view
        key = (id(base.catalog), getattr(base.catalog, "version", 0), id(base.semantic), id(base.values), access.key)
        with self._lock:
            views = self._views.get(key)
            if views is None:
                hidden = masked_value_words(base.semantic, base.values, access)
                semantic = scoped_semantic(base.semantic, access, hidden)
                views = (scoped_catalog(base.catalog, access, hidden), semantic, scoped_values(base.values, semantic))
                if len(self._views) >= MAX_SHARED_VIEWS:
                    self._views.pop(next(iter(self._views)))
                self._views[key] = views
            return views

    def close(self) -> None:
        if self.audit is not None:
            self.audit.close()
