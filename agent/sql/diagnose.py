"""Read an engine's error message into the problem it names (unknown column, missing GROUP BY, …).

The patterns cover DuckDB (our validator) and the messages people paste from Presto/Trino,
Spark/Hive, PostgreSQL and MySQL, so `/fixsql <sql> -- <error>` uses the error they saw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

ProblemKind = Literal[
    "unknown_column", "unknown_table", "not_grouped", "unknown_function", "ambiguous_column"
]

_Q = r"[\"'`]?"  # engines quote names with any of these, or not at all
_NAME = r"([\w$.]+)"

_PATTERNS: list[tuple[ProblemKind, re.Pattern]] = [
    ("ambiguous_column", re.compile(rf"ambiguous reference to column name {_Q}{_NAME}{_Q}", re.I)),
    ("ambiguous_column", re.compile(rf"column {_Q}{_NAME}{_Q} is ambiguous", re.I)),
    ("ambiguous_column", re.compile(rf"column reference {_Q}{_NAME}{_Q} is ambiguous", re.I)),
    ("ambiguous_column", re.compile(rf"reference {_Q}{_NAME}{_Q} is ambiguous", re.I)),
    ("not_grouped", re.compile(rf"column {_Q}{_NAME}{_Q} must appear in the group by", re.I)),
    ("not_grouped", re.compile(rf"{_Q}{_NAME}{_Q} must be an aggregate expression or appear in group by", re.I)),
    ("not_grouped", re.compile(rf"expression {_Q}{_NAME}{_Q} is neither present in the group by", re.I)),
    ("not_grouped", re.compile(rf"{_Q}{_NAME}{_Q} which is not functionally dependent", re.I)),
    ("not_grouped", re.compile(rf"{_Q}{_NAME}{_Q} isn't in group by", re.I)),
    ("unknown_column", re.compile(rf"referenced column {_Q}{_NAME}{_Q} not found", re.I)),
    ("unknown_column", re.compile(rf"table {_Q}([\w$]+){_Q} does not have a column named {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_column", re.compile(rf"column {_Q}{_NAME}{_Q} cannot be resolved", re.I)),
    ("unknown_column", re.compile(rf"with name {_Q}{_NAME}{_Q} cannot be resolved", re.I)),
    ("unknown_column", re.compile(rf"cannot resolve {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_column", re.compile(rf"column {_Q}{_NAME}{_Q} does not exist", re.I)),
    ("unknown_column", re.compile(rf"unknown column {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_column", re.compile(rf"no such column:? {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_table", re.compile(rf"table with name {_Q}{_NAME}{_Q} does not exist", re.I)),
    ("unknown_table", re.compile(rf"table {_Q}{_NAME}{_Q} does(?:n't| not) exist", re.I)),
    ("unknown_table", re.compile(rf"table or view not found:? {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_table", re.compile(rf"table or view {_Q}{_NAME}{_Q} cannot be found", re.I)),
    ("unknown_table", re.compile(rf"relation {_Q}{_NAME}{_Q} does not exist", re.I)),
    ("unknown_table", re.compile(rf"no such table:? {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_function", re.compile(rf"function with name {_Q}{_NAME}{_Q} does not exist", re.I)),
    ("unknown_function", re.compile(rf"function {_Q}{_NAME}{_Q} not registered", re.I)),
    ("unknown_function", re.compile(rf"undefined function:? {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_function", re.compile(rf"cannot resolve function {_Q}{_NAME}{_Q}", re.I)),
    ("unknown_function", re.compile(rf"function {_Q}{_NAME}{_Q}(?:\(.*?\))? does not exist", re.I)),
    ("unknown_function", re.compile(rf"no such function:? {_Q}{_NAME}{_Q}", re.I)),
]

_SUGGESTION = re.compile(r"did you mean \"?([\w$.]+)\"?", re.I)
_AMBIGUOUS_OPTIONS = re.compile(r"'([\w$]+)\.\"?([\w$]+)\"?'")


@dataclass(frozen=True)
class Problem:
    """One fixable problem an error message names."""

    kind: ProblemKind
    name: str
    qualifier: str | None = None  # the table or alias the engine looked in, when it says
    suggestion: str | None = None  # the engine's own "did you mean"
    options: tuple[str, ...] = field(default=())  # qualified choices for an ambiguous name


def diagnose(message: str | None) -> Problem | None:
    """The first problem the message names, or None when it names none this layer can fix."""
    if not message:
        return None
    for kind, pattern in _PATTERNS:
        found = pattern.search(message)
        if not found:
            continue
        groups = [g for g in found.groups() if g]
        qualifier = groups[0] if len(groups) > 1 else None
        name = groups[-1]
        if kind in ("unknown_column", "not_grouped", "ambiguous_column") and "." in name:
            qualifier, name = name.rsplit(".", 1)
        if kind == "unknown_table":
            name = name.rsplit(".", 1)[-1]  # catalog.schema.table: the table is what is wrong
        suggestion = _SUGGESTION.search(message)
        options = tuple(f"{t}.{c}" for t, c in _AMBIGUOUS_OPTIONS.findall(message))
        return Problem(
            kind=kind,
            name=name,
            qualifier=qualifier,
            suggestion=suggestion.group(1) if suggestion else None,
            options=options,
        )
    return None
