"""Repairs on a parsed query for the problem an engine named: a wrong table, column or function
name, a value written in double quotes, a missing GROUP BY, an ambiguous column.

Names are resolved against the warehouse schema and against what each part of the query
can see (its FROM tables, CTEs and subqueries), never from a list written for one example.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import Scope, traverse_scope

from agent.errors import AssistantError
from agent.sql.diagnose import Problem
from agent.sql.schema_view import SchemaView
from agent.sql.names import allowed_typos, closest_name, edit_distance


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


# Runs a small read query on the warehouse and returns its rows: how a repair looks at the data
# (which column a join value lives in, which table's column a filter can match) when names alone
# cannot tell.
Probe = Callable[[str], list[tuple[Any, ...]]]

MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)
PROBE_SAMPLE = 500


@dataclass(frozen=True)
class TreeEdit:
    what: str
    why: str


def repair(
    tree: exp.Expr, problem: Problem, schema: SchemaView, probe: Probe | None = None
) -> TreeEdit | None:
    """Change `tree` in place to remove `problem`; None when no repair is sure enough."""
    if problem.kind == "aggregate_in_where":
        return _repair_aggregate_in_where(tree)
    if problem.kind == "bad_value":
        return _repair_bad_value(tree, problem, schema)
    if problem.kind == "unknown_column":
        return _repair_column(tree, problem, schema, probe)
    if problem.kind == "ambiguous_column":
        return _repair_ambiguous(tree, problem, schema, probe)
    handlers = {
        "unknown_table": _repair_table,
        "not_grouped": _repair_group_by,
        "unknown_function": _repair_function,
    }
    return handlers[problem.kind](tree, problem, schema)


# -- tables -------------------------------------------------------------------------------


def _repair_table(tree: exp.Expr, problem: Problem, schema: SchemaView) -> TreeEdit | None:
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


def _requalify_columns(tree: exp.Expr, old: str, new: str) -> None:
    for column in tree.find_all(exp.Column):
        if column.table.lower() == old.lower():
            column.set("table", exp.to_identifier(new))


# -- columns ------------------------------------------------------------------------------


def _repair_column(
    tree: exp.Expr, problem: Problem, schema: SchemaView, probe: Probe | None
) -> TreeEdit | None:
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
    # The exact name in another table of the query beats a similar name in the one written.
    moved = _repair_alias(tree, columns, schema) or _repair_aggregate_name(columns)
    if moved is not None:
        return moved
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
    if renamed:
        return TreeEdit(
            f"column {problem.name} → {target}",
            f"no table in the query has a column named {problem.name}; {target} is the closest "
            "column in the tables it reads.",
        )
    return _repair_join_column(tree, columns, schema, probe)


def _repair_aggregate_name(columns: list[exp.Column]) -> TreeEdit | None:
    """`ORDER BY count` where the query computes one count(*): the name of the function stands for
    the value the query computes with it, so it becomes that output."""
    column = columns[0]
    select = column.find_ancestor(exp.Select)
    if select is None or column.table:
        return None
    wrong = column.name.lower()
    computed = [
        p for p in select.expressions
        if any(_function_name(a) == wrong for a in p.find_all(exp.AggFunc)) and not _inside_window(p)
    ]
    if len(computed) != 1:
        return None
    projection = computed[0]
    if isinstance(projection, exp.Alias):
        replacement: exp.Expr = exp.column(projection.alias)
    else:
        replacement = projection.copy()
    shown = replacement.sql(dialect="duckdb")
    for node in columns:
        if node.find_ancestor(exp.Select) is select:
            node.replace(replacement.copy())
    return TreeEdit(
        f"{column.name} → {shown}",
        f"there is no column {column.name}; the query computes one {column.name}, {shown}, which is "
        "what the name stands for here.",
    )


def _function_name(node: exp.Expr) -> str:
    found = _FUNCTION_NAME.match(node.sql(dialect="duckdb"))
    return found.group(1).lower() if found else ""


def _sources(tree: exp.Expr, column: exp.Column) -> dict[str, exp.Expr | Scope]:
    """What the part of the query holding `column` reads, by alias."""
    try:
        for scope in traverse_scope(tree):
            if any(c is column for c in scope.columns):
                return dict(scope.sources)
    except SqlglotError:
        pass
    return {}


def _repair_alias(tree: exp.Expr, columns: list[exp.Column], schema: SchemaView) -> TreeEdit | None:
    """`f.name` where `f` has no `name` but exactly one other table in the query does: the alias
    is wrong, not the column."""
    qualified = [c for c in columns if c.table]
    if not qualified:
        return None
    column = qualified[0]
    owners = [
        alias for alias, source in _sources(tree, column).items()
        if alias.lower() != column.table.lower()
        and any(n.lower() == column.name.lower() for n in _source_columns(source, schema))
    ]
    if len(owners) != 1:
        return None
    wrong_alias, owner = column.table, owners[0]
    for node in qualified:
        if node.table.lower() == wrong_alias.lower():
            node.set("table", exp.to_identifier(owner))
    return TreeEdit(
        f"{wrong_alias}.{column.name} → {owner}.{column.name}",
        f"{wrong_alias} has no column {column.name}; {owner} is the only table in the query that "
        "has one.",
    )


def _repair_join_column(
    tree: exp.Expr, columns: list[exp.Column], schema: SchemaView, probe: Probe | None
) -> TreeEdit | None:
    """`ON f.dest = ap.code` where `ap` has no `code`: the column of `ap` whose values match
    `f.dest`'s is the one meant. Only the data can say which, so this needs a probe."""
    if probe is None:
        return None
    for column in columns:
        condition = column.parent
        if not (isinstance(condition, exp.EQ) and column.find_ancestor(exp.Join) is not None):
            continue
        other = condition.expression if condition.this is column else condition.this
        if not (isinstance(other, exp.Column) and other.table and column.table):
            continue
        sources = _sources(tree, column)
        mine, theirs = sources.get(column.table), sources.get(other.table)
        if not (isinstance(mine, exp.Table) and isinstance(theirs, exp.Table)):
            continue
        other_type = _type_of(schema, theirs.name, other.name)
        candidates = [
            c.name for c in schema.columns_of(mine.name) if _type_family(c.type) == _type_family(other_type)
        ]
        matches = {name: _overlap(probe, theirs.name, other.name, mine.name, name) for name in candidates}
        best = max(matches.values(), default=0)
        chosen = [name for name, count in matches.items() if count == best]
        if best == 0 or len(chosen) != 1:
            continue
        wrong = column.name
        column.set("this", exp.to_identifier(chosen[0]))
        return TreeEdit(
            f"join column {column.table}.{wrong} → {column.table}.{chosen[0]}",
            f"{mine.name} has no column {wrong}; of its columns, {chosen[0]} is the one whose values "
            f"match {other.table}.{other.name} ({best} of {PROBE_SAMPLE} sampled values or fewer).",
        )
    return None


def _overlap(probe: Probe, table: str, column: str, other_table: str, other_column: str) -> int:
    """How many of a sample of `table.column`'s distinct values appear in `other_table.other_column`."""
    sql = (
        f"SELECT count(*) FROM (SELECT DISTINCT {_quote(column)} AS v FROM {_quote(table)} "
        f"WHERE {_quote(column)} IS NOT NULL LIMIT {PROBE_SAMPLE}) AS sample "
        f"WHERE v IN (SELECT {_quote(other_column)} FROM {_quote(other_table)})"
    )
    try:
        rows = probe(sql)
    except AssistantError:  # a probe that fails is no evidence either way
        return 0
    return int(rows[0][0]) if rows else 0


def _quote(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql(dialect="duckdb")


def _type_of(schema: SchemaView, table: str, column: str) -> str:
    return next((c.type for c in schema.columns_of(table) if c.name.lower() == column.lower()), "")


def _type_family(data_type: str) -> str:
    upper = data_type.upper()
    if any(word in upper for word in ("CHAR", "TEXT", "STRING")):
        return "text"
    if any(word in upper for word in ("INT", "DEC", "NUMERIC", "DOUBLE", "FLOAT", "REAL")):
        return "number"
    if any(word in upper for word in ("DATE", "TIME")):
        return "time"
    return upper


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


def _visible_columns(tree: exp.Expr, schema: SchemaView) -> dict[int, list[str]]:
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


def _source_columns(source: exp.Expr | Scope, schema: SchemaView) -> list[str]:
    if isinstance(source, Scope):
        query = source.expression  # a scope's expression selects: a query, a table or a table function
        return [name for name in query.named_selects if name != "*"] if isinstance(query, exp.Selectable) else []
    if isinstance(source, exp.Table):
        return [c.name for c in schema.columns_of(source.name)]
    return []


def _all_query_columns(tree: exp.Expr, schema: SchemaView) -> list[str]:
    names: list[str] = []
    for table in tree.find_all(exp.Table):
        names.extend(c.name for c in schema.columns_of(table.name))
    return names


# -- GROUP BY -----------------------------------------------------------------------------


def _repair_group_by(tree: exp.Expr, problem: Problem, schema: SchemaView) -> TreeEdit | None:
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


def _has_aggregate(expression: exp.Expr) -> bool:
    return any(not _inside_window(a) for a in expression.find_all(exp.AggFunc))


def _inside_window(node: exp.Expr) -> bool:
    return node.find_ancestor(exp.Window) is not None


def _needs_grouping(projection: exp.Expr) -> bool:
    body = projection.unalias()
    if isinstance(body, (exp.Literal, exp.Star, exp.Null, exp.Boolean)) or _has_aggregate(body):
        return False
    return any(not _inside_window(c) for c in body.find_all(exp.Column))


def _not_yet_grouped(select: exp.Select, loose: list[exp.Expr]) -> list[exp.Expr]:
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


def _repair_function(tree: exp.Expr, problem: Problem, schema: SchemaView) -> TreeEdit | None:
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


def _repair_ambiguous(
    tree: exp.Expr, problem: Problem, schema: SchemaView, probe: Probe | None
) -> TreeEdit | None:
    wrong = problem.name.lower()
    columns = [c for c in tree.find_all(exp.Column) if c.name.lower() == wrong and not c.table]
    if not columns:
        return None
    qualifiers = [o.rsplit(".", 1)[0] for o in problem.options] or _sources_having(tree, wrong, schema)
    qualifiers = [q.strip('"') for q in qualifiers]
    if not qualifiers:
        return None
    matching = _qualifiers_the_filter_matches(tree, columns, qualifiers, probe)
    if len(matching) == 1:
        chosen = matching[0]
        why = (
            f"more than one table in the query has a column {problem.name}; only {chosen}'s "
            f"{problem.name} has rows that meet the condition on it, so that is the one meant."
        )
    else:
        chosen = qualifiers[0]
        others = ", ".join(f"{q}.{problem.name}" for q in qualifiers[1:]) or "another table's column"
        why = (
            f"more than one table in the query has a column {problem.name}; I used the one from "
            f"{chosen}, the first table in FROM. Use {others} if you meant that one."
        )
    for column in columns:
        column.set("table", exp.to_identifier(chosen))
    return TreeEdit(f"{problem.name} → {chosen}.{problem.name}", why)


def _qualifiers_the_filter_matches(
    tree: exp.Expr, columns: list[exp.Column], qualifiers: list[str], probe: Probe | None
) -> list[str]:
    """For a filter such as `year < 2000`, the tables whose own column meets it in some row: a
    condition no row of one table can meet is not about that table."""
    if probe is None:
        return []
    filters = [c for c in columns if _compared_with_literals(c) and c.find_ancestor(exp.Where)]
    if not filters:
        return []
    condition = filters[0].parent
    if condition is None:
        return []
    sources = _sources(tree, filters[0])
    matching = []
    for qualifier in qualifiers:
        source = sources.get(qualifier)
        if not isinstance(source, exp.Table):
            return []
        test = condition.copy()
        for column in test.find_all(exp.Column):
            column.set("table", None)
        sql = f"SELECT count(*) FROM (SELECT 1 FROM {_quote(source.name)} WHERE {test.sql(dialect='duckdb')} LIMIT 1)"
        try:
            rows = probe(sql)
        except AssistantError:
            return []
        if rows and rows[0][0]:
            matching.append(qualifier)
    return matching


def _compared_with_literals(column: exp.Column) -> bool:
    parent = column.parent
    if isinstance(parent, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)):
        other = parent.expression if parent.this is column else parent.this
        return isinstance(other, exp.Literal)
    if isinstance(parent, exp.In):
        return parent.this is column and all(isinstance(e, exp.Literal) for e in parent.expressions)
    if isinstance(parent, exp.Between):
        return parent.this is column
    return False


def _sources_having(tree: exp.Expr, column: str, schema: SchemaView) -> list[str]:
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if select is None:
        return []
    found = []
    for table in select.find_all(exp.Table):
        if any(c.name.lower() == column for c in schema.columns_of(table.name)):
            found.append(table.alias_or_name)
    return found


# -- aggregates and window functions in WHERE ---------------------------------------------------


def _repair_aggregate_in_where(tree: exp.Expr) -> TreeEdit | None:
    """A WHERE condition on a summary (`avg(x) > 20`) belongs in HAVING, which is checked after
    grouping; one on a window function (`row_number() OVER … <= 3`) is checked on the grouped
    rows in an outer query, since SQL computes windows after WHERE, GROUP BY and HAVING."""
    for select in list(tree.find_all(exp.Select)):
        where = select.args.get("where")
        if where is None:
            continue
        conditions = _conjuncts(where.this)
        windowed = [c for c in conditions if _computes_here(c, exp.Window, select)]
        summaries = [c for c in conditions if c not in windowed and _computes_here(c, exp.AggFunc, select)]
        if not windowed and not summaries:
            continue
        kept = [c for c in conditions if c not in windowed and c not in summaries]
        select.set("where", exp.Where(this=exp.and_(*kept)) if kept else None)
        notes = []
        if summaries:
            having = select.args.get("having")
            both = ([having.this] if having else []) + summaries
            select.set("having", exp.Having(this=exp.and_(*both)))
            notes.append(("moved " + " AND ".join(c.sql(dialect="duckdb") for c in summaries) + " from WHERE to HAVING",
                          "WHERE filters single rows before they are summarised; a condition on a "
                          "summary such as an average or a count goes in HAVING, after GROUP BY."))
        if windowed:
            notes.append(_window_to_outer_query(select, windowed))
        return TreeEdit("; ".join(n[0] for n in notes), " ".join(n[1] for n in notes))
    return None


def _computes_here(condition: exp.Expr, kind: type[exp.Expr], select: exp.Select) -> bool:
    """`condition` has a `kind` node of `select` itself (not of a subquery inside it; not an
    aggregate that is a window's argument)."""
    for node in condition.find_all(kind):
        if node.find_ancestor(exp.Select) is select and (kind is exp.Window or not _inside_window(node)):
            return True
    return False


def _window_to_outer_query(select: exp.Select, windowed: list[exp.Expr]) -> tuple[str, str]:
    names = _output_names(select)
    taken = {n.lower() for n in names}
    outer_conditions = []
    for condition in windowed:
        for window in list(condition.find_all(exp.Window)):
            alias = _fresh_name("rn" if isinstance(window.this, exp.RowNumber) else "w", taken)
            select.select(exp.alias_(window.copy(), alias), copy=False)
            window.replace(exp.column(alias))
        outer_conditions.append(condition)
    inner = select.copy()
    outer = (
        exp.select(*[exp.column(n) for n in names])
        .from_(exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier("ranked"))))
        .where(exp.and_(*outer_conditions))
    )
    for key in ("order", "limit"):
        clause = inner.args.get(key)
        if clause is not None:
            inner.set(key, None)
            outer.set(key, clause)
    become(select, outer)
    shown = " AND ".join(c.sql(dialect="duckdb") for c in outer_conditions)
    return (
        f"filtered {shown} in an outer query",
        "a window function is computed after WHERE, GROUP BY and HAVING, so it cannot filter "
        "there; it is computed in the inner query and filtered outside it.",
    )


def become(node: exp.Expr, other: exp.Expr) -> None:
    """Turn `node` into `other` in place, so it works for the statement's root node too."""
    for key in list(node.args):
        node.set(key, None)
    for key, value in other.args.items():
        node.set(key, value)


def _output_names(select: exp.Select) -> list[str]:
    """The names of `select`'s outputs, giving an alias to any expression that has none."""
    names = []
    for position, projection in enumerate(list(select.expressions), start=1):
        name = projection.alias_or_name
        if not name or not isinstance(projection, (exp.Alias, exp.Column)):
            name = f"col{position}"
            projection.replace(exp.alias_(projection.copy(), name))
        names.append(name)
    return names


def _fresh_name(base: str, taken: set[str]) -> str:
    name, n = base, 1
    while name.lower() in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name.lower())
    return name


def _conjuncts(condition: exp.Expr) -> list[exp.Expr]:
    if isinstance(condition, exp.And):
        return _conjuncts(condition.this) + _conjuncts(condition.expression)
    if isinstance(condition, exp.Paren) and isinstance(condition.this, exp.And):
        return _conjuncts(condition.this)
    return [condition]


# -- values of the wrong type -------------------------------------------------------------------


def _repair_bad_value(tree: exp.Expr, problem: Problem, schema: SchemaView) -> TreeEdit | None:
    """A month written as a name ('July') where a month number is compared: use the number."""
    value = problem.name.strip().lower()
    month = next(
        (i for i, name in enumerate(MONTH_NAMES, start=1) if value in (name, name[:3])), None
    )
    if month is None:
        return None
    changed = []
    for literal in list(tree.find_all(exp.Literal)):
        if not (literal.is_string and literal.name.strip().lower() == value):
            continue
        subject = _compared_subject(literal)
        if subject is None or not _is_month_number(subject):
            continue
        literal.replace(exp.Literal.number(month))
        changed.append(subject.sql(dialect="duckdb"))
    if not changed:
        return None
    return TreeEdit(
        f"'{problem.name}' → {month}",
        f"{changed[0]} is a month number, not a name; {problem.name} is month {month}.",
    )


# Date parts that engines return as numbers.
_NUMBER_PARTS = (
    exp.Month, exp.Year, exp.Day, exp.DayOfWeek, exp.DayOfMonth, exp.DayOfYear, exp.WeekOfYear, exp.Quarter,
)


def _is_month_number(node: exp.Expr) -> bool:
    if isinstance(node, exp.Column):
        return "month" in node.name.lower()
    if isinstance(node, exp.Month):
        return True
    return isinstance(node, exp.Extract) and node.name.upper() in ("MONTH", "MON", "MONTHS")


def _compared_subject(literal: exp.Literal) -> exp.Expr | None:
    parent = literal.parent
    subject: exp.Expr | None = None
    if isinstance(parent, exp.In):
        subject = parent.this if literal is not parent.this else None
    elif isinstance(parent, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)):
        subject = parent.this if parent.expression is literal else parent.expression
    return subject


# -- checks the engine's dry run does not make ----------------------------------------------------


def mistyped_value(tree: exp.Expr, schema: SchemaView) -> Problem | None:
    """A text value compared with a number column (`month = 'July'`): engines plan such a query
    and fail only when it runs, so a dry run alone passes it."""
    for literal in tree.find_all(exp.Literal):
        if not literal.is_string or _is_number(literal.name):
            continue
        subject = _compared_subject(literal)
        if isinstance(subject, (exp.Extract, *_NUMBER_PARTS)):
            return Problem(kind="bad_value", name=literal.name, qualifier=subject.sql(dialect="duckdb"))
        if not isinstance(subject, exp.Column):
            continue
        column = subject
        source = _sources(tree, column).get(column.table) if column.table else None
        tables = [source.name] if isinstance(source, exp.Table) else [t.name for t in tree.find_all(exp.Table)]
        types = {_type_family(_type_of(schema, t, column.name)) for t in tables} - {""}
        if types == {"number"}:
            return Problem(kind="bad_value", name=literal.name, qualifier=column.name)
    return None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
