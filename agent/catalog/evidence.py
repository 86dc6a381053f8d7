"""What the schema bootstrap reads from the data itself, a few bounded queries at start-up: whether a
column named like a key holds that key's values (an inclusion check on a sample of its distinct
values), and, per table, a profile of each column on a sample of rows (how many distinct values, the
lowest and the highest) that tells flags (two values) and rates (values in 0..1) apart."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from agent.catalog.references import Reference, References, find_references
from agent.errors import QueryTimeoutError
from agent.warehouse import Schema, Warehouse, WarehouseUnavailableError
from agent.warehouse.base import quote

log = logging.getLogger(__name__)

SAMPLE_VALUES = 1000  # distinct values of a reference checked against the key
SAMPLE_ROWS = 10_000  # rows a table's profile reads
# All of it together takes at most this many query budgets (the introspection takes four): past that,
# references not yet checked are not used and tables not yet profiled have no flags.
EVIDENCE_QUERIES = 6


@dataclass(frozen=True)
class Profile:
    distinct: int
    low: Any
    high: Any


@dataclass
class Evidence:
    references: References = field(default_factory=References)
    profiles: dict[tuple[str, str], Profile] = field(default_factory=dict)


def read_evidence(warehouse: Warehouse, schema: Schema) -> Evidence:
    deadline = time.monotonic() + warehouse.budget_s() * EVIDENCE_QUERIES
    started = time.perf_counter()
    references = find_references(schema, _Prober(warehouse, schema, deadline))
    profiles = read_profiles(warehouse, schema, deadline)
    log.info("references of %s: %s; %d columns profiled in %.1f s", warehouse.describe(), references.summary(),
             len(profiles), time.perf_counter() - started)
    return Evidence(references, profiles)


class _Prober:
    """The inclusion check, one query per candidate, until the deadline."""

    def __init__(self, warehouse: Warehouse, schema: Schema, deadline: float):
        self.warehouse, self.schema, self.deadline = warehouse, schema, deadline
        self.stopped = False

    def __call__(self, ref: Reference) -> bool | None:
        if self.stopped or time.monotonic() > self.deadline:
            return None
        dialect = self.warehouse.dialect
        column, key = quote(ref.column, dialect), quote(ref.target_column, dialect)
        sql = (f"SELECT count(*), count(k.{key}) FROM (SELECT DISTINCT {column} AS v FROM "
               f"{self.schema.reference(ref.table, dialect)} WHERE {column} IS NOT NULL LIMIT {SAMPLE_VALUES}) s "
               f"LEFT JOIN {self.schema.reference(ref.target, dialect)} k ON s.v = k.{key}")
        rows = self._run(sql, f"{ref.table}.{ref.column} -> {ref.target}")
        if rows is None:
            return None if self.stopped else False
        sampled, found = rows[0]
        return bool(sampled) and sampled == found

    def _run(self, sql: str, what: str) -> list[tuple[Any, ...]] | None:
        warehouse = self.warehouse
        try:
            return warehouse.slots.call_blocking(warehouse.run, sql, budget_s=warehouse.budget_s()).rows
        except (QueryTimeoutError, WarehouseUnavailableError) as exc:  # the next read would wait as long
            log.warning("stopped checking references at %s: %s", what, exc.user_message)
            self.stopped = True
        except Exception as exc:  # noqa: BLE001 - types that do not compare: not a reference
            log.info("reference %s not confirmed: %s", what, getattr(exc, "user_message", exc))
        return None


def read_profiles(warehouse: Warehouse, schema: Schema, deadline: float) -> dict[tuple[str, str], Profile]:
    """count(DISTINCT), min and max of every column on a sample of each table's rows, one query a table."""
    dialect = warehouse.dialect
    found: dict[tuple[str, str], Profile] = {}
    for table, columns in schema.tables.items():
        if time.monotonic() > deadline:
            log.info("columns of %d tables not profiled: no time left at start-up", len(schema.tables))
            break
        picked = [c.name for c in columns if _profiled(c.type)]
        if not picked:
            continue
        parts = []
        for name in picked:
            column = f"s.{quote(name, dialect)}"
            parts += [f"count(DISTINCT {column})", f"min({column})", f"max({column})"]
        sql = (f"SELECT {', '.join(parts)} FROM (SELECT * FROM {schema.reference(table, dialect)} "
               f"LIMIT {SAMPLE_ROWS}) s")
        try:
            row = warehouse.slots.call_blocking(warehouse.run, sql, budget_s=warehouse.budget_s()).rows[0]
        except (QueryTimeoutError, WarehouseUnavailableError) as exc:
            log.warning("stopped profiling columns at %s: %s", table, exc.user_message)
            break
        except Exception as exc:  # noqa: BLE001 - one unreadable table must not stop the rest
            log.info("columns of %s not profiled: %s", table, getattr(exc, "user_message", exc))
            continue
        for i, name in enumerate(picked):
            found[(table, name)] = Profile(int(row[3 * i] or 0), row[3 * i + 1], row[3 * i + 2])
    return found


def _profiled(type_name: str) -> bool:
    """Columns min() and max() read on every engine (PostgreSQL has no min of a boolean, which is a
    flag by its type anyway)."""
    low = type_name.lower()
    return not any(word in low for word in ("blob", "binary", "json", "array", "struct", "map", "geometry", "[]",
                                            "bytea", "clob", "lob", "bool", "bit", "uuid", "interval"))
