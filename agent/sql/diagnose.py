"""Read an engine's error message into the problem it names (unknown column, missing GROUP BY, …).

The patterns cover DuckDB (our validator) and the messages people paste from Presto/Trino,
Spark/Hive, PostgreSQL and MySQL, so `/fixsql <sql> -- <error>` uses the error they saw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

ProblemKind = Literal[
    "unknown_column", "unknown_table", "not_grouped", "unknown_function", "ambiguous_column",
    "aggregate_in_where", "bad_value",
]

# A name as engines print it: in double, single or back quotes (anything inside), or bare.
_NAME = r"(?:\"([^\"]+)\"|'([^']+)'|`([^`]+)`|([\w$.]+))"

_PATTERNS: list[tuple[ProblemKind, re.Pattern[str]]] = [
    # The name for these two is the clause or the value, not a column.
    ("aggregate_in_where", re.compile(r"(WHERE) clause cannot contain (?:aggregat|window)", re.IGNORECASE)),
    ("aggregate_in_where", re.compile(r"(?:aggregate|window) functions are not allowed in (WHERE)", re.IGNORECASE)),
    ("aggregate_in_where", re.compile(r"invalid use of group (function)", re.IGNORECASE)),
    ("bad_value", re.compile(rf"could not convert string {_NAME} to", re.IGNORECASE)),
    ("bad_value", re.compile(rf"invalid input syntax for (?:type )?\w+: {_NAME}", re.IGNORECASE)),
    ("bad_value", re.compile(rf"cannot be cast to \w+: {_NAME}", re.IGNORECASE)),
    ("ambiguous_column", re.compile(rf"ambiguous reference to column name {_NAME}", re.IGNORECASE)),
    ("ambiguous_column", re.compile(rf"column {_NAME} is ambiguous", re.IGNORECASE)),
    ("ambiguous_column", re.compile(rf"column reference {_NAME} is ambiguous", re.IGNORECASE)),
    ("ambiguous_column", re.compile(rf"reference {_NAME} is ambiguous", re.IGNORECASE)),
    ("not_grouped", re.compile(rf"column {_NAME} must appear in the group by", re.IGNORECASE)),
    ("not_grouped", re.compile(rf"{_NAME} must be an aggregate expression or appear in group by", re.IGNORECASE)),
    ("not_grouped", re.compile(rf"expression {_NAME} is neither present in the group by", re.IGNORECASE)),
    ("not_grouped", re.compile(rf"{_NAME} which is not functionally dependent", re.IGNORECASE)),
    ("not_grouped", re.compile(rf"{_NAME} isn't in group by", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"referenced column {_NAME} not found", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"table {_NAME} does not have a column named {_NAME}", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"column {_NAME} cannot be resolved", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"with name {_NAME} cannot be resolved", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"cannot resolve {_NAME}", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"column {_NAME} does not exist", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"unknown column {_NAME}", re.IGNORECASE)),
    ("unknown_column", re.compile(rf"no such column:? {_NAME}", re.IGNORECASE)),
    ("unknown_table", re.compile(rf"table with name {_NAME} does not exist", re.IGNORECASE)),
    ("unknown_table", re.compile(rf"table {_NAME} does(?:n't| not) exist", re.IGNORECASE)),
    ("unknown_table", re.compile(rf"table or view not found:? {_NAME}", re.IGNORECASE)),
    ("unknown_table", re.compile(rf"table or view {_NAME} cannot be found", re.IGNORECASE)),
    ("unknown_table", re.compile(rf"relation {_NAME} does not exist", re.IGNORECASE)),
    ("unknown_table", re.compile(rf"no such table:? {_NAME}", re.IGNORECASE)),
    ("unknown_function", re.compile(rf"function with name {_NAME} does not exist", re.IGNORECASE)),
    ("unknown_function", re.compile(rf"function {_NAME} not registered", re.IGNORECASE)),
    ("unknown_function", re.compile(rf"undefined function:? {_NAME}", re.IGNORECASE)),
    ("unknown_function", re.compile(rf"cannot resolve function {_NAME}", re.IGNORECASE)),
    ("unknown_function", re.compile(rf"function {_NAME}(?:\(.*?\))? does not exist", re.IGNORECASE)),
    ("unknown_function", re.compile(rf"no such function:? {_NAME}", re.IGNORECASE)),
]

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
    for kind, pattern in _PATTERNS:
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
