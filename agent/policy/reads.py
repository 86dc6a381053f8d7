"""What a query reads: every base table and column, found on the qualified sqlglot tree.

Aliases, CTEs, subqueries, set operations, joins and `SELECT *` all resolve here: sqlglot's
`qualify` expands stars from the warehouse's schema and names every column's source, and
each scope's sources say whether a name is a base table or a derived one. Whatever cannot
be pinned to named columns (a whole row as a value, `COLUMNS(...)`, a pivot) counts as a
read of every column of the tables in reach, so a policy errs towards refusing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlglot import exp
from sqlglot.errors import OptimizeError, SqlglotError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, traverse_scope
from sqlglot.dialects.dialect import Dialect, NormalizationStrategy
from sqlglot.schema import MappingSchema

from agent.errors import SqlError
from agent.sql.checked import CheckedQuery, SqlInput, sql_text
from agent.sql.guard import refuse_unsafe_words
from agent.sql.parse import clean_sql_text, parse_one_statement, sqlglot_dialect
from agent.warehouse.base import split_name

TableName = tuple[str, str]  # (schema, table), spelt as the engine lists them
ColumnName = tuple[str, str, str]  # (schema, table, column)

# Table functions that make rows from their arguments and read no table.
ROW_MAKERS = frozenset({"range", "generate_series", "unnest", "generate_subscripts"})


@dataclass
class Reads:
    tree: exp.Expr  # qualified, so a rewrite (masking) can be printed back as SQL
    tables: set[TableName] = field(default_factory=set)
    columns: set[ColumnName] = field(default_factory=set)
    whole_rows: set[TableName] = field(default_factory=set)  # read in ways no column list describes
    unknown: list[str] = field(default_factory=list)  # sources that are no warehouse table
    column_nodes: list[tuple[exp.Column, ColumnName]] = field(default_factory=list)
    unplaced: set[ColumnName] = field(default_factory=set)  # read by a bare name no node pins down


def find_reads(sql: SqlInput, dialect: str, tables: dict[TableName, list[str]], default_schema: str) -> Reads:
    """The tables and columns `sql` reads; `tables` is the warehouse's schema (columns by table). A
    checked query is read on a copy of its tree (qualifying rewrites it), never parsed again."""
    read = sqlglot_dialect(dialect)
    if isinstance(sql, CheckedQuery) and sql.dialect == read:
        tree = sql.tree.copy()
    else:
        text = clean_sql_text(sql_text(sql))
        refuse_unsafe_words(text, read)  # with its reason, even when the parser below cannot read it
        tree = parse_one_statement(text, read)
    mapping: dict[str, dict[str, dict[str, str]]] = {}
    for (schema, table), columns in tables.items():
        mapping.setdefault(schema, {})[table] = {c: "TEXT" for c in columns}
    # `qualify` folds the query's names as the engine does; the engine's own listing is already folded,
    # so it is kept as spelt (folding `pizzaTypes` as if unquoted would lose it on PostgreSQL), except on
    # a case-blind engine, where both sides are compared lower-case.
    blind = Dialect.get_or_raise(read).NORMALIZATION_STRATEGY is NormalizationStrategy.CASE_INSENSITIVE
    try:
        tree = qualify(
            # sqlglot asks for dict[str, object] where it reads a Mapping (a dict's value type is invariant)
            tree, schema=MappingSchema(mapping, dialect=read, normalize=blind),  # type: ignore[arg-type]
            db=default_schema, dialect=read,
            validate_qualify_columns=False, quote_identifiers=False, identify=False,
        )
        scopes = traverse_scope(tree)
    except (OptimizeError, SqlglotError) as exc:
        raise SqlError("I could not work out which tables this query reads, so I did not run it.",
                       detail=str(exc)) from None
    reads = Reads(tree=tree)
    seen_tables: set[int] = set()
    for scope in scopes:
        _read_scope(scope, reads, tables, default_schema, seen_tables)
    cte_names = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    for node in tree.find_all(exp.Table):  # a table no scope claimed (pivots and the like)
        if id(node) not in seen_tables and node.name.lower() not in cte_names:
            name = _table_name(node, tables, default_schema)
            if name is None:
                reads.unknown.append(node.sql(dialect=read))
            else:
                reads.tables.add(name)
                reads.whole_rows.add(name)
    return reads


def _read_scope(scope: Scope, reads: Reads, tables: dict[TableName, list[str]], default_schema: str,
                seen_tables: set[int]) -> None:
    base: dict[str, TableName] = {}
    for alias, source in scope.sources.items():
        if not isinstance(source, exp.Table):
            continue
        seen_tables.add(id(source))
        if isinstance(source.this, exp.Func):
            function = source.this.sql_name().lower() if not isinstance(source.this, exp.Anonymous) else source.this.name.lower()
            if function not in ROW_MAKERS:
                reads.unknown.append(f"{function}()")
            continue
        name = _table_name(source, tables, default_schema)
        if name is None:
            reads.unknown.append(".".join(p for p in (source.db, source.name) if p))
            continue
        base[alias.lower()] = name
        reads.tables.add(name)
    if not base:
        return
    whole_row = False
    for node in scope.walk():
        if isinstance(node, exp.Column):
            owner = node.table.lower()
            if owner in base:
                named = spelt(node.name, tables[base[owner]]) if node.name != "*" else None
                if named is None:
                    reads.whole_rows.add(base[owner])
                    continue
                column = (*base[owner], named)
                reads.columns.add(column)
                reads.column_nodes.append((node, column))
            elif not owner:
                _unqualified(node.name, base, tables, reads)
        elif isinstance(node, exp.Star) and isinstance(node.parent, exp.Count):
            continue  # count(*) counts rows and reads no column
        elif isinstance(node, (exp.Star, exp.TableColumn, exp.Pivot)):
            if isinstance(node, exp.TableColumn) and node.name.lower() in base:
                reads.whole_rows.add(base[node.name.lower()])
            else:
                whole_row = True
        elif isinstance(node, exp.Anonymous) and node.name.lower() == "columns":
            whole_row = True
        elif isinstance(node, exp.Func) and node.sql_name().lower() == "columns":
            whole_row = True
    if whole_row:
        reads.whole_rows.update(base.values())


def _unqualified(name: str, base: dict[str, TableName], tables: dict[TableName, list[str]], reads: Reads) -> None:
    """A bare name qualify could not place: a table's whole row, a column, or an alias of the query."""
    if name.lower() in base:
        reads.whole_rows.add(base[name.lower()])
        return
    for table in base.values():
        column = spelt(name, tables[table])
        if spelt(name, [table[1]]) is not None:
            reads.whole_rows.add(table)
        elif column is not None:
            reads.columns.add((*table, column))
            reads.unplaced.add((*table, column))


def spelt(name: str, among: Iterable[str]) -> str | None:
    """`name` as one of `among` spells it: the exact spelling, else the only match regardless of
    letter case. An engine that keeps `Bakers` and `bakers` apart (MySQL's tables, PostgreSQL's quoted
    names) is read exactly, and the query's names arrive already folded as the engine folds them
    (`qualify` normalises them per dialect); a case-blind engine's names match however written."""
    names = list(among)
    if name in names:
        return name
    blind = [n for n in names if n.lower() == name.lower()]
    return blind[0] if len(blind) == 1 else None


def table_named(schema: str | None, name: str, tables: Iterable[TableName], default_schema: str) -> TableName | None:
    """The table `schema.name` means (the default schema's without a schema), spelt as the engine
    lists it; None when no table or more than one fits."""
    owners = {t[0] for t in tables}
    owner = spelt(schema or default_schema, owners)
    if owner is None:
        return None
    table = spelt(name, [t[1] for t in tables if t[0] == owner])
    return (owner, table) if table is not None else None


def _table_name(node: exp.Table, tables: Iterable[TableName], default_schema: str) -> TableName | None:
    if not node.name:
        return None
    return table_named(node.db or None, node.name, tables, default_schema)


def table_of(key: str, default_schema: str, tables: Iterable[TableName]) -> TableName | None:
    """A table named as the schema cache keys it ('orders', 'sales.orders' outside the default
    schema, quoted parts), spelt as the engine lists it."""
    parts = split_name(key)
    if not parts:
        return None
    return table_named(parts[-2] if len(parts) > 1 else None, parts[-1], tables, default_schema)
