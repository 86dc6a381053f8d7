"""The data catalog: table and column meanings, glossary, example queries and how-to docs."""

from agent.catalog.catalog import Catalog, default_catalog
from agent.catalog.loader import DEFAULT_CATALOG, CatalogError
from agent.catalog.models import (
    CatalogProblem,
    ColumnInfo,
    ColumnMatch,
    DocMatch,
    ExampleMatch,
    GlossaryTerm,
    HowToDoc,
    TableDoc,
    TableMatch,
)

__all__ = [
    "DEFAULT_CATALOG",
    "Catalog",
    "CatalogError",
    "CatalogProblem",
    "ColumnInfo",
    "ColumnMatch",
    "DocMatch",
    "ExampleMatch",
    "GlossaryTerm",
    "HowToDoc",
    "TableDoc",
    "TableMatch",
    "default_catalog",
]
