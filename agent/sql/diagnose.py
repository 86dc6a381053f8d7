"""Read an engine's error message into the problem it names (unknown column, missing GROUP BY, …).

The patterns cover DuckDB (our validator) and the messages people paste from Presto/Trino,
Spark/Hive, PostgreSQL and MySQL, so `/fixsql <sql> -- <error>` uses the error they saw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

ProblemKind = Literal[
    "unknown_column", "unknown_table", "not_grouped", "unknown_function", "ambiguous_column",
    "aggregate_in_where", "bad_value",
]

# A name as engines print it: in double, single or back quotes (anything inside), or bare.
_NAME = r"(?:\"([^\"]+)\"|'([^']+)'|`([^`]+)`|([\w$.]+))"

_SOURCES: list[tuple[ProblemKind, str]] = [  # each read case-blind
    # The name for these two is the clause or the value, not a column.
    ("aggregate_in_where", r"(WHERE) clause cannot contain (?:aggregat|window)"),
    ("aggregate_in_where", r"(?:aggregate|window) functions are not allowed in (WHERE)"),
    ("aggregate_in_where", r"invalid use of group (function)"),
    ("bad_value", rf"could not convert string {_NAME} to"),
    ("bad_value", rf"invalid input syntax for (?:type )?\w+: {_NAME}"),
    ("bad_value", rf"cannot be cast to \w+: {_NAME}"),
    ("ambiguous_column", rf"ambiguous reference to column name {_NAME}"),
    ("ambiguous_column", rf"column {_NAME} is ambiguous"),
    ("ambiguous_column", rf"column reference {_NAME} is ambiguous"),
    ("ambiguous_column", rf"reference {_NAME} is ambiguous"),
    ("not_grouped", rf"column {_NAME} must appear in the group by"),
    ("not_grouped", rf"{_NAME} must be an aggregate expression or appear in group by"),
    ("not_grouped", rf"expression {_NAME} is neither present in the group by"),
    ("not_grouped", rf"{_NAME} which is not functionally dependent"),
    ("not_grouped", rf"{_NAME} isn't in group by"),
    ("unknown_column", rf"referenced column {_NAME} not found"),
    ("unknown_column", rf"table {_NAME} does not have a column named {_NAME}"),
    ("unknown_column", rf"column {_NAME} cannot be resolved"),
    ("unknown_column", rf"with name {_NAME} cannot be resolved"),
    ("unknown_column", rf"cannot resolve {_NAME}"),
    ("unknown_column", rf"column {_NAME} does not exist"),
    ("unknown_column", rf"unknown column {_NAME}"),
    ("unknown_column", rf"no such column:? {_NAME}"),
    ("unknown_table", rf"table with name {_NAME} does not exist"),
    ("unknown_table", rf"table {_NAME} does(?:n't| not) exist"),
    ("unknown_table", rf"table or view not found:? {_NAME}"),
    ("unknown_table", rf"table or view {_NAME} cannot be found"),
    ("unknown_table", rf"relation {_NAME} does not exist"),
    ("unknown_table", rf"no such table:? {_NAME}"),
    ("unknown_function", rf"function with name {_NAME} does not exist"),
    ("unknown_function", rf"function {_NAME} not registered"),
    ("unknown_function", rf"undefined function:? {_NAME}"),
    ("unknown_function", rf"cannot resolve function {_NAME}"),
    ("unknown_function", rf"function {_NAME}(?:\(.*?\))? does not exist"),
    ("unknown_function", rf"no such function:? {_NAME}"),
]


@cache
def _patterns() -> list[tuple[ProblemKind, re.Pattern[str]]]:
    """Compiled when the first error message is read, not at import: the fix's module comes in with the
    graph's tools at every start, and compiling these cost a start ~15 ms whether or not it read an error."""
    return [(kind, re.compile(source, re.IGNORECASE)) for kind, source in _SOURCES]

_SUGGESTION = re.compile(r"did you mean \"?([\w$.]+)\"?", re.IGNORECASE)
_AMBIGUOUS_OPTIONS = re.compile(r"'([\w$]+)\.\"?([\w$]+)\"?'")


def _one_name(alternatives: tuple[str | None, ...]) -> tuple[str, bool]:
    """The name one _NAME group matched, and whether it was bare (a dot then separates parts)."""
    for position, text in enumerate(alternatives):
        if text:
            return text, position == 3
    return "", True


def _is_qualified(name: str, bare: bool) -> bool:
    """`f.orign` is a table and a column; a quoted value such as "St. Louis" is not."""
    if "." not in name:
        return False
    return bare or (" " not in name and all(name.split(".")))


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
    for kind, pattern in _patterns():
        found = pattern.search(message)
        if not found:
            continue
        names = [_one_name(found.groups()[i : i + 4]) for i in range(0, len(found.groups()), 4)]
        qualifier = names[0][0] if len(names) > 1 else None
        name, bare = names[-1]
        if kind in ("unknown_column", "not_grouped", "ambiguous_column") and _is_qualified(name, bare):
            qualifier, name = name.rsplit(".", 1)
        if kind == "unknown_table":
            name = name.rsplit(".", 1)[-1]  # catalog.schema.table: the table is what is wrong
        suggestion = _SUGGESTION.search(message)
        options = (
            tuple(f"{t}.{c}" for t, c in _AMBIGUOUS_OPTIONS.findall(message))
            if kind == "ambiguous_column" else ()
        )
        return Problem(
            kind=kind,
            name=name,
            qualifier=qualifier,
            suggestion=suggestion.group(1) if suggestion else None,
            options=options,
        )
    return None
