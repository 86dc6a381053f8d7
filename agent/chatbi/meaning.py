"""What each result column means, read from the SQL and the team's own descriptions.

A share of a total is only honest for an additive measure (a count, a sum), and a unit is
only right when the catalog or the semantic model says so. Both are read here once: the
aggregate from the query that made the column, the label and unit from the semantic
model's metric or dimension of that name, or from the catalog's column the aggregate reads.
"""

from __future__ import annotations

import calendar

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp

from agent.catalog import Catalog, CatalogError
from agent.sql.checked import CheckedQuery, SqlInput, first_order_column

if TYPE_CHECKING:
    from agent.semantic.model.runtime import SemanticModel

ADDITIVE_AGGREGATES = ("sum", "count")
_PERCENT_UNITS = {"percent", "percentage", "pct", "%"}
# Named as a share or ratio: the values are fractions of one (0.59 reads as 59.0%).
_FRACTION_NAME = re.compile(r"(^|_)(share|ratio|fraction|proportion)(_|$)")
_PERCENT_NAME = re.compile(r"(^|_)(pct|percent|percentage)(_|$)")
# A plain column whose sum means nothing (an average or a rate computed upstream).
_NOT_ADDITIVE_NAME = re.compile(
    r"(^|_)(avg|average|mean|median|min|minimum|max|maximum|pct|percent|percentage|rate|ratio|"
    r"share|per|std|stddev|var|variance|distinct)(_|$)"
)


@dataclass(frozen=True)
class ColumnMeaning:
    label: str | None = None  # readable name from the model or catalog
    unit: str | None = None  # "minutes", "%"; None for counted things
    aggregate: str | None = None  # sum, count, count_distinct, avg, median, min, max, ratio
    fraction: bool = False  # values are fractions of one, shown as percentages
    names: dict[str, str] = field(default_factory=dict)  # code -> readable name
    overlapping: bool = False  # grouped by tags ('by genre'): a row counts in each of its tags, so groups overlap

    @property
    def percent(self) -> bool:
        return self.fraction or self.unit == "%"


def is_additive(column: str, meaning: ColumnMeaning | None = None) -> bool:
    """A total of this column means something: counts and sums, never averages, extremes or rates."""
    if meaning is not None and meaning.overlapping:
        return False  # a total over overlapping groups counts some rows twice: no shares of it
    if meaning is not None and meaning.aggregate is not None:
        return meaning.aggregate in ADDITIVE_AGGREGATES and not meaning.percent
    if meaning is not None and meaning.percent:
        return False
    return not _NOT_ADDITIVE_NAME.search(column.lower())


def is_rate(column: str, meaning: ColumnMeaning | None = None) -> bool:
    """Values are percentages or fractions: their differences are percentage points."""
    if meaning is not None and meaning.percent:
        return True
    if column.lower().endswith(_TIMES_SUFFIX):
        return False
    return bool(_FRACTION_NAME.search(column.lower()) or _PERCENT_NAME.search(column.lower()))


def is_fraction(column: str, meaning: ColumnMeaning | None = None) -> bool:
    if meaning is not None and meaning.fraction:
        return True
    if meaning is not None and meaning.unit == "%":
        return False
    if column.lower().endswith(_TIMES_SUFFIX):
        return False
    return bool(_FRACTION_NAME.search(column.lower()))


# A contrast's ratio (one side's value over the other's, 'how many times higher'): a multiple, not a share.
_TIMES_SUFFIX = "__ratio"
# what a contrast computes between its two sides (the semantic compiler's names), shown after each side's value
_CONTRAST_SUFFIXES = ("__difference", "__pct_change", _TIMES_SUFFIX)


def is_contrast(column: str) -> bool:
    """The column sets two sides against each other: what a row's answer is about, before each side's value."""
    return column.lower().endswith(_CONTRAST_SUFFIXES)


# what the semantic compiler names the columns it derives from a metric; any other suffix names a contrast's side
_DERIVED_SUFFIXES = {"difference", "pct_change", "ratio", "pct", "share", "previous", "change"}


def _one_side(semantic: SemanticModel | None, column: str) -> str | None:
    """'average arrival delay (apr)' for `avg_arr_delay__apr`: a metric's value on one side of a contrast, the side
    said, so two such columns never read alike."""
    metric_name, _, side = column.rpartition("__")
    metric = getattr(semantic, "metric_by_name", {}).get(metric_name) if semantic is not None else None
    if metric is None or not side or side in _DERIVED_SUFFIXES or side.startswith("in_"):  # '__in_hours': a unit
        return None
    return f"{metric.label[:1].lower()}{metric.label[1:]} ({side.replace('_', ' ')})"


def _named_a_share(semantic: SemanticModel | None, column: str) -> bool:
    """A model metric its own label calls a share ('Share of flights cancelled'): a fraction of one,
    shown as a percentage, never as a bare 0.02."""
    metric = getattr(semantic, "metric_by_name", {}).get(column) if semantic is not None else None
    return metric is not None and bool(_FRACTION_NAME.search(metric.label.lower().replace(" ", "_")))


def describe_columns(
    sql: SqlInput | None,
    columns: list[str],
    *,
    semantic: SemanticModel | None = None,
    catalog: Catalog | None = None,
    labels: dict[str, dict[str, str]] | None = None,
    dialect: str = "duckdb",
) -> dict[str, ColumnMeaning]:
    """A meaning for every result column; what cannot be known stays None, never guessed."""
    tree = _tree(sql, dialect) if sql else None
    expressions = _output_expressions(tree) if tree is not None else {}
    tables = _tables(tree) if tree is not None else {}
    overlapping = tree is not None and _grouped_by_tags(tree)
    meanings: dict[str, ColumnMeaning] = {}
    for column in columns:
        expression = expressions.get(column.lower())
        aggregate, source = _aggregate_of(expression) if expression is not None else (None, None)
        fraction = (expression is not None and _is_indicator_average(expression)) or _named_a_share(semantic, column)
        # A share of rows meeting a condition is not in the unit, nor named after, the column it tests.
        by_source = source if aggregate in _KEEPS_SOURCE_MEANING and not fraction else None
        label, unit, names = _from_model(semantic, labels or {}, column, by_source)
        if label is not None and aggregate in _AGGREGATE_WORDS and by_source is not None and _names_source(semantic, column, source):
            label = f"{_AGGREGATE_WORDS[aggregate]} {label}"
        if by_source is not None:
            # The catalog documents the column itself ("°F"); the model's unit is the fallback.
            unit = _catalog_unit(catalog, tables, by_source) or unit
        if unit is not None and unit.lower() in _PERCENT_UNITS:
            unit = "%"
        if aggregate in ("count", "count_distinct"):
            unit = None  # counted things carry no unit of the column they count
        if aggregate == "ratio" and unit is not None and unit != "%":
            unit = None  # a ratio of two measures is not in either one's unit
        if unit is None and not fraction and _PERCENT_NAME.search(column.lower()):
            unit = "%"
        label = _one_side(semantic, column) or label
        meanings[column] = ColumnMeaning(
            label=label, unit=None if fraction else unit, aggregate=aggregate, fraction=fraction, names=names,
            overlapping=overlapping and aggregate is not None,
        )
    return meanings


# -- reading the SQL ----------------------------------------------------------------------------


def _tree(sql: SqlInput, dialect: str) -> exp.Expr | None:
    """The query's tree: the guard's reading when it has one (never mutated here), else a parse."""
    if isinstance(sql, CheckedQuery):
        return sql.tree
    try:
        return sqlglot.parse_one(sql, read=dialect)
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
        return None


def _grouped_by_tags(tree: exp.Expr) -> bool:
    """The semantic compiler joins a link table's tags under an alias ending in '__tag' (sqlgen.tag)."""
    return any(a.name.endswith("__tag") for a in tree.find_all(exp.TableAlias))


def _output_expressions(tree: exp.Expr) -> dict[str, exp.Expr]:
    """Output name -> the expression behind it, following a name through subqueries and CTEs."""
    named: dict[str, exp.Expr] = {}
    # Inner selects first, so an outer `SELECT x FROM (… avg(y) AS x …)` can point through to them.
    selects = list(tree.find_all(exp.Select))
    for select in reversed(selects):
        for projection in select.expressions:
            name = projection.alias_or_name.lower()
            inner = projection.this if isinstance(projection, exp.Alias) else projection
            if isinstance(inner, exp.Column) and inner.name.lower() in named and not _has_aggregate(inner):
                named[name] = named[inner.name.lower()]
            elif name not in named or _has_aggregate(inner):
                named[name] = inner
    outer = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if outer is not None:
        for projection in outer.expressions:
            name = projection.alias_or_name.lower()
            inner = projection.this if isinstance(projection, exp.Alias) else projection
            if not (isinstance(inner, exp.Column) and inner.name.lower() in named):
                named[name] = inner
    return named


def _tables(tree: exp.Expr) -> dict[str, str]:
    """Every name a table goes by in the query (its alias and its own name) -> its name."""
    found: dict[str, str] = {}
    for table in tree.find_all(exp.Table):
        found[table.name.lower()] = table.name
        if table.alias:
            found[table.alias.lower()] = table.name
    return found


# Aggregates whose value is still in the unit of the column they read.
_KEEPS_SOURCE_MEANING = (None, "sum", "avg", "median", "min", "max")
_AGGREGATE_WORDS = {"sum": "total", "avg": "average", "median": "median", "min": "minimum", "max": "maximum"}


def _names_source(semantic: SemanticModel | None, column: str, source: exp.Column | None) -> bool:
    """The label came from the column the aggregate reads, not from a metric named like the output."""
    return semantic is not None and column not in getattr(semantic, "metric_by_name", {})


_AGGREGATES: tuple[tuple[type, str], ...] = (
    (exp.Sum, "sum"),
    (exp.Avg, "avg"),
    (exp.Median, "median"),
    (exp.Quantile, "median"),
    (exp.Min, "min"),
    (exp.Max, "max"),
    (exp.Count, "count"),
)


def _has_aggregate(expression: exp.Expr) -> bool:
    return expression.find(exp.AggFunc) is not None


def _aggregate_of(expression: exp.Expr) -> tuple[str | None, exp.Column | None]:
    """The aggregate that makes the value and the column it reads (None for a plain column)."""
    node = expression
    while isinstance(node, (exp.Paren, exp.Cast, exp.Round, exp.Filter, exp.Coalesce)):
        node = node.this
    if isinstance(node, exp.Div) and _has_aggregate(node):
        return "ratio", node.this.find(exp.Column)
    if isinstance(node, (exp.Mul, exp.Add, exp.Sub)) and _has_aggregate(node):
        parts = [p for p in (node.this, node.expression) if _has_aggregate(p)]
        if len(parts) == 1 and isinstance(node, exp.Mul):
            kind, source = _aggregate_of(parts[0])
            return ("ratio" if kind not in ADDITIVE_AGGREGATES else kind), source
        return ("sum" if all(_aggregate_of(p)[0] in ADDITIVE_AGGREGATES for p in parts) else "ratio"), node.find(exp.Column)
    if isinstance(node, exp.Sum) and _is_indicator(node.this):
        return "count", node.find(exp.Column)  # a sum of 1s for the rows meeting a condition counts them
    for node_type, name in _AGGREGATES:
        if isinstance(node, node_type):
            if name == "count" and node.find(exp.Distinct) is not None:
                # Distinct counts per group overlap: their sum counts some things twice.
                return "count_distinct", node.find(exp.Column)
            return name, _read_as_is(node.this)
    if isinstance(node, exp.AggFunc):
        return "ratio", node.find(exp.Column)  # another aggregate (stddev, …): not additive
    if isinstance(node, exp.Column):
        return None, node
    return None, None


def _read_as_is(argument: exp.Expr | None) -> exp.Column | None:
    """The column an aggregate reads unchanged ('avg(arr_delay)'), None for arithmetic on it ('avg(air_time /
    60.0)' is not in the column's unit)."""
    node = argument
    while isinstance(node, (exp.Paren, exp.Cast, exp.Coalesce, exp.Distinct)):
        node = node.this if not isinstance(node, exp.Distinct) else (node.expressions[0] if node.expressions else None)
    if isinstance(node, exp.Column):
        return node
    return None if node is not None and node.find(exp.Column) is not None and isinstance(node, exp.Binary) \
        else (argument.find(exp.Column) if argument is not None else None)


def _is_indicator_average(expression: exp.Expr) -> bool:
    """avg(CASE WHEN … THEN 1 ELSE 0 END): the share of rows meeting a condition, as a fraction."""
    node = expression
    while isinstance(node, (exp.Paren, exp.Cast, exp.Round, exp.Filter)):
        node = node.this
    return isinstance(node, exp.Avg) and _is_indicator(node.this)


def _is_indicator(inner: exp.Expr) -> bool:
    """CASE WHEN … THEN 1 ELSE 0 END, or a condition: 1 for the rows meeting it, else 0."""
    while isinstance(inner, (exp.Paren, exp.Cast)):
        inner = inner.this
    if isinstance(inner, exp.Case):
        outcomes = [i.args.get("true") for i in inner.args.get("ifs", [])] + [inner.args.get("default")]
        values = {o.this for o in outcomes if isinstance(o, exp.Literal) and o.is_number}
        return bool(values) and {float(v) for v in values} <= {0.0, 1.0}
    # a comparison or a combination of them; arithmetic ('air_time / 60.0') is a Condition to sqlglot too
    return isinstance(inner, (exp.Boolean, exp.Predicate, exp.Connector, exp.Not))


# -- the team's descriptions ------------------------------------------------------------------------


def _from_model(
    semantic: SemanticModel | None, labels: dict[str, dict[str, str]], column: str, source: exp.Column | None
) -> tuple[str | None, str | None, dict[str, str]]:
    if column.startswith(_CALENDAR_COLUMN):
        return _calendar_part(column.removeprefix(_CALENDAR_COLUMN))
    if semantic is None:
        return None, None, {}
    metric = semantic.metric_by_name.get(column) if hasattr(semantic, "metric_by_name") else None
    if metric is not None:
        unit = None
        if metric.measure and metric.agg not in ("count",):
            dimension = semantic.dimension_by_name.get(metric.measure)
            unit = dimension.unit if dimension is not None else None
        return metric.label[:1].lower() + metric.label[1:], unit, {}
    dimension = semantic.dimension_by_name.get(column)
    if dimension is None and source is not None:
        dimension = semantic.dimension_by_name.get(source.name)
    if dimension is not None:
        return dimension.label, dimension.unit, dict(labels.get(dimension.name, {}))
    return None, None, {}


_CALENDAR_COLUMN = "metric_time__"
_PART_WORDS = {"dow": "day of the week", "doy": "day of the year"}


def _calendar_part(grain: str) -> tuple[str, None, dict[str, str]]:
    """The semantic layer's calendar columns ('metric_time__extract_month') in words: the part's name, and the
    names of months and weekdays for their numbers (ISO weekdays: 1 is Monday)."""
    part = grain.removeprefix("extract_")
    names: dict[str, str] = {}
    if grain == "extract_month":
        names = {str(i): calendar.month_name[i] for i in range(1, 13)}
    elif grain == "extract_dow":
        names = {str(i): calendar.day_name[i - 1] for i in range(1, 8)}
    return _PART_WORDS.get(part, part), None, names


def _catalog_unit(catalog: Catalog | None, tables: dict[str, str], source: exp.Column) -> str | None:
    if catalog is None:
        return None
    qualifier = source.table.lower() if source.table else ""
    candidates = [tables[qualifier]] if qualifier in tables else list(dict.fromkeys(tables.values()))
    for table in candidates:
        try:
            doc = catalog.table(table)
        except CatalogError:
            continue  # a table the catalog does not describe has no unit to offer
        column = doc.columns.get(source.name)
        if column is not None and column.unit:
            return column.unit
    return None


# -- a result cut by its LIMIT ------------------------------------------------------------------------


def limit_of(sql: SqlInput | None, dialect: str = "duckdb") -> int | None:
    """The outer query's LIMIT, when it is a plain number."""
    if isinstance(sql, CheckedQuery):
        return sql.limit
    tree = _tree(sql, dialect) if sql else None
    limit = tree.args.get("limit") if tree is not None else None
    value = limit.expression if limit is not None else None
    if isinstance(value, exp.Literal) and value.is_int:
        return int(value.this)
    return None


def ranked_by(sql: SqlInput | None, dialect: str = "duckdb") -> str | None:
    """The result column the outer query orders by first (what a ranking ranks), when it is one."""
    if isinstance(sql, CheckedQuery):
        return sql.ranked_by
    tree = _tree(sql, dialect) if sql else None
    return first_order_column(tree) if tree is not None else None


def whole_total_sql(sql: SqlInput, column: str, dialect: str = "duckdb") -> str | None:
    """The measure's total and the row count of the same query without its LIMIT."""
    if isinstance(sql, CheckedQuery):
        dialect = sql.dialect
    tree = _tree(sql, dialect)
    if tree is None or tree.args.get("limit") is None:
        return None
    whole = tree.copy()
    whole.set("limit", None)
    whole.set("order", None)
    quoted = exp.to_identifier(column, quoted=True).sql(dialect=dialect)
    return f"SELECT sum({quoted}), count(*) FROM ({whole.sql(dialect=dialect)}) AS whole_result"


def column_formats(columns: list[str], meanings: dict[str, ColumnMeaning]) -> list[str | None]:
    """How a table shows each column's numbers: "fraction" (0.403 as 40.3%), "percent" (40.3 as 40.3%)."""
    return [_column_format(meanings.get(column)) for column in columns]


def _column_format(meaning: ColumnMeaning | None) -> str | None:
    if meaning is None:
        return None
    if meaning.fraction:
        return "fraction"
    return "percent" if meaning.unit == "%" else None
