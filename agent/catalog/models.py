"""The catalog's shape: what the YAML may say, and what a search returns.

Tables, glossary terms and docs are keyed by name in the YAML, so a validation error's
location already names the entry ("tables.flights.columns.dep_time.description").
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_QUALIFIED = re.compile(r"^(\w+)\.(\w+)$")
_JOIN_COLUMN = re.compile(r"\b(\w+)\.(\w+)\b")


class _Strict(BaseModel):
    # A misspelt key ("descripton") is a mistake to report, not a field to ignore.
    model_config = ConfigDict(extra="forbid", frozen=True)


class ColumnDoc(_Strict):
    type: str
    description: str = Field(min_length=1)
    unit: str | None = None
    aliases: list[str] = Field(default_factory=list)
    values: list[str] = Field(default_factory=list)  # known values, for matching what people type
    pattern: str | None = None  # a regex a value of this column fits (e.g. a tail number)

    @field_validator("pattern")
    @classmethod
    def _pattern_compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"not a valid regular expression: {exc}") from None
        return value

    @field_validator("values", mode="before")
    @classmethod
    def _values_as_text(cls, value: Any) -> Any:
        # YAML reads codes such as 9E or 4 Cycle fine, but bare numbers would come back as ints.
        return [str(v) for v in value] if isinstance(value, list) else value


class JoinDoc(_Strict):
    table: str
    on: str

    def referenced_columns(self) -> list[tuple[str, str]]:
        return _JOIN_COLUMN.findall(self.on)


class TableDoc(_Strict):
    description: str = Field(min_length=1)
    grain: str | None = None
    aliases: list[str] = Field(default_factory=list)
    joins: list[JoinDoc] = Field(default_factory=list)
    columns: dict[str, ColumnDoc] = Field(min_length=1)


class GlossaryTerm(_Strict):
    term: str
    definition: str = Field(min_length=1)
    synonyms: list[str] = Field(default_factory=list)
    columns: list[str] = Field(default_factory=list)  # "table.column"
    sql: str | None = None  # the condition or expression the term stands for

    @field_validator("columns")
    @classmethod
    def _qualified(cls, value: list[str]) -> list[str]:
        for name in value:
            if not _QUALIFIED.match(name):
                raise ValueError(f"'{name}' should be written table.column")
        return value

    @property
    def tables(self) -> list[str]:
        return list(dict.fromkeys(name.split(".")[0] for name in self.columns))


class ExampleQuery(_Strict):
    question: str = Field(min_length=1)
    sql: str = Field(min_length=1)
    tables: list[str] = Field(min_length=1)


class HowToDoc(_Strict):
    id: str
    title: str = Field(min_length=1)
    body: str = Field(min_length=1)
    questions: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    tables: list[str] = Field(default_factory=list)


class Contact(_Strict):
    channel: str | None = None
    team: str | None = None
    email: str | None = None


class CatalogData(_Strict):
    """The whole YAML file, cross-checked: every reference names something documented."""

    version: int = 1
    name: str
    summary: str = ""
    contact: Contact = Field(default_factory=Contact)
    tables: dict[str, TableDoc] = Field(min_length=1)
    synonyms: dict[str, list[str]] = Field(default_factory=dict)
    glossary: dict[str, GlossaryTerm] = Field(default_factory=dict)
    examples: list[ExampleQuery] = Field(default_factory=list)
    docs: dict[str, HowToDoc] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _keys_become_names(cls, data: Any) -> Any:
        # The YAML keys glossary terms and docs by name; the models carry the name too.
        if isinstance(data, dict):
            data = dict(data)
            for section, key in (("glossary", "term"), ("docs", "id")):
                entries = data.get(section)
                if isinstance(entries, dict):
                    data[section] = {
                        name: ({key: name, **entry} if isinstance(entry, dict) else entry)
                        for name, entry in entries.items()
                    }
        return data

    @model_validator(mode="after")
    def _references_exist(self) -> "CatalogData":
        problems: list[str] = []
        for table_name, table in self.tables.items():
            for join in table.joins:
                if join.table not in self.tables:
                    problems.append(f"tables.{table_name}.joins: unknown table '{join.table}'")
                for ref_table, ref_column in join.referenced_columns():
                    if not self.has_column(ref_table, ref_column):
                        problems.append(
                            f"tables.{table_name}.joins: '{ref_table}.{ref_column}' is not a documented column"
                        )
        for term in self.glossary.values():
            for qualified in term.columns:
                table_name, column = qualified.split(".")
                if not self.has_column(table_name, column):
                    problems.append(f"glossary.{term.term}: '{qualified}' is not a documented column")
        for index, example in enumerate(self.examples):
            for table_name in example.tables:
                if table_name not in self.tables:
                    problems.append(
                        f"examples[{index}] ({example.question!r}): unknown table '{table_name}'"
                    )
        for doc in self.docs.values():
            for table_name in doc.tables:
                if table_name not in self.tables:
                    problems.append(f"docs.{doc.id}: unknown table '{table_name}'")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def has_column(self, table: str, column: str) -> bool:
        return table in self.tables and column in self.tables[table].columns


# -- what searches return --------------------------------------------------------------


class ColumnInfo(BaseModel):
    name: str
    type: str
    description: str
    unit: str | None = None


class ColumnMatch(BaseModel):
    table: str
    column: ColumnInfo


class TableMatch(BaseModel):
    table: str
    description: str
    columns: list[ColumnInfo]
    matched_columns: list[str] = Field(default_factory=list)  # best first
    score: float
    reasons: list[str] = Field(default_factory=list)


class DocMatch(BaseModel):
    id: str
    title: str
    body: str
    score: float
    reasons: list[str] = Field(default_factory=list)


class ExampleMatch(BaseModel):
    question: str
    sql: str
    tables: list[str]
    score: float


class CatalogProblem(BaseModel):
    """A difference between the catalog and the live warehouse."""

    kind: str  # missing_table | missing_column | undocumented_table | undocumented_column | type_mismatch
    table: str
    column: str | None = None
    message: str

    def __str__(self) -> str:
        return self.message
