"""What a query reads: every base table and column, found on the qualified sqlglot tree.

Aliases, CTEs, subqueries, set operations, joins and `SELECT *` all resolve here: sqlglot's
`qualify` expands stars from the warehouse's schema and names every column's source, and
each scope's sources say whether a name is a base table or a derived one. Whatever cannot
be pinned to named columns (a whole row as a value, `COLUMNS(...)`, a pivot) counts as a
read of every column of the tables in reach, so a policy errs towards refusing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp
from sqlglot.errors import OptimizeError, SqlglotError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, traverse_scope

from agent.errors import SqlError
from agent.sql.checked import CheckedQuery, SqlInput, sql_text
from agent.sql.guard import refuse_unsafe_words
from agent.sql.parse import clean_sql_text, parse_one_statement, sqlglot_dialect

TableName = tuple[str, str]  # (schema, table), lower case
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
    try:
        tree = qualify(
            # sqlglot asks for dict[str, object] where it reads a Mapping (a dict's value type is invariant)
            tree, schema=mapping, db=default_schema, dialect=read,  # type: ignore[arg-type]
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
            name = _table_name(node, default_schema)
            if name is None or name not in tables:
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
        name = _table_name(source, default_schema)
        if name is None or name not in tables:
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
                if node.name == "*" or node.name.lower() not in tables[base[owner]]:
                    reads.whole_rows.add(base[owner])
                    continue
                column = (*base[owner], node.name.lower())
                reads.columns.add(column)
                reads.column_nodes.append((node, column))
            elif not owner:
                _unqualified(node.name.lower(), base, tables, reads)
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
    if name in base:
        reads.whole_rows.add(base[name])
        return
    for table in base.values():
        if name == table[1]:
            reads.whole_rows.add(table)
        elif name in tables[table]:
            reads.columns.add((*table, name))
            reads.unplaced.add((*table, name))


def _table_name(node: exp.Table, default_schema: str) -> TableName | None:
    if not node.name:
        return None
    return ((node.db or default_schema).lower(), node.name.lower())


def table_of(key: str, default_schema: str) -> TableName:
    """A table as the schema cache keys it ('orders', or 'sales.orders' outside the default schema)."""
    owner, _, table = key.lower().rpartition(".")
    return (owner or default_schema.lower(), table)
