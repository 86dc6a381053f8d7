"""A SQL text read once: the guard's parse, kept with its dialect and verdict, handed to whatever
runs, costs, authorises, audits or describes the query next instead of each parsing it again.

Parsing is the expensive step and the one a hostile text attacks, so it happens once, in the
guard, under its bounds. The tree is shared: nobody mutates it. A step that rewrites a query
(masking, a repair, dropping a LIMIT) works on `tree.copy()` and, when the result must run,
brings the new text back through the guard.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sqlglot import exp


@dataclass(frozen=True, eq=False)
class CheckedQuery:
    """One read-only statement the guard passed: `sql` is the cleaned text the engine runs."""

    sql: str
    dialect: str  # sqlglot's name of the dialect it was read in
    tree: exp.Expr  # shared and never mutated; copy it to rewrite
    called: tuple[str, ...]  # names written as calls `name(`, which the guard's recheck needs again
    policy: Any = field(default=None)  # the GuardPolicy it was judged under (None: system catalogs only)

    @cached_property
    def tables(self) -> tuple[str, ...]:
        """The tables it names (CTEs left out), lower case, as written (schema-qualified when it was)."""
        ctes = {cte.alias_or_name.lower() for cte in self.tree.find_all(exp.CTE)}
        names = (".".join(p.name.lower() for p in table.parts) for table in self.tree.find_all(exp.Table))
        return tuple(dict.fromkeys(n for n in names if n and n not in ctes))

    @cached_property
    def ranked_by(self) -> str | None:
        """The column the outer query is ordered by first, when it is a plain column of the result."""
        return first_order_column(self.tree)

    @cached_property
    def limit(self) -> int | None:
        """The outer query's LIMIT, when it is a plain number."""
        limit = self.tree.args.get("limit")
        value = limit.expression if limit is not None else None
        if isinstance(value, exp.Literal) and value.is_int:
            return int(value.this)
        return None


def first_order_column(tree: exp.Expr) -> str | None:
    order = tree.args.get("order")
    first = order.expressions[0].this if order is not None and order.expressions else None
    return first.name if isinstance(first, exp.Column) else None


SqlInput = str | CheckedQuery


def sql_text(query: SqlInput) -> str:
    return query.sql if isinstance(query, CheckedQuery) else query
