"""The context both strategies write SQL from: tables, columns, three sample rows each, examples.

Names and types come from the live warehouse (the source of truth); the catalog adds what
the columns mean and worked example queries. Kept compact: it is sent with every LLM step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from agent.catalog.models import ExampleMatch, TableDoc, TableMatch
from agent.errors import AssistantError
from agent.warehouse import Warehouse

MAX_TABLES = 4
MAX_EXAMPLES = 3
SAMPLE_ROWS = 3
_MAX_DESCRIPTION = 140
_MAX_CELL = 40


class CatalogLike(Protocol):
    """What the context needs of agent.catalog.Catalog."""

    def search(self, question: str, limit: int = ...) -> list[TableMatch]: ...

    def describe_table(self, name: str) -> TableMatch: ...

    def table(self, name: str) -> TableDoc: ...

    def search_examples(
        self, question: str, limit: int = ..., tables: list[str] | None = ...
    ) -> list[ExampleMatch]: ...


@dataclass
class SqlContext:
    tables: list[str]
    text: str
    examples: list[ExampleMatch] = field(default_factory=list)


def build_context(
    question: str,
    *,
    warehouse: Warehouse,
    catalog: CatalogLike | None,
    tables: list[str] | None,
) -> SqlContext:
    """Tables for the question described compactly: the given ones, else the catalog's best
    matches (none when nothing matches: the caller says so), else every table when there is
    no catalog at all."""
    schema = warehouse.schema()
    if tables:
        chosen = [t.lower() for t in tables]
    elif catalog is not None:
        chosen = [m.table for m in catalog.search(question, limit=MAX_TABLES) if m.score > 0]
    else:
        chosen = list(schema.tables)
    chosen = [t for t in dict.fromkeys(chosen) if t in schema.tables]
    examples = (
        catalog.search_examples(question, limit=MAX_EXAMPLES, tables=chosen) if catalog and chosen else []
    )
    sections = [_describe_table(t, warehouse, _documented(catalog, t)) for t in chosen]
    joins = _joins_between(catalog, chosen)
    if joins:
        sections.append("Joins:\n" + "\n".join(f"  {j}" for j in joins))
    if examples:
        sections.append(
            "Example queries from the team:\n"
            + "\n".join(f"-- {e.question}\n{e.sql.strip()}" for e in examples)
        )
    return SqlContext(tables=chosen, text="\n\n".join(sections), examples=examples)


def _documented(catalog: CatalogLike | None, table: str) -> TableMatch | None:
    if catalog is None:
        return None
    try:
        return catalog.describe_table(table)
    except AssistantError:  # a warehouse table the catalog does not describe
        return None


def _joins_between(catalog: CatalogLike | None, tables: list[str]) -> list[str]:
    """Documented join conditions between the chosen tables, each once."""
    if catalog is None:
        return []
    found: list[str] = []
    for table in tables:
        try:
            doc = catalog.table(table)
        except AssistantError:
            continue
        found.extend(j.on for j in doc.joins if j.table in tables)
    return list(dict.fromkeys(found))


def _describe_table(table: str, warehouse: Warehouse, match: TableMatch | None) -> str:
    documented = {c.name: c for c in match.columns} if match else {}
    lines = [f"Table {table}" + (f": {_short(match.description, 200)}" if match else "")]
    for column in warehouse.schema().columns_of(table):
        doc = documented.get(column.name)
        note = f" -- {_short(doc.description, _MAX_DESCRIPTION)}" if doc else ""
        lines.append(f"  {column.name} {column.type}{note}")
    lines.append(_sample_rows(table, warehouse))
    return "\n".join(lines)


def _sample_rows(table: str, warehouse: Warehouse) -> str:
    try:
        source = warehouse.schema().reference(table, warehouse.dialect)
        result = warehouse.run(f"SELECT * FROM {source} LIMIT {SAMPLE_ROWS}")
    except AssistantError:
        return "  (sample rows unavailable)"
    header = " | ".join(result.columns)
    rows = [" | ".join(_short("NULL" if v is None else str(v), _MAX_CELL) for v in row) for row in result.rows]
    return "  Sample rows:\n    " + "\n    ".join([header, *rows])


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
