"""The catalog: what the data means, searchable by a person's question."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from agent.catalog.loader import DEFAULT_CATALOG, CatalogError, load_catalog_data
from agent.catalog.models import (
    CatalogData,
    CatalogProblem,
    ColumnInfo,
    ColumnMatch,
    Contact,
    DocMatch,
    ExampleMatch,
    GlossaryTerm,
    HowToDoc,
    TableDoc,
    TableMatch,
)
from agent.catalog.search import DocIndex, TableIndex, TextIndex, matching_terms
from agent.warehouse import Schema

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Catalog:
    """Tables, columns, glossary, example queries and how-to docs, with search over them.

    Immutable once built, so one instance is shared by every request.
    """

    def __init__(self, data: CatalogData):
        self.data = data
        self._tables = TableIndex(data)
        self._docs = DocIndex(list(data.docs.values()))
        self._examples = TextIndex([e.question for e in data.examples])

    @classmethod
    def load(cls, path: Path | str = DEFAULT_CATALOG) -> "Catalog":
        return cls(load_catalog_data(path))

    # -- plain lookups ----------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.data.name

    @property
    def summary(self) -> str:
        return self.data.summary

    @property
    def contact(self) -> Contact:
        return self.data.contact

    @property
    def table_names(self) -> list[str]:
        return list(self.data.tables)

    @property
    def glossary(self) -> list[GlossaryTerm]:
        return list(self.data.glossary.values())

    @property
    def docs(self) -> list[HowToDoc]:
        return list(self.data.docs.values())

    def table(self, name: str) -> TableDoc:
        try:
            return self.data.tables[name.lower()]
        except KeyError:
            raise CatalogError(
                f"There is no table called {name}; the tables are {', '.join(self.table_names)}."
            ) from None

    def glossary_term(self, term: str) -> GlossaryTerm:
        try:
            return self.data.glossary[term]
        except KeyError:
            raise CatalogError(f"The glossary has no term '{term}'.") from None

    def describe_table(self, name: str) -> TableMatch:
        """A table's full description in the same shape a search returns."""
        table = self.table(name)
        return TableMatch(
            table=name.lower(), description=table.description, columns=_columns(table), score=0.0
        )

    # -- search -----------------------------------------------------------------------

    def search(self, question: str, limit: int = 3) -> list[TableMatch]:
        """Tables that fit the question, best first, each with the reasons it was chosen."""
        matches = []
        for scored in self._tables.rank(question)[:limit]:
            table = self.data.tables[scored.name]
            matched = sorted(scored.columns, key=lambda c: (-scored.columns[c], list(table.columns).index(c)))
            matches.append(
                TableMatch(
                    table=scored.name,
                    description=table.description,
                    columns=_columns(table),
                    matched_columns=matched,
                    score=scored.score,
                    reasons=scored.reasons,
                )
            )
        return matches

    def lookup_terms(self, question: str) -> list[GlossaryTerm]:
        """Glossary terms the question uses, in the order it uses them."""
        return matching_terms(self.glossary, question)

    def find_columns(self, question: str) -> list[ColumnMatch]:
        """Columns named exactly in the question ("what does dewp mean?")."""
        said = {word.lower() for word in _IDENTIFIER.findall(question)}
        found = []
        for table_name, table in self.data.tables.items():
            for column in _columns(table):
                if column.name in said:
                    found.append(ColumnMatch(table=table_name, column=column))
        return found

    def search_docs(self, question: str, limit: int = 3) -> list[DocMatch]:
        """How-to docs for a "how do I / what is" question, best first."""
        return [
            DocMatch(id=doc.id, title=doc.title, body=doc.body, score=score, reasons=reasons)
            for doc, score, reasons in self._docs.rank(question)[:limit]
        ]

    def related_docs(self, tables: list[str]) -> list[DocMatch]:
        """Docs written about any of these tables, most overlap first."""
        wanted = {t.lower() for t in tables}
        related = []
        for doc in self.docs:
            overlap = sorted(wanted.intersection(doc.tables))
            if overlap:
                related.append(
                    DocMatch(
                        id=doc.id,
                        title=doc.title,
                        body=doc.body,
                        score=float(len(overlap)),
                        reasons=[f"about table '{t}'" for t in overlap],
                    )
                )
        related.sort(key=lambda d: -d.score)
        return related

    def search_examples(self, question: str, limit: int = 3, tables: list[str] | None = None) -> list[ExampleMatch]:
        """Worked examples with similar questions, optionally only those within the given tables."""
        allowed = {t.lower() for t in tables} if tables is not None else None
        found = []
        for position, score in self._examples.rank(question, self._tables.synonyms):
            example = self.data.examples[position]
            if allowed is not None and not set(example.tables) <= allowed:
                continue
            found.append(ExampleMatch(question=example.question, sql=example.sql, tables=example.tables, score=score))
        return found[:limit]

    # -- consistency with the warehouse -------------------------------------------------

    def check_against(self, schema: Schema) -> list[CatalogProblem]:
        """Differences with the live warehouse: documented names that do not exist, real
        tables and columns nobody documented, and types that changed."""
        problems: list[CatalogProblem] = []
        for table_name, table in self.data.tables.items():
            if table_name not in schema.tables:
                problems.append(
                    CatalogProblem(
                        kind="missing_table",
                        table=table_name,
                        message=f"The catalog documents table {table_name}, which the warehouse does not have.",
                    )
                )
                continue
            real = {c.name: c.type for c in schema.columns_of(table_name)}
            for column, doc in table.columns.items():
                if column not in real:
                    problems.append(
                        CatalogProblem(
                            kind="missing_column",
                            table=table_name,
                            column=column,
                            message=f"The catalog documents {table_name}.{column}, which the warehouse does not have.",
                        )
                    )
                elif real[column].upper() != doc.type.upper():
                    problems.append(
                        CatalogProblem(
                            kind="type_mismatch",
                            table=table_name,
                            column=column,
                            message=f"{table_name}.{column} is documented as {doc.type} "
                            f"but the warehouse has {real[column]}.",
                        )
                    )
            for column in real:
                if column not in table.columns:
                    problems.append(
                        CatalogProblem(
                            kind="undocumented_column",
                            table=table_name,
                            column=column,
                            message=f"{table_name}.{column} exists in the warehouse "
                            "but the catalog does not describe it.",
                        )
                    )
        for table_name in schema.tables:
            if table_name not in self.data.tables:
                problems.append(
                    CatalogProblem(
                        kind="undocumented_table",
                        table=table_name,
                        message=f"Table {table_name} exists in the warehouse but the catalog does not describe it.",
                    )
                )
        return problems


def _columns(table: TableDoc) -> list[ColumnInfo]:
    return [
        ColumnInfo(name=name, type=doc.type, description=doc.description, unit=doc.unit)
        for name, doc in table.columns.items()
    ]


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The catalog shipped with the code, loaded once per process."""
    return Catalog.load(DEFAULT_CATALOG)
