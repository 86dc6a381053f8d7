"""The SQL layer's CPU-heavy entry points as they run inside a CpuPool worker process.

Everything here takes and returns plain picklable values. A fix needs the engine's dry run
and small probes of the data; a worker opens its own read-only connection to the warehouse
file for them (DuckDB lets several processes read one file), so nothing of the bot's process
crosses over. Those queries are the person's like any other: each passes their access check
here, and each probe comes back as an audit record for the bot's trail.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.audit import AuditRecord
from agent.charts.roles import Role, Row
from agent.charts.spec import ChartSpec
from agent.chatbi.facts import Scope
from agent.chatbi.meaning import ColumnMeaning
from agent.chatbi.write_up import Shape, WriteUp, analysed, write_up
from agent.errors import AssistantError, SqlError
from agent.policy.access import Access, AccessDenied
from agent.semantic.nlq.extract import Extraction, extract_intent
from agent.semantic.nlq.follow_up import FollowUp, read_follow_up
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.model.values import ValueIndex
from agent.semantic.nlq.read_compile import Compiled
from agent.semantic.nlq.read_compile import read_and_compile as read_questions_and_compile
from agent.sql.explain import Explanation, explain_sql
from agent.sql.fix import FixResult, fix_sql
from agent.sql.checked import CheckedQuery, SqlInput, sql_text
from agent.sql.guard import check_query, refuse_unsafe_words
from agent.sql.parse import sqlglot_dialect, transpile
from agent.warehouse.base import Schema

if TYPE_CHECKING:
    from duckdb import DuckDBPyConnection

_connections: dict[tuple[str, str], DuckDBPyConnection] = {}  # one per worker process, opened on first use
# How the person is told a question took too long to read.
READING_QUESTION = "Reading the question"
DRAWING_CHART = "Drawing the chart"
ANALYSING_RESULT = "Analysing the result"
# What a worker imports before its first step (CpuPool's forkserver): this module, the reader's word
# data and matplotlib (`worker_preload`), which would otherwise be paid inside a new worker's first
# step's budget.
PRELOAD = ("agent.tools.worker_preload",)
# What a reader's or analysis step is handed first (`CpuPool.run_sharing`): the model and its values.
Shared = tuple[SemanticModel, ValueIndex]


@dataclass(frozen=True)
class WarehouseFile:
    """Enough to open the warehouse read-only from another process, as one person may read it."""

    path: Path
    memory_limit: str
    probe_rows: int = 100
    access: Access | None = None  # the person's rights; None: nothing is hidden
    # The probes run, as audit records without the person's name (the bot adds it and writes them).
    probes: list[AuditRecord] = field(default_factory=list, compare=False)

    def dry_run(self, sql: SqlInput) -> None:
        self._read("EXPLAIN " + self._authorized(sql, loosely=True))

    def probe(self, sql: str) -> list[tuple[Any, ...]]:
        """A small read query a repair uses to look at the data (at most `probe_rows` rows)."""
        started = time.perf_counter()
        record = AuditRecord(sql=sql, outcome="error")
        try:
            executed = self._authorized(sql)
            if executed != sql:
                record.executed_sql = executed
            if self.access is not None:
                record.tables = sorted(".".join(t) for t in self.access.reads(sql).tables)
            rows = self._read(executed)[: self.probe_rows]
            record.outcome, record.rows = "ok", len(rows)
            return rows
        except AssistantError as exc:
            record.outcome = "refused" if isinstance(exc, AccessDenied) or exc.code == "unsafe_sql" else "error"
            record.error_code, record.error = exc.code, exc.user_message
            raise
        finally:
            record.duration_ms = round((time.perf_counter() - started) * 1000, 3)
            self.probes.append(record)

    def _authorized(self, sql: SqlInput, *, loosely: bool = False) -> str:
        """The SQL to run for the person, or AccessDenied. `loosely` (an EXPLAIN, which returns no
        data): a query naming a column nobody has (what the fixer is there to repair) cannot be
        resolved column by column, so it is judged by the names it uses, as pasted broken SQL is.
        A query the guard has read already is judged on its tree."""
        query = sql if isinstance(sql, CheckedQuery) and sql.dialect == "duckdb" else check_query(sql)
        if self.access is None:
            return query.sql
        try:
            return sql_text(self.access.authorize(query))
        except SqlError:
            if not loosely:
                raise
            self.access.authorize_text(query.sql)
            return query.sql

    def _read(self, statement: str) -> list[tuple[Any, ...]]:
        import duckdb

        from agent.warehouse.duck import _as_sql_error

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
            rows: list[tuple[Any, ...]] = _connections[key].execute(statement).fetchmany(self.probe_rows + 1)
            return rows
        except duckdb.Error as exc:
            raise _as_sql_error(exc) from exc


def read_questions(shared: Shared, questions: Sequence[str]) -> list[Extraction]:
    """The offline semantic parse of each question, with the model and values `shared` with the step."""
    model, values = shared
    return [extract_intent(question, model, values) for question in questions]


def read_and_compile(shared: Shared, questions: Sequence[str], dialect: str) -> Compiled:
    """`read_questions`, and the SQL of the reading they make compiled here too, for `dialect`
    (`agent.semantic.nlq.read_compile`): each compile checks every definition of the model (several ms
    a new question), work that would otherwise hold the event loop."""
    model, values = shared
    return read_questions_and_compile(questions, model, values, dialect)


def read_edit(shared: Shared, previous: StructuredIntent, message: str) -> FollowUp:
    """A thread's message read as an edit of the previous reading (or as a question of its own)."""
    model, values = shared
    return read_follow_up(previous, message, model, values)


def guard(sql: str, dialect: str) -> CheckedQuery:
    """The one parse of a query, bounded here; its reading travels back for the warehouse to judge
    under its own tables and run, without parsing it again."""
    return check_query(sql, dialect=dialect)


def translate(sql: str, read: str, write: str) -> str:
    # What no query may contain is refused with its reason before a parse that may not read it.
    refuse_unsafe_words(sql, sqlglot_dialect(read))
    return transpile(sql, read=read, write=write)


def explain(sql: str, dialect: str, column_descriptions: dict[str, str]) -> Explanation:
    return explain_sql(sql, dialect=dialect, column_descriptions=column_descriptions)


def fix(
    sql: str,
    error: str | None,
    dialect: str,
    schema: Schema,
    target: str,
    dry_run: Callable[[SqlInput], None],
    probe: Callable[[str], list[tuple[Any, ...]]],
) -> FixResult:
    return fix_sql(sql, error=error, dialect=dialect, schema=schema, dry_run=dry_run, probe=probe, target=target)


def fix_on_file(
    sql: str, error: str | None, dialect: str, schema: Schema, target: str, warehouse: WarehouseFile
) -> tuple[FixResult, list[AuditRecord]]:
    """`fix` with the dry runs and probes on `warehouse`, and the probes it ran (for the audit trail)."""
    result = fix(sql, error, dialect, schema, target, warehouse.dry_run, warehouse.probe)
    return result, warehouse.probes


def analysis_first(
    shared: Shared, question: str, columns: list[str], types: list[str], rows: Sequence[Row], sql: SqlInput | None,
    meanings: dict[str, ColumnMeaning], intent: StructuredIntent | None, reading: str,
) -> Shape | WriteUp:
    """The result's shape, with its write-up when no whole total is to be queried (`analysed`), the
    follow-ups worded and checked against the model and values `shared` with the step."""
    return analysed(question, columns, types, rows, sql, meanings, intent, shared, reading)


def analysis_write_up(
    shared: Shared, question: str, columns: list[str], types: list[str], rows: Sequence[Row],
    meanings: dict[str, ColumnMeaning], scope: Scope, roles: list[Role], intent: StructuredIntent | None, reading: str,
) -> WriteUp:
    """The facts, sentences, chart and follow-ups of a result (`write_up`), the follow-ups worded and
    checked against the model and values `shared` with the step."""
    return write_up(question, columns, types, rows, meanings, scope, roles, intent, shared, reading)


# Steps that open their own read-only connection to the warehouse file: DuckDB refuses a second
# connection of another configuration in a process that holds one, so these always get a worker.
NEEDS_OWN_PROCESS: frozenset[Callable[..., Any]] = frozenset({fix_on_file})


def draw_chart(spec: ChartSpec, columns: list[str], rows: list[list[Any]]) -> bytes:
    """The chart's PNG. matplotlib is imported here, not at the top: the bot's own process imports this
    module and never draws (the forkserver preloads the charts for its workers)."""
    from agent.charts.render import render_png

    return render_png(spec, columns, rows)
