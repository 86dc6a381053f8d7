"""`[PLACEHOLDER]` values: a value the question did not give, written into the SQL as `'[NAME]'`.

The SQL with placeholders is still checked (each one masked as NULL, which binds against any
column type), and each placeholder becomes a question for the person, with options taken from
the warehouse when the column it is compared with is known.
"""

from __future__ import annotations

import re

from sqlglot import exp

from agent.errors import AssistantError
from agent.sql.parse import parse_one_statement
from agent.text2sql.draft import Placeholder
from agent.warehouse import Schema, Warehouse

_NAME = r"[A-Z][A-Z0-9_]*"
_QUOTED = re.compile(rf"'\[({_NAME})\]'")
_ANY = re.compile(rf"\[({_NAME})\]")
# A bare [NAME] is a list literal to the parser; only a quoted one is a value.
_BARE = re.compile(rf"(?<!')\[({_NAME})\](?!')")
_MARKER = "__placeholder_{}__"
MAX_OPTIONS = 10


def placeholder_names(sql: str) -> list[str]:
    """Names in order of first appearance."""
    return list(dict.fromkeys(_ANY.findall(sql)))


def quote_placeholders(sql: str) -> str:
    """Write every placeholder as a string literal, the one form the rest of the path expects."""
    return _BARE.sub(lambda m: f"'[{m.group(1)}]'", sql)


def mask_placeholders(sql: str) -> str:
    """The SQL with each placeholder as NULL, so it can be parsed and dry-run before it is filled."""
    return _ANY.sub("NULL", _QUOTED.sub("NULL", sql))


def fill_placeholders(sql: str, values: dict[str, str]) -> str:
    """Put the person's answers in; numbers go in bare, text as a quoted, escaped literal."""

    def literal(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            return match.group(0)
        value = str(values[name])
        if re.fullmatch(r"-?\d+(\.\d+)?", value):
            return value
        return "'" + value.replace("'", "''") + "'"

    return _QUOTED.sub(literal, quote_placeholders(sql))


def describe_placeholders(sql: str, *, warehouse: Warehouse, dialect: str) -> list[Placeholder]:
    """One question per placeholder, with the commonest values of the column it is compared with."""
    names = placeholder_names(sql)
    if not names:
        return []
    columns = _compared_columns(sql, names, warehouse=warehouse, dialect=dialect)
    placeholders = []
    for name in names:
        table, column = columns.get(name, (None, None))
        options = _common_values(warehouse, table, column) if table and column else []
        placeholders.append(
            Placeholder(
                name=name,
                question=f"Which {_label(column or name)} should I use?",
                options=options,
                table=table,
                column=column,
            )
        )
    return placeholders


def _label(name: str) -> str:
    return name.replace("_", " ").strip().lower()


def _compared_columns(
    sql: str, names: list[str], *, warehouse: Warehouse, dialect: str
) -> dict[str, tuple[str, str]]:
    """placeholder name -> (table, column) for placeholders compared with a known column."""
    marked = _QUOTED.sub(lambda m: f"'{_MARKER.format(m.group(1))}'", quote_placeholders(sql))
    try:
        tree = parse_one_statement(marked, dialect)
    except AssistantError:
        return {}
    schema = warehouse.schema()
    aliases = {t.alias_or_name.lower(): t.name.lower() for t in tree.find_all(exp.Table)}
    found: dict[str, tuple[str, str]] = {}
    for name in names:
        marker = _MARKER.format(name)
        for literal in tree.find_all(exp.Literal):
            if not (literal.is_string and literal.this == marker):
                continue
            column = _column_beside(literal)
            if column is None:
                continue
            table = _owning_table(column, aliases, schema)
            if table:
                found[name] = (table, column.name)
                break
    return found


def _column_beside(literal: exp.Literal) -> exp.Column | None:
    """The column a literal is compared with: `col = lit`, `lit = col`, `col IN (lit, …)`, `col LIKE lit`."""
    parent = literal.parent
    if isinstance(parent, exp.In):
        return parent.this if isinstance(parent.this, exp.Column) else None
    if isinstance(parent, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Like, exp.ILike)):
        other = parent.expression if parent.this is literal else parent.this
        return other if isinstance(other, exp.Column) else None
    return None


def _owning_table(column: exp.Column, aliases: dict[str, str], schema: Schema) -> str | None:
    if column.table:
        table = aliases.get(column.table.lower())
        return table if table and _has_column(schema, table, column.name) else None
    # Unqualified: the first table of the query that has such a column.
    for table in dict.fromkeys(aliases.values()):
        if _has_column(schema, table, column.name):
            return table
    return None


def _has_column(schema: Schema, table: str, column: str) -> bool:
    return any(c.name == column for c in schema.columns_of(table))


def _common_values(warehouse: Warehouse, table: str, column: str) -> list[str]:
    # Names were checked against the live schema above, so quoting them is safe.
    sql = (
        f'SELECT "{column}" AS value, count(*) AS n FROM "{table}" WHERE "{column}" IS NOT NULL '
        f"GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT {MAX_OPTIONS}"
    )
    try:
        result = warehouse.run(sql)
    except AssistantError:
        return []
    return [str(row[0]) for row in result.rows]
