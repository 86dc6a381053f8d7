"""What makes a query costly that a planner's row counts do not show, read from the query's shape.

A planner prices neither recursion (PostgreSQL guesses ten times the seed; most engines say nothing,
and an exponential recursive CTE filled 2.6 GB of temporary disk in issue 25) nor a regular
expression's work on each row (its estimate counts the rows a filter keeps, not the text it reads).
These hold on every engine, and are all there is where the engine estimates nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

# A regular expression costs about as much per row as this many ordinary row steps: measured on DuckDB
# (one thread, 2M rows of 96-character text) 1.5-1.7 µs a row for regexp_matches against 0.03 µs for
# an integer comparison and 0.08 µs for a string equality.
REGEXP_ROW_COST = 50


def _is_regexp(node: exp.Expr) -> bool:
    if type(node).__name__.startswith("Regexp") or isinstance(node, exp.SimilarTo):
        return True
    return isinstance(node, exp.Anonymous) and any(w in str(node.name).lower() for w in ("regexp", "rlike"))


def costly_shape(tree: exp.Expr, table_rows: Callable[[exp.Table], int | None], costly_rows: int) -> str | None:
    """Why `tree` is costly by its shape (a phrase for the logs), or None. `table_rows` gives a table's
    estimated rows, None where unknown (a CTE's name, an engine that keeps no counts)."""
    if any(w.args.get("recursive") for w in tree.find_all(exp.With)):
        return "a recursive query (planners cannot bound its rows)"
    if not any(_is_regexp(node) for node in tree.walk()):
        return None
    for table in tree.find_all(exp.Table):
        rows = table_rows(table)
        if rows is not None and rows * REGEXP_ROW_COST > costly_rows:
            return f"a regular expression over {table.sql()} (about {rows:,} rows)"
    return None
