"""Translate another engine's SQL to DuckDB with its meaning kept, where sqlglot's own transpile
keeps the function but not what it returns.

sqlglot does most of the work (NVL, TOP, DATE_FORMAT, IFNULL …). What it leaves wrong is
corrected here, each as a named change a person can check:
- day-of-week numbers: BigQuery, MySQL, Spark/Hive and SQL Server count 1 = Sunday … 7 = Saturday,
  DuckDB's dayofweek counts 0 = Sunday … 6; MySQL's WEEKDAY counts 0 = Monday;
- day and month names in Postgres/Oracle `to_char` formats ('Dy', 'Day', 'Mon', 'Month');
- Oracle's ROWNUM filter, which DuckDB writes as LIMIT.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.time import format_time

from agent.sql.repair_tree import become

ONE_BASED_SUNDAY = {"bigquery", "mysql", "spark", "spark2", "databricks", "hive", "tsql"}

# Postgres/Oracle template patterns sqlglot's mapping lacks or maps to another meaning.
# FM only drops padding, which strftime never adds.
_NAME_PATTERNS = {
    "FMDay": "%A", "Day": "%A", "Dy": "%a",
    "FMMonth": "%B", "Month": "%B", "Mon": "%b",
}


# sqlglot's Postgres and Oracle dialects are imported when SQL in them is first read: the fix's module comes
# in with the graph's tools at every start, and the two cost a start ~7 ms that a DuckDB question has no use for.


@cache
def _postgres_with_names() -> type[Dialect]:
    from sqlglot.dialects.postgres import Postgres

    class PostgresWithNames(Postgres):
        TIME_MAPPING = {**Postgres.TIME_MAPPING, **_NAME_PATTERNS}

    return PostgresWithNames


@cache
def _oracle_mapping() -> dict[str, str]:
    from sqlglot.dialects.oracle import Oracle

    return {**Oracle.TIME_MAPPING, **_NAME_PATTERNS}


@dataclass(frozen=True)
class MeaningChange:
    what: str
    why: str


def reader(read: str) -> str | type[Dialect]:
    """The dialect to parse `read` with: sqlglot's own, with formats it misreads added."""
    return _postgres_with_names() if read == "postgres" else read


def keep_meaning(tree: exp.Expr, read: str) -> list[MeaningChange]:
    """Rewrite `tree` (parsed from `read`) in place so DuckDB returns what the source engine did."""
    changes: list[MeaningChange] = []
    if read in ONE_BASED_SUNDAY:
        changes += _shift_day_of_week(tree, read)
    if read == "mysql":
        changes += _mysql_weekday(tree)
    if read == "oracle":
        changes += _oracle_to_char(tree)
        changes += _oracle_rownum(tree)
    if read == "postgres":
        changes += _postgres_day_number(tree)
    if read == "postgres" and _uses_name_patterns(tree):
        changes.append(
            MeaningChange(
                "to_char day/month names → strftime %a/%A/%b/%B",
                "DuckDB writes dates with strftime; 'Dy'/'Day' are the day's short/full name and "
                "'Mon'/'Month' the month's, which strftime calls %a/%A and %b/%B.",
            )
        )
    return changes


# -- day of week --------------------------------------------------------------------------


def _is_day_of_week(node: exp.Expr) -> bool:
    if isinstance(node, exp.DayOfWeek):
        return True
    return isinstance(node, exp.Extract) and node.name.upper() in ("DAYOFWEEK", "WEEKDAY", "DW")


def _shift_day_of_week(tree: exp.Expr, read: str) -> list[MeaningChange]:
    nodes = [n for n in tree.find_all(exp.DayOfWeek, exp.Extract) if _is_day_of_week(n)]
    for node in nodes:
        inner: exp.Expr = exp.DayOfWeek(this=node.this if isinstance(node, exp.DayOfWeek) else node.expression)
        if not _shift_compared_numbers(node, -1):
            inner = exp.Paren(this=exp.Add(this=inner, expression=exp.Literal.number(1)))
        node.replace(inner)
    if not nodes:
        return []
    return [
        MeaningChange(
            "day-of-week numbers shifted by one",
            f"{dialect_title(read)} numbers the days 1 = Sunday … 7 = Saturday; DuckDB's dayofweek counts "
            "0 = Sunday … 6 = Saturday, so the numbers were moved down by one to pick the same days.",
        )
    ]


def _shift_compared_numbers(node: exp.Expr, by: int) -> bool:
    """Move the whole numbers `node` is compared with by `by`; False when it is not compared with
    numbers only (then the caller shifts the value itself)."""
    parent = node.parent
    if isinstance(parent, exp.In) and parent.this is node:
        others = parent.expressions
    elif isinstance(parent, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)):
        others = [parent.expression if parent.this is node else parent.this]
    elif isinstance(parent, exp.Between) and parent.this is node:
        others = [parent.args["low"], parent.args["high"]]
    else:
        return False
    if not all(isinstance(o, exp.Literal) and o.is_int for o in others):
        return False
    for other in others:
        other.replace(exp.Literal.number(int(other.name) + by))
    return True


def _mysql_weekday(tree: exp.Expr) -> list[MeaningChange]:
    nodes = [n for n in tree.find_all(exp.Anonymous) if n.name.upper() == "WEEKDAY" and len(n.expressions) == 1]
    for node in nodes:
        iso = exp.Anonymous(this="isodow", expressions=[node.expressions[0]])
        node.replace(exp.Paren(this=exp.Sub(this=iso, expression=exp.Literal.number(1))))
    if not nodes:
        return []
    return [
        MeaningChange(
            "WEEKDAY(d) → isodow(d) - 1",
            "MySQL's WEEKDAY counts 0 = Monday … 6 = Sunday; DuckDB's isodow counts 1 = Monday … 7.",
        )
    ]


def _postgres_day_number(tree: exp.Expr) -> list[MeaningChange]:
    """to_char(d, 'D') is the day of the week, 1 = Sunday … 7 = Saturday (sqlglot reads it as ISO
    %u, 1 = Monday). Only a format of 'D' alone is rewritten; it is the usual way to ask for it."""
    nodes = [
        n for n in tree.find_all(exp.TimeToStr)
        if isinstance(n.args.get("format"), exp.Literal) and n.args["format"].name == "%u"
    ]
    for node in nodes:
        number = exp.Paren(this=exp.Add(this=exp.DayOfWeek(this=node.this), expression=exp.Literal.number(1)))
        node.replace(exp.cast(number, "TEXT"))
    if not nodes:
        return []
    return [
        MeaningChange(
            "to_char(d, 'D') → dayofweek(d) + 1",
            "in PostgreSQL 'D' is the day of the week counted 1 = Sunday … 7 = Saturday; DuckDB's "
            "dayofweek counts from 0 = Sunday.",
        )
    ]


# -- Oracle -------------------------------------------------------------------------------


def _oracle_to_char(tree: exp.Expr) -> list[MeaningChange]:
    changed = []
    for node in list(tree.find_all(exp.ToChar)):
        fmt = node.args.get("format")
        if not (isinstance(fmt, exp.Literal) and fmt.is_string):
            continue
        converted = format_time(fmt.name, _oracle_mapping())
        node.replace(exp.TimeToStr(this=node.this, format=exp.Literal.string(converted)))
        changed.append(f"'{fmt.name}' → '{converted}'")
    if not changed:
        return []
    return [
        MeaningChange(
            f"TO_CHAR format {', '.join(changed)}",
            "Oracle's TO_CHAR date format is written with strftime codes in DuckDB.",
        )
    ]


def _oracle_rownum(tree: exp.Expr) -> list[MeaningChange]:
    """`WHERE ROWNUM <= n` keeps the first n rows: DuckDB's LIMIT n."""
    changes = []
    for select in list(tree.find_all(exp.Select)):
        where = select.args.get("where")
        if where is None:
            continue
        for condition in _conjuncts(where.this):
            limit = _rownum_limit(condition)
            if limit is None:
                continue
            _drop_conjunct(select, condition)
            target = _unwrapped(select)
            target.limit(limit, copy=False)
            changes.append(
                MeaningChange(
                    f"ROWNUM filter → LIMIT {limit}",
                    "Oracle numbers the rows it returns in ROWNUM; keeping the first "
                    f"{limit} is written LIMIT {limit} in DuckDB.",
                )
            )
    return changes


def _rownum_limit(condition: exp.Expr) -> int | None:
    if not isinstance(condition, (exp.LTE, exp.LT)):
        return None
    column, bound = condition.this, condition.expression
    if not (isinstance(column, exp.Column) and column.name.upper() == "ROWNUM" and not column.table):
        return None
    if not (isinstance(bound, exp.Literal) and bound.is_int):
        return None
    return int(bound.name) - (1 if isinstance(condition, exp.LT) else 0)


def _unwrapped(select: exp.Select) -> exp.Select:
    """`SELECT * FROM (inner)` with nothing else is `inner`: put the LIMIT there, drop the wrapper."""
    source = select.args.get("from_") or select.args.get("from")
    inner = source.this if source is not None else None
    plain = (
        isinstance(inner, exp.Subquery)
        and isinstance(inner.this, exp.Select)
        and len(select.expressions) == 1
        and isinstance(select.expressions[0], exp.Star)
        and not any(select.args.get(k) for k in ("where", "group", "having", "order", "joins", "limit"))
    )
    if not plain or inner is None:
        return select
    become(select, inner.this)
    return select


def _conjuncts(condition: exp.Expr) -> list[exp.Expr]:
    if isinstance(condition, exp.And):
        return _conjuncts(condition.this) + _conjuncts(condition.expression)
    if isinstance(condition, exp.Paren):
        return _conjuncts(condition.this)
    return [condition]


def _drop_conjunct(select: exp.Select, condition: exp.Expr) -> None:
    remaining = [c for c in _conjuncts(select.args["where"].this) if c is not condition]
    select.set("where", exp.Where(this=exp.and_(*remaining)) if remaining else None)


def _uses_name_patterns(tree: exp.Expr) -> bool:
    for node in tree.find_all(exp.TimeToStr):
        fmt = node.args.get("format")
        if isinstance(fmt, exp.Literal) and any(code in fmt.name for code in ("%a", "%A", "%b", "%B")):
            return True
    return False


_TITLES = {
    "bigquery": "BigQuery", "mysql": "MySQL", "tsql": "SQL Server", "postgres": "PostgreSQL",
    "duckdb": "DuckDB", "clickhouse": "ClickHouse", "sqlite": "SQLite",
}


def dialect_title(read: str) -> str:
    return _TITLES.get(read, read.title())
