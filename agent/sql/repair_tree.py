"""Repairs on a parsed query for the problem an engine named: a wrong table, column or function
name, a value written in double quotes, a missing GROUP BY, an ambiguous column.

Names are resolved against the warehouse schema and against what each part of the query
can see (its FROM tables, CTEs and subqueries), never from a list written for one example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import Scope, traverse_scope

from agent.sql.diagnose import Problem
from agent.sql.names import allowed_typos, closest_name, edit_distance

if TYPE_CHECKING:
    from agent.warehouse.engine import Schema

# Functions other engines have under another name in DuckDB, same arguments, same meaning.
# sqlglot's Presto->DuckDB transpile covers most; these are the ones it leaves as they are,
# or that people write in another dialect while naming DuckDB.
FUNCTION_RENAMES = {
    "approx_distinct": "approx_count_distinct",
    "arbitrary": "any_value",
    "every": "bool_and",
    "codepoint": "unicode",
    "zip": "list_zip",
    "cardinality": "len",
    "size": "len",
    "regexp_like": "regexp_matches",
    "json_extract_scalar": "json_extract_string",
    "array_join": "array_to_string",
    "date_parse": "strptime",
    "from_unixtime": "to_timestamp",
    "to_unixtime": "epoch",
    "levenshtein_distance": "levenshtein",
    "day_of_week": "isodow",
    "day_of_year": "dayofyear",
    "week_of_year": "weekofyear",
    "year_of_week": "isoyear",
    "is_nan": "isnan",
    "is_finite": "isfinite",
    "is_infinite": "isinf",
    "nvl": "coalesce",
    "lcase": "lower",
    "ucase": "upper",
    "std": "stddev",
    "getdate": "now",
    "sysdate": "now",
    "collect_list": "list",
    "approx_percentile": "approx_quantile",
}

_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Like, exp.ILike, exp.NullSafeEQ)
_FUNCTION_NAME = re.compile(r"^\s*([\w.]+)\s*\(")


@dataclass(frozen=True)
class TreeEdit:
    what: str
    why: str


def repair(tree: exp.Expression, problem: Problem, schema: Schema) -> TreeEdit | None:
    """Change `tree` in place to remove `problem`; None when no repair is sure enough."""
    handlers = {
        "unknown_table": _repair_table,
        "unknown_column": _repair_column,
        "not_grouped": _repair_group_by,
        "unknown_function": _repair_function,
        "ambiguous_column": _repair_ambiguous,
    }
    return handlers[problem.kind](tree, problem, schema)


# -- tables -------------------------------------------------------------------------------


def _repair_table(tree: exp.Expression, problem: Problem, schema: Schema) -> TreeEdit | None:
    wrong = problem.name.lower()
    tables = [t for t in tree.find_all(exp.Table) if isinstance(t.this, exp.Identifier)]
    matching = [t for t in tables if t.name.lower() == wrong]
    if not matching:
        return None
    known = list(schema.tables) + [cte.alias for cte in tree.find_all(exp.CTE)]
    if wrong in (k.lower() for k in known) and any(t.args.get("db") for t in matching):
        written = matching[0].sql()
        for table in matching:
            table.set("db", None)
            table.set("catalog", None)
        return TreeEdit(
            f"{written} → {problem.name}",
            "this warehouse has no such schema or catalog; the table lives in its default schema.",
        )
    target = closest_name(problem.name, [k for k in known if k.lower() != wrong])
    if target is None and problem.suggestion in known:
        target = problem.suggestion
    if target is None:
        return None
    for table in matching:
        if not table.alias:
            _requalify_columns(tree, table.name, target)
        table.set("this", exp.to_identifier(target))
    return TreeEdit(
        f"table {problem.name} → {target}",
        f"there is no table named {problem.name}; {target} is the closest table name in the warehouse.",
    )


def _requalify_columns(tree: exp.Expression, old: str, new: str) -> None:
    for column in tree.find_all(exp.Column):
        if column.table.lower() == old.lower():
            column.set("table", exp.to_identifier(new))


# -- columns ------------------------------------------------------------------------------


def _repair_column(tree: exp.Expression, problem: Problem, schema: Schema) -> TreeEdit | None:
    wrong = problem.name.lower()
    columns = [
        c for c in tree.find_all(exp.Column)
        if c.name.lower() == wrong and _qualifier_matches(c, problem.qualifier)
    ]
    if not columns:
        return None
    values = [c for c in columns if c.this.args.get("quoted") and _in_value_position(c)]
    if values:
        for column in values:
            column.replace(exp.Literal.string(column.name))
        return TreeEdit(
            f'"{problem.name}" → \'{problem.name}\'',
            f'double quotes name a column, and there is no column "{problem.name}"; '
            f"as a value it needs single quotes.",
        )
    visible = _visible_columns(tree, schema)
    renamed, target = 0, None
    for column in columns:
        candidates = visible.get(id(column)) or _all_query_columns(tree, schema)
        choice = closest_name(column.name, [c for c in candidates if c.lower() != wrong])
        if choice is None or (target is not None and choice != target):
            continue
        target = choice
        column.set("this", exp.to_identifier(choice))
        renamed += 1
    if not renamed:
        return None
    return TreeEdit(
        f"column {problem.name} → {target}",
        f"no table in the query has a column named {problem.name}; {target} is the closest "
        "column in the tables it reads.",
    )


def _qualifier_matches(column: exp.Column, qualifier: str | None) -> bool:
    return qualifier is None or column.table.lower() == qualifier.lower()


def _in_value_position(column: exp.Column) -> bool:
    """The column stands where a value goes: compared with another column, or in an IN list."""
    parent = column.parent
    if isinstance(parent, exp.Paren):
        parent = parent.parent
    if isinstance(parent, _COMPARISONS):
        other = parent.expression if parent.this is column else parent.this
        return not isinstance(other, (exp.Literal, exp.Null))
    if isinstance(parent, exp.In):
        return column is not parent.this
    if isinstance(parent, exp.Between):
        return column is not parent.this
    if isinstance(parent, exp.If):
        return column is parent.args.get("true")
    if isinstance(parent, exp.Case):
        return column is parent.args.get("default")
    return False


def _visible_columns(tree: exp.Expression, schema: Schema) -> dict[int, list[str]]:
    """For each column node, the names it could refer to in its own part of the query."""
    visible: dict[int, list[str]] = {}
    try:
        scopes = traverse_scope(tree)
    except SqlglotError:
        return visible
    for scope in scopes:
        by_source = {name: _source_columns(source, schema) for name, source in scope.sources.items()}
        everything = [c for cols in by_source.values() for c in cols]
        for column in scope.columns:
            qualifier = column.table
            visible[id(column)] = by_source.get(qualifier, everything) if qualifier else everything
    return visible


def _source_columns(source: exp.Expression | Scope, schema: Schema) -> list[str]:
    if isinstance(source, Scope):
        return [name for name in source.expression.named_selects if name != "*"]
    if isinstance(source, exp.Table):
        return [c.name for c in schema.columns_of(source.name)]
    return []


def _all_query_columns(tree: exp.Expression, schema: Schema) -> list[str]:
    names = []
    for table in tree.find_all(exp.Table):
        names.extend(c.name for c in schema.columns_of(table.name))
    return names


# -- GROUP BY -----------------------------------------------------------------------------


def _repair_group_by(tree: exp.Expression, problem: Problem, schema: Schema) -> TreeEdit | None:
    wrong = problem.name.lower()
    for select in tree.find_all(exp.Select):
        if not any(_has_aggregate(p) for p in select.expressions):
            continue
        loose = [p for p in select.expressions if _needs_grouping(p)]
        if not any(c.name.lower() == wrong for p in loose for c in p.find_all(exp.Column)):
            continue
        missing = _not_yet_grouped(select, loose)
        if not missing:
            return None
        for expression in missing:
            select.group_by(expression.copy(), copy=False)
        listed = ", ".join(e.sql(dialect="duckdb") for e in missing)
        aggregates = ", ".join(
            a.sql(dialect="duckdb") for p in select.expressions for a in p.find_all(exp.AggFunc)
        )
        return TreeEdit(
            f"added GROUP BY {listed}",
            f"{listed} is shown beside {aggregates}, which summarises many rows; grouping by "
            f"{listed} gives one summary row for each value.",
        )
    return None


def _has_aggregate(expression: exp.Expression) -> bool:
    return any(not _inside_window(a) for a in expression.find_all(exp.AggFunc))


def _inside_window(node: exp.Expression) -> bool:
    return node.find_ancestor(exp.Window) is not None


def _needs_grouping(projection: exp.Expression) -> bool:
    body = projection.unalias()
    if isinstance(body, (exp.Literal, exp.Star, exp.Null, exp.Boolean)) or _has_aggregate(body):
        return False
    return any(not _inside_window(c) for c in body.find_all(exp.Column))


def _not_yet_grouped(select: exp.Select, loose: list[exp.Expression]) -> list[exp.Expression]:
    group = select.args.get("group")
    grouped = group.expressions if group else []
    grouped_sql = {g.sql(dialect="duckdb").lower() for g in grouped}
    ordinals = {int(g.name) for g in grouped if isinstance(g, exp.Literal) and g.is_int}
    missing = []
    for projection in loose:
        position = select.expressions.index(projection) + 1
        body = projection.unalias()
        names = {body.sql(dialect="duckdb").lower(), projection.alias_or_name.lower()}
        if position in ordinals or names & grouped_sql:
            continue
        missing.append(body)
    return missing


# -- functions ----------------------------------------------------------------------------


def _repair_function(tree: exp.Expression, problem: Problem, schema: Schema) -> TreeEdit | None:
    wrong = problem.name.lower()
    target = FUNCTION_RENAMES.get(wrong)
    why = f"{problem.name} is another engine's name; DuckDB calls the same function {target}."
    if target is None and problem.suggestion:
        suggestion = problem.suggestion.lower()
        if edit_distance(wrong, suggestion) <= allowed_typos(wrong):
            target = suggestion
            why = f"there is no function {problem.name}; {target} is the function with the closest name."
    if target is None:
        return None
    changed = False
    for node in list(tree.find_all(exp.Func)):
        printed = node.sql(dialect="duckdb")
        found = _FUNCTION_NAME.match(printed)
        if not found or found.group(1).lower() != wrong:
            continue
        renamed = target + printed[found.end(1) :]
        node.replace(sqlglot.parse_one(renamed, read="duckdb"))
        changed = True
    if not changed:
        return None
    return TreeEdit(f"{problem.name}() → {target}()", why)


# -- ambiguous names ----------------------------------------------------------------------


def _repair_ambiguous(tree: exp.Expression, problem: Problem, schema: Schema) -> TreeEdit | None:
    wrong = problem.name.lower()
    columns = [c for c in tree.find_all(exp.Column) if c.name.lower() == wrong and not c.table]
    if not columns:
        return None
    qualifiers = [o.rsplit(".", 1)[0] for o in problem.options] or _sources_having(tree, wrong, schema)
    if not qualifiers:
        return None
    chosen = qualifiers[0]
    for column in columns:
        column.set("table", exp.to_identifier(chosen))
    others = ", ".join(f"{q}.{problem.name}" for q in qualifiers[1:]) or "another table's column"
    return TreeEdit(
        f"{problem.name} → {chosen}.{problem.name}",
        f"more than one table in the query has a column {problem.name}; I used the one from "
        f"{chosen}, the first table in FROM. Use {others} if you meant that one.",
    )


def _sources_having(tree: exp.Expression, column: str, schema: Schema) -> list[str]:
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if select is None:
        return []
    found = []
    for table in select.find_all(exp.Table):
        if any(c.name.lower() == column for c in schema.columns_of(table.name)):
            found.append(table.alias_or_name)
    return found
