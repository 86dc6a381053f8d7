"""Explain SQL: what a query reads, joins, keeps, groups, computes and returns, in plain words.

Built only from the parsed tree (no LLM), so the explanation is exactly what the SQL says.
Column descriptions from the catalog ({"table.column": "..."}) are added when given.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from sqlglot import exp

from agent.errors import SqlError, UnsafeSqlError
from agent.sql.dialect import DEFAULT_DIALECT
from agent.sql.guard import ensure_read_only

_COMPARISON_WORDS = {
    exp.EQ: "is",
    exp.NEQ: "is not",
    exp.GT: "is greater than",
    exp.GTE: "is at least",
    exp.LT: "is less than",
    exp.LTE: "is at most",
    exp.NullSafeEQ: "is",
}
_AGGREGATE_WORDS = {
    exp.Avg: "the average of",
    exp.Sum: "the total of",
    exp.Min: "the smallest",
    exp.Max: "the largest",
    exp.Median: "the median of",
    exp.Stddev: "the standard deviation of",
    exp.StddevSamp: "the standard deviation of",
    exp.StddevPop: "the population standard deviation of",
    exp.Variance: "the variance of",
    exp.ApproxDistinct: "the approximate number of distinct",
    exp.ArrayAgg: "the list of",
    exp.AnyValue: "any one value of",
}


class JoinStep(BaseModel):
    kind: str = Field(description="inner, left, right, full or cross")
    table: str
    condition: str | None = None
    acts_as_inner: str | None = Field(
        default=None, description="the WHERE condition that makes this outer join drop unmatched rows"
    )


class Explanation(BaseModel):
    tables: list[str] = Field(default_factory=list)
    joins: list[JoinStep] = Field(default_factory=list)
    filters: list[str] = Field(default_factory=list)
    grouping: list[str] = Field(default_factory=list)
    aggregates: list[str] = Field(default_factory=list)
    having: list[str] = Field(default_factory=list)
    order: list[str] = Field(default_factory=list)
    limit: int | None = None
    outputs: list[str] = Field(default_factory=list)
    ctes: list[str] = Field(default_factory=list, description="name: what it computes")
    subqueries: list[str] = Field(default_factory=list)
    text: str


def explain_sql(
    sql: str, dialect: str = DEFAULT_DIALECT, column_descriptions: dict[str, str] | None = None
) -> Explanation:
    """A plain-English account of one query, with its parts listed for programs.

    Only queries are explained: a statement the guard refuses gets UnsafeSqlError saying why, and
    one that does not read data (SHOW, DESCRIBE, …) a SqlError saying what it is instead.
    """
    try:
        tree = ensure_read_only(sql, dialect=dialect)  # the one parse: the guard's tree is the one explained
    except UnsafeSqlError as exc:
        raise UnsafeSqlError(
            f"This statement is refused, so I do not explain it. {exc.user_message}", detail=exc.detail
        ) from exc
    root = tree.unnest() if isinstance(tree, exp.Subquery) else tree
    if not isinstance(root, exp.Query):
        raise SqlError(
            f"I only explain queries, statements that read data (SELECT or WITH); this is a "
            f"{root.key.upper()} statement."
        )
    return _Explainer(column_descriptions or {}).explain(tree)


class _Explainer:
    def __init__(self, descriptions: dict[str, str]):
        self.descriptions = {k.lower(): v for k, v in descriptions.items()}
        self.aliases: dict[str, str] = {}
        self.cte_names: set[str] = set()
        self.multi_table = False
        self.owners: dict[str, list[str]] = {}
        self.select: exp.Select | None = None

    def explain(self, tree: exp.Expr) -> Explanation:
        self.aliases = {t.alias_or_name.lower(): t.name for t in tree.find_all(exp.Table)}
        self.multi_table = len({t.name.lower() for t in tree.find_all(exp.Table)}) > 1
        self.owners = self._column_owners(tree)
        self.cte_names = {cte.alias.lower() for cte in tree.find_all(exp.CTE)}
        ctes = [f"{cte.alias}: {self._sentences(cte.this, lead='it')}" for cte in tree.find_all(exp.CTE)]
        subqueries = [
            self._sentences(sub.this, lead="It")
            for sub in tree.find_all(exp.Subquery)
            if isinstance(sub.this, exp.Select) and sub.find_ancestor(exp.CTE) is None
        ]
        main = tree.unnest() if isinstance(tree, exp.Subquery) else tree
        text = self._sentences(main, lead="Then this query" if ctes else "This query")
        if ctes:
            steps = " ".join(f"First it builds {c}" if i == 0 else f"Next it builds {c}" for i, c in enumerate(ctes))
            text = f"{steps} {text}"
        glossary = self._glossary(tree)
        if glossary:
            text += " Where: " + "; ".join(glossary) + "."
        select = main if isinstance(main, exp.Select) else main.find(exp.Select)
        parts = self._parts(select) if select is not None else {}
        return Explanation(
            tables=sorted({t.name for t in tree.find_all(exp.Table) if t.name and not _is_cte(t, tree)}),
            ctes=ctes,
            subqueries=subqueries,
            text=text,
            **parts,
        )

    # -- the parts, as data -------------------------------------------------------------

    def _parts(self, select: exp.Select) -> dict[str, Any]:
        self.select = select
        where, having = select.args.get("where"), select.args.get("having")
        group, order, limit = select.args.get("group"), select.args.get("order"), select.args.get("limit")
        joins = [self._join(j, where) for j in select.args.get("joins") or []]
        return {
            "joins": joins,
            "filters": _conjuncts(where.this, self) if where else [],
            "having": _conjuncts(having.this, self) if having else [],
            "grouping": self._grouping(select, group),
            "aggregates": [text for p in select.expressions for text in self._aggregate_texts(p, select)],
            "order": [self._order_item(o, select) for o in order.expressions] if order else [],
            "limit": _int(limit.expression) if limit else None,
            "outputs": [p.alias or (p.name if isinstance(p, exp.Column) else p.sql(dialect="duckdb"))
                        for p in select.expressions],
        }

    def _grouping(self, select: exp.Select, group: exp.Group | None) -> list[str]:
        if group is None:
            return []
        if group.args.get("all"):
            return [self.value(p.unalias()) for p in select.expressions if not _aggregates(p)]
        return [self._output_or_value(item, select, by_alias=False) for item in group.expressions]

    def _aggregate_texts(self, projection: exp.Expr, select: exp.Select) -> list[str]:
        found = _aggregates(projection)
        if len(found) == 1 and projection.unalias() is found[0]:
            return [self.value(found[0], select) + _as(projection)]
        return [self.value(a, select) for a in found]

    def _join(self, join: exp.Join, where: exp.Where | None = None) -> JoinStep:
        kind = (join.side or join.kind or "inner").lower()
        acts_as_inner = self._filter_on_optional_side(join, where) if kind in ("left", "right") else None
        if join.args.get("using"):
            condition = "matching " + _and_list([u.name for u in join.args["using"]])
        elif join.args.get("on"):
            condition = _and_list([self._join_condition(c) for c in _split_and(join.args["on"])])
        else:
            condition = None
            kind = "cross" if not join.side else kind
        return JoinStep(kind=kind, table=_source_name(join.this), condition=condition, acts_as_inner=acts_as_inner)

    def _filter_on_optional_side(self, join: exp.Join, where: exp.Where | None) -> str | None:
        """A WHERE condition on the side an outer join may leave empty (NULL) is false for the
        rows the join kept without a match, so it drops them: the join acts like an inner join.
        Conditions that hold for NULL (IS NULL, COALESCE, an OR) are not counted."""
        if where is None:
            return None
        select = join.parent
        if select is None:  # a join outside a query: nothing it could drop
            return None
        if join.side.lower() == "left":
            optional = {join.this.alias_or_name.lower(), join.this.name.lower()}
        else:
            source = select.args.get("from_") or select.args.get("from")
            earlier = [source.this] if source is not None else []
            for other in select.args.get("joins") or []:
                if other is join:
                    break
                earlier.append(other.this)
            optional = {e.alias_or_name.lower() for e in earlier} | {e.name.lower() for e in earlier}
        for condition in _split_and(where.this):
            if condition.find(exp.Or, exp.Coalesce) or _tests_for_null(condition):
                continue
            if any((c.table or self._owner(c)).lower() in optional for c in condition.find_all(exp.Column)):
                return self.condition(condition)
        return None

    def _join_condition(self, node: exp.Expr) -> str:
        if isinstance(node, exp.EQ) and isinstance(node.this, exp.Column) and isinstance(node.expression, exp.Column):
            return f"{self._qualified(node.this)} matches {self._qualified(node.expression)}"
        return self.condition(node)

    def _column_owners(self, tree: exp.Expr) -> dict[str, list[str]]:
        """For each column name the query uses, the tables in the query that have it: from the
        catalog's descriptions and from the query's own qualified names."""
        tables = sorted({t.name.lower() for t in tree.find_all(exp.Table) if t.name})
        owners: dict[str, list[str]] = {}
        for column in tree.find_all(exp.Column):
            name = column.name.lower()
            found = owners.setdefault(name, [t for t in tables if f"{t}.{name}" in self.descriptions])
            if column.table:
                table = self.aliases.get(column.table.lower(), column.table).lower()
                if table not in found:
                    found.append(table)
        return owners

    def _owner(self, column: exp.Column) -> str:
        """The table a column belongs to: its qualifier's table, or the only table that has it."""
        if column.table:
            return self.aliases.get(column.table.lower(), column.table)
        owners = self.owners.get(column.name.lower(), [])
        return owners[0] if len(owners) == 1 and self.multi_table else ""

    def _qualified(self, column: exp.Column) -> str:
        table = self._owner(column)
        return f"{table}.{column.name}" if table else column.name

    def _order_item(self, ordered: exp.Ordered, select: exp.Select | None = None) -> str:
        """`ORDER BY 3` in a query's own ORDER BY is its third output, named as the output is."""
        direction = "highest first" if ordered.args.get("desc") else "lowest first"
        return f"{self._output_or_value(ordered.this, select)}, {direction}"

    def _output_or_value(self, item: exp.Expr, select: exp.Select | None, by_alias: bool = True) -> str:
        outputs = select.expressions if select is not None else []
        if isinstance(item, exp.Literal) and item.is_int and 0 < int(item.name) <= len(outputs):
            projection = outputs[int(item.name) - 1]
            return (by_alias and projection.alias) or self.value(projection.unalias(), select)
        return self.value(item)

    # -- the sentences ------------------------------------------------------------------

    def _sentences(self, node: exp.Expr, lead: str) -> str:
        if isinstance(node, exp.SetOperation):
            how = {
                exp.Union: "adds together the rows of",
                exp.Intersect: "keeps only the rows found in both of",
                exp.Except: "keeps the rows of the first but not the second of",
            }.get(type(node), "combines")
            left = self._sentences(node.left, lead="The first")
            right = self._sentences(node.right, lead="The second")
            dedupe = " (duplicates removed)" if node.args.get("distinct") else ""
            return f"{lead} {how} two queries{dedupe}: {left} {right}"
        if isinstance(node, exp.Values):
            return f"{lead} lists {len(node.expressions)} fixed rows of values."
        if isinstance(node, exp.Subquery):
            return self._sentences(node.unnest(), lead)
        if not isinstance(node, exp.Select):
            return f"{lead} runs {node.key.upper()}."
        return self._select_sentences(node, lead)

    def _select_sentences(self, select: exp.Select, lead: str) -> str:
        parts = self._parts(select)
        sentences = [f"{lead} reads {self._sources(select, parts['joins'])}."]
        if parts["filters"]:
            sentences.append(f"It keeps only the rows where {_and_list(parts['filters'])}.")
        for join in parts["joins"]:
            if join.acts_as_inner:
                sentences.append(
                    f"Because the condition {join.acts_as_inner} needs a matching row, the rows the "
                    f"{join.kind.upper()} JOIN with {join.table} kept without a match are dropped: "
                    "it acts like an inner join."
                )
        aggregates, grouping = parts["aggregates"], parts["grouping"]
        if aggregates and grouping:
            sentences.append(f"For each {_and_list(grouping)}, it computes {_and_list(aggregates)}.")
        elif aggregates:
            sentences.append(f"It computes {_and_list(aggregates)} over all those rows.")
        elif grouping:
            sentences.append(f"It returns one row for each {_and_list(grouping)}.")
        else:
            sentences.append(self._returns(select))
        if parts["having"]:
            sentences.append(f"It keeps only the groups where {_and_list(parts['having'])}.")
        if select.args.get("distinct"):
            sentences.append("Duplicate rows are removed.")
        sentences.append(self._order_and_limit(parts["order"], parts["limit"]))
        return " ".join(s for s in sentences if s)

    def _sources(self, select: exp.Select, joins: list[JoinStep]) -> str:
        source = select.args.get("from_") or select.args.get("from")
        if source is None:
            return "no table (it computes values directly)"
        text = _source_phrase(source.this, self.cte_names)
        for join in joins:
            if join.kind == "cross":
                text += f", combined with every row of {join.table}"
            elif join.acts_as_inner:
                text += f", joined with {join.table}" + (f" on {join.condition}" if join.condition else "")
            else:
                keep = {"left": ", keeping every row of the left side", "right": ", keeping every row of "
                        f"{join.table}", "full": ", keeping unmatched rows of both"}.get(join.kind, "")
                on = f" on {join.condition}" if join.condition else ""
                text += f", joined with {join.table}{on}{keep}"
        return text

    def _returns(self, select: exp.Select) -> str:
        if any(isinstance(p, exp.Star) for p in select.expressions):
            return "It returns every column."
        shown = [self.value(p.unalias()) + _as(p) for p in select.expressions]
        return f"It returns {_and_list(shown)}."

    def _order_and_limit(self, order: list[str], limit: int | None) -> str:
        if order and limit:
            first = order[0]
            top = "highest" if first.endswith("highest first") else "lowest"
            subject = first.rsplit(",", 1)[0].removeprefix("the ")
            rows = "row" if limit == 1 else f"{limit} rows"
            return f"It returns the {rows} with the {top} {subject}."
        if order:
            return f"The results are sorted by {_and_list(order)}."
        if limit:
            return f"It returns at most {limit} rows."
        return ""

    # -- expressions in words -------------------------------------------------------------

    def condition(self, node: exp.Expr) -> str:
        if isinstance(node, exp.Paren):
            return self.condition(node.this)
        if isinstance(node, exp.And):
            return f"{self.condition(node.left)} and {self.condition(node.right)}"
        if isinstance(node, exp.Or):
            return f"either {self.condition(node.left)} or {self.condition(node.right)}"
        if isinstance(node, exp.Not):
            inner = node.this
            if isinstance(inner, exp.Is) and isinstance(inner.expression, exp.Null):
                return f"{self.value(inner.this)} is present"
            if isinstance(inner, exp.In):
                return self._in(inner, negated=True)
            return f"it is not true that {self.condition(inner)}"
        if isinstance(node, exp.Is) and isinstance(node.expression, exp.Null):
            return f"{self.value(node.this)} is missing"
        for kind, words in _COMPARISON_WORDS.items():
            if type(node) is kind:
                return f"{self.value(node.this)} {words} {self.value(node.expression)}"
        if isinstance(node, exp.In):
            return self._in(node, negated=False)
        if isinstance(node, exp.Between):
            return (f"{self.value(node.this)} is between {self.value(node.args['low'])} "
                    f"and {self.value(node.args['high'])}")
        if isinstance(node, (exp.Like, exp.ILike)):
            return self._like(node)
        if isinstance(node, exp.Exists):
            return f"a matching row exists in {self._subquery_phrase(node.this)}"
        return node.sql(dialect="duckdb")

    def _in(self, node: exp.In, negated: bool) -> str:
        verb = "is not one of" if negated else "is one of"
        if node.args.get("query"):
            verb = "is not among" if negated else "is among"
            return f"{self.value(node.this)} {verb} the values from {self._subquery_phrase(node.args['query'])}"
        return f"{self.value(node.this)} {verb} {', '.join(self.value(v) for v in node.expressions)}"

    def _like(self, node: exp.Like | exp.ILike) -> str:
        pattern = node.expression
        case = " (ignoring case)" if isinstance(node, exp.ILike) else ""
        subject = self.value(node.this)
        if isinstance(pattern, exp.Literal) and pattern.is_string:
            text = pattern.this
            core = text.strip("%")
            if "%" not in core and "_" not in core and core:
                if text.startswith("%") and text.endswith("%"):
                    return f"{subject} contains '{core}'{case}"
                if text.endswith("%"):
                    return f"{subject} starts with '{core}'{case}"
                if text.startswith("%"):
                    return f"{subject} ends with '{core}'{case}"
        return f"{subject} matches the pattern {self.value(pattern)}{case}"

    def _subquery_phrase(self, node: exp.Expr) -> str:
        inner = node.unnest() if isinstance(node, exp.Subquery) else node
        tables = sorted({t.name for t in inner.find_all(exp.Table)})
        return f"a subquery on {_and_list(tables)}" if tables else "a subquery"

    def value(self, node: exp.Expr, select: exp.Select | None = None) -> str:
        if isinstance(node, exp.Alias):
            return self.value(node.this, select)
        if isinstance(node, exp.Column):
            return self._qualified(node) if self.multi_table else node.name
        if isinstance(node, exp.Literal):
            return f"'{node.this}'" if node.is_string else node.this
        if isinstance(node, exp.Null):
            return "missing"
        if isinstance(node, exp.Paren):
            return self.value(node.this, select)
        if isinstance(node, exp.Count):
            return self._count(node, select)
        for kind, words in _AGGREGATE_WORDS.items():
            if type(node) is kind:
                argument = node.this
                return f"{words} {self.value(argument, select)}"
        if isinstance(node, exp.Window):
            return self._window(node)
        if isinstance(node, exp.Distinct):
            return _and_list([self.value(e, select) for e in node.expressions])
        return node.sql(dialect="duckdb")

    def _window(self, node: exp.Window) -> str:
        ranking = {exp.RowNumber: "the row number", exp.Rank: "the rank", exp.DenseRank: "the dense rank"}
        text = ranking.get(type(node.this)) or self.value(node.this)
        partition = node.args.get("partition_by")
        if partition:
            text += " within each " + _and_list([self.value(p) for p in partition])
        order = node.args.get("order")
        if order:
            text += " ordered by " + _and_list([self._order_item(o) for o in order.expressions])
        return text

    def _count(self, node: exp.Count, select: exp.Select | None) -> str:
        argument = node.this
        if argument is None or isinstance(argument, exp.Star):
            scope = select or self.select
            sources = [t.name for t in scope.find_all(exp.Table)] if scope is not None else []
            if len(sources) == 1 and sources[0].lower() not in self.cte_names:
                return f"the number of {sources[0]}"
            return "the number of rows"
        if isinstance(argument, exp.Distinct):
            return f"the number of distinct {self.value(argument, select)}"
        return f"the number of rows with {self.value(argument, select)} present"

    def _glossary(self, tree: exp.Expr) -> list[str]:
        """What each column means, from the catalog; a name two tables in the query share is
        described once per table, as table.column, so the two are never mixed up."""
        if not self.descriptions:
            return []
        notes: dict[str, str] = {}
        for column in tree.find_all(exp.Column):
            name = column.name.lower()
            shared = len(self.owners.get(name, [])) > 1
            owner = self._owner(column).lower()
            for table in [owner] if owner else self.owners.get(name, []):
                description = self.descriptions.get(f"{table}.{name}")
                if not description:
                    continue
                label = f"{table}.{column.name}" if shared else column.name
                notes.setdefault(label, f"{label} is {description.rstrip('.')}")
                if not shared:
                    break
        return list(notes.values())


def _tests_for_null(condition: exp.Expr) -> bool:
    """`x IS NULL` holds for the unmatched rows (NOT x IS NULL does not)."""
    for node in condition.find_all(exp.Is):
        if isinstance(node.expression, exp.Null) and not isinstance(node.parent, exp.Not):
            return True
    return False


def _split_and(node: exp.Expr) -> list[exp.Expr]:
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _split_and(node.left) + _split_and(node.right)
    return [node]


def _conjuncts(node: exp.Expr, explainer: _Explainer) -> list[str]:
    return [explainer.condition(part) for part in _split_and(node)]


def _aggregates(projection: exp.Expr) -> list[exp.Expr]:
    """Top-level aggregates of a projection (not those nested inside another aggregate)."""
    return [
        node for node in projection.find_all(exp.AggFunc)
        if node.find_ancestor(exp.AggFunc) is None and node.find_ancestor(exp.Window) is None
    ]


def _as(projection: exp.Expr) -> str:
    if isinstance(projection, exp.Alias):
        return f" (as {projection.alias})"
    return ""


def _source_name(node: exp.Expr) -> str:
    if isinstance(node, exp.Table):
        return node.name or node.sql(dialect="duckdb")
    if isinstance(node, exp.Subquery):
        return f"a subquery ({node.alias})" if node.alias else "a subquery"
    return node.sql(dialect="duckdb")


def _source_phrase(node: exp.Expr, cte_names: set[str]) -> str:
    if isinstance(node, exp.Table) and node.name.lower() in cte_names:
        return f"the result of {node.name}"
    if isinstance(node, exp.Table):
        return f"the {node.name} table" if node.name else node.sql(dialect="duckdb")
    if isinstance(node, exp.Subquery):
        tables = sorted({t.name for t in node.find_all(exp.Table)})
        return f"the result of a subquery on {_and_list(tables)}" if tables else "a subquery"
    if isinstance(node, exp.Values):
        return "a list of fixed values"
    return node.sql(dialect="duckdb")


def _is_cte(table: exp.Table, tree: exp.Expr) -> bool:
    return table.name.lower() in {cte.alias.lower() for cte in tree.find_all(exp.CTE)}


def _and_list(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _int(node: exp.Expr | None) -> int | None:
    try:
        return int(node.name) if node is not None else None
    except ValueError:
        return None
