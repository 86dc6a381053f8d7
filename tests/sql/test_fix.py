"""Fix SQL on the real demo warehouse: a case counts when the fixed query returns the gold rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.sql.diagnose import diagnose
from agent.sql.fix import fix_sql

EVAL = next((p / "shared/eval" for p in Path(__file__).resolve().parents if (p / "shared/eval").is_dir()), None)
DEV_CASES = [
    case
    for name in ("dev_broken_sql.json", "dev_broken_sql2.json")
    if EVAL is not None and (EVAL / name).exists()
    for case in json.loads((EVAL / name).read_text())
]

# Our own cases, one or more per repair class, on other tables and columns than the dev set.
# (id, broken sql, dialect, gold sql, words the change list must mention)
OWN_CASES = [
    ("kw-where", "SELECT tailnum, seats FROM planes WHRE seats > 300", "duckdb",
     "SELECT tailnum, seats FROM planes WHERE seats > 300", "WHERE"),
    ("kw-group", "SELECT carrier, count(*) FROM flights GRUOP BY carrier", "presto",
     "SELECT carrier, count(*) FROM flights GROUP BY carrier", "GROUP"),
    ("kw-order", "SELECT faa, name FROM airports ODER BY alt DESC LIMIT 3", "duckdb",
     "SELECT faa, name FROM airports ORDER BY alt DESC LIMIT 3", "ORDER"),
    ("kw-select", "SELCT name FROM airlines", "presto", "SELECT name FROM airlines", "SELECT"),
    ("kw-from", "SELECT name FRM airlines", "trino", "SELECT name FROM airlines", "FROM"),
    ("kw-limit", ("select dest, count(*) from flights where origin = 'EWR' group by dest "
                  "order by count(*) desc limt 5"), "duckdb",
     "SELECT dest, count(*) FROM flights WHERE origin = 'EWR' GROUP BY dest ORDER BY count(*) DESC LIMIT 5",
     "LIMIT"),
    ("kw-two", "SELECT count(*) FORM weather WHRE precip > 0", "presto",
     "SELECT count(*) FROM weather WHERE precip > 0", "WHERE"),
    ("table-singular", "SELECT name, lat FROM airport WHERE alt > 5000", "presto",
     "SELECT name, lat FROM airports WHERE alt > 5000", "airports"),
    ("table-typo", "SELECT origin, avg(wind_speed) FROM wether GROUP BY origin", "presto",
     "SELECT origin, avg(wind_speed) FROM weather GROUP BY origin", "weather"),
    ("table-aliased", ("SELECT a.name, count(*) FROM flight f JOIN airline a ON f.carrier = a.carrier "
                       "GROUP BY a.name"), "duckdb",
     "SELECT a.name, count(*) FROM flights f JOIN airlines a ON f.carrier = a.carrier GROUP BY a.name",
     "airlines"),
    ("table-catalog", "SELECT count(*) FROM hive.default.planes", "presto", "SELECT count(*) FROM planes",
     "planes"),
    ("column-synonym", "SELECT origin, avg(humidity) FROM weather GROUP BY origin", "presto",
     "SELECT origin, avg(humid) FROM weather GROUP BY origin", "humid"),
    ("column-long-name", "SELECT count(*) FROM flights WHERE departure_delay > 60", "presto",
     "SELECT count(*) FROM flights WHERE dep_delay > 60", "dep_delay"),
    ("column-qualified", ("SELECT p.manufacturer, avg(f.distanse) FROM flights f JOIN planes p "
                          "ON f.tailnum = p.tailnum GROUP BY p.manufacturer"), "duckdb",
     ("SELECT p.manufacturer, avg(f.distance) FROM flights f JOIN planes p ON f.tailnum = p.tailnum "
      "GROUP BY p.manufacturer"), "distance"),
    ("column-typo-everywhere", "SELECT manufactuer, count(*) FROM planes GROUP BY manufactuer", "presto",
     "SELECT manufacturer, count(*) FROM planes GROUP BY manufacturer", "manufacturer"),
    ("quoted-value", 'SELECT count(*) FROM planes WHERE manufacturer = "BOEING"', "presto",
     "SELECT count(*) FROM planes WHERE manufacturer = 'BOEING'", "'BOEING'"),
    ("quoted-values-in-list", 'SELECT count(*) FROM flights WHERE dest IN ("LAX", "SFO")', "presto",
     "SELECT count(*) FROM flights WHERE dest IN ('LAX', 'SFO')", "'LAX'"),
    ("quoted-value-with-dash", ('SELECT tailnum FROM planes WHERE engine = "Turbo-fan" '
                                "ORDER BY tailnum LIMIT 5"), "presto",
     "SELECT tailnum FROM planes WHERE engine = 'Turbo-fan' ORDER BY tailnum LIMIT 5", "'Turbo-fan'"),
    ("group-missing", "SELECT manufacturer, avg(seats) FROM planes", "presto",
     "SELECT manufacturer, avg(seats) FROM planes GROUP BY manufacturer", "GROUP BY"),
    ("group-partial", "SELECT origin, month, max(wind_speed) FROM weather GROUP BY origin", "presto",
     "SELECT origin, month, max(wind_speed) FROM weather GROUP BY origin, month", "month"),
    ("group-with-where", "SELECT name, max(alt) FROM airports WHERE tz = -5", "presto",
     "SELECT name, max(alt) FROM airports WHERE tz = -5 GROUP BY name", "GROUP BY"),
    ("paren-before-from", "SELECT tailnum, max(seats FROM planes GROUP BY tailnum", "presto",
     "SELECT tailnum, max(seats) FROM planes GROUP BY tailnum", ")"),
    ("paren-at-end", "SELECT count(*) FROM airports WHERE (alt > 1000 AND tz = -5", "presto",
     "SELECT count(*) FROM airports WHERE (alt > 1000 AND tz = -5)", ")"),
    ("paren-nested", "SELECT round(avg(distance) FROM flights", "presto",
     "SELECT round(avg(distance)) FROM flights", ")"),
    ("presto-arbitrary", "SELECT arbitrary(name) IS NOT NULL FROM airlines", "presto",
     "SELECT any_value(name) IS NOT NULL FROM airlines", "any_value"),
    ("presto-named-duckdb", "SELECT count_if(seats > 300), every(seats > 1) FROM planes", "duckdb",
     "SELECT count_if(seats > 300), bool_and(seats > 1) FROM planes", "bool_and"),
    ("function-typo", "SELECT name, cout(*) FROM airports GROUP BY name ORDER BY name LIMIT 3", "duckdb",
     "SELECT name, count(*) FROM airports GROUP BY name ORDER BY name LIMIT 3", "count"),
    ("ambiguous", "SELECT year, count(*) FROM flights JOIN planes USING (tailnum) GROUP BY year", "duckdb",
     "SELECT flights.year, count(*) FROM flights JOIN planes USING (tailnum) GROUP BY flights.year",
     "flights.year"),
    ("fenced", "```sql\nSELECT count(*) FORM airlines;\n```", "presto", "SELECT count(*) FROM airlines",
     "FROM"),
]


def _rows(warehouse, sql, ordered=False):
    rows = warehouse.run(sql).rows
    return rows if ordered else sorted(rows, key=repr)


def _fix(warehouse, sql, dialect, error=None):
    return fix_sql(
        sql, error=error, dialect=dialect, schema=warehouse.schema(), dry_run=warehouse.dry_run,
        probe=lambda probe_sql: warehouse.run(probe_sql, row_cap=100).rows,
    )


@pytest.mark.skipif(not DEV_CASES, reason="the shared dev set is not beside the repository")
@pytest.mark.parametrize("case", DEV_CASES, ids=[c["id"] for c in DEV_CASES])
def test_dev_set_case_returns_the_gold_rows(warehouse, case):
    result = _fix(warehouse, case["sql"], case.get("dialect", "duckdb"), case.get("error"))
    assert result.valid, result.reason
    assert result.changes, "a broken query was fixed without saying what changed"
    ordered = bool(case.get("ordered"))
    assert _rows(warehouse, result.fixed_sql, ordered) == _rows(warehouse, case["gold"], ordered)


@pytest.mark.parametrize("case", OWN_CASES, ids=[c[0] for c in OWN_CASES])
def test_repair_classes_on_other_tables(warehouse, case):
    _, sql, dialect, gold, mentioned = case
    result = _fix(warehouse, sql, dialect)
    assert result.valid, result.reason
    assert _rows(warehouse, result.fixed_sql) == _rows(warehouse, gold)
    described = " ".join(f"{c.what} {c.why}" for c in result.changes)
    assert mentioned in described
    assert all(c.why for c in result.changes)


def test_fixed_sql_is_pretty_duckdb(warehouse):
    result = _fix(warehouse, "SELECT approx_distinct(dest) FROM flights WHERE month = 1", "presto")
    assert result.fixed_sql == "SELECT\n  APPROX_COUNT_DISTINCT(dest)\nFROM flights\nWHERE\n  month = 1"
    assert result.original_sql == "SELECT approx_distinct(dest) FROM flights WHERE month = 1"


def test_user_error_text_is_used_when_the_engine_message_names_nothing(warehouse):
    from agent.errors import SqlError

    def opaque_dry_run(sql):
        try:
            warehouse.dry_run(sql)
        except SqlError as exc:
            raise SqlError("The warehouse could not run the query.", detail="internal error 42") from exc

    result = fix_sql(
        "SELECT orign, count(*) FROM flights GROUP BY orign",
        error="line 1:8: Column 'orign' cannot be resolved",
        dialect="presto",
        schema=warehouse.schema(),
        dry_run=opaque_dry_run,
    )
    assert result.valid, result.reason
    assert [c.what for c in result.changes] == ["column orign → origin"]


def test_user_error_never_overrides_a_query_the_warehouse_accepts(warehouse):
    result = _fix(warehouse, "SELECT dep_delay FROM flights LIMIT 1", "presto",
                  error="Column 'dep_delay' cannot be resolved")
    assert result.valid and result.changes == []
    assert "could not reproduce the error" in result.reason


def test_a_query_that_already_runs_is_returned_unchanged(warehouse):
    result = _fix(warehouse, "SELECT count(*) FROM flights", "presto")
    assert result.valid and result.changes == []
    assert "nothing needed changing" in result.reason


def test_unrecognisable_column_gives_up_with_a_reason(warehouse):
    result = _fix(warehouse, "SELECT frobnicate FROM flights", "presto")
    assert not result.valid
    assert "frobnicate" in result.reason
    assert "Traceback" not in result.reason


def test_writes_are_not_fixed(warehouse):
    result = _fix(warehouse, "DELETE FORM flights", "presto")
    assert not result.valid
    assert "read-only" in result.reason


def test_unrepairable_syntax_gives_up_with_the_position(warehouse):
    result = _fix(warehouse, "SELECT FROM WHERE", "presto")
    assert not result.valid
    assert "line 1" in result.reason


def test_rounds_are_bounded(warehouse):
    calls = []

    def always_fails(sql):
        calls.append(sql)
        from agent.errors import SqlError

        raise SqlError("no", detail=f'Referenced column "c{len(calls)}" not found')

    result = fix_sql("SELECT 1", dialect="duckdb", schema=warehouse.schema(), dry_run=always_fails, max_rounds=3)
    assert not result.valid and len(calls) <= 3


@pytest.mark.parametrize(
    ("message", "kind", "name"),
    [
        ('Binder Error: Referenced column "orign" not found in FROM clause!', "unknown_column", "orign"),
        ("line 1:8: Column 'orign' cannot be resolved", "unknown_column", "orign"),
        ("Unknown column 'f.orign' in 'field list'", "unknown_column", "orign"),
        ('ERROR: column "orign" does not exist', "unknown_column", "orign"),
        ("Catalog Error: Table with name flight does not exist!", "unknown_table", "flight"),
        ("line 1:22: Table 'hive.default.flight' does not exist", "unknown_table", "flight"),
        ('ERROR: relation "flight" does not exist', "unknown_table", "flight"),
        ("[TABLE_OR_VIEW_NOT_FOUND] The table or view `flight` cannot be found.", "unknown_table", "flight"),
        ('column "dest" must appear in the GROUP BY clause', "not_grouped", "dest"),
        ("line 1:8: 'dest' must be an aggregate expression or appear in GROUP BY clause", "not_grouped", "dest"),
        ("Function 'approx_distinct' not registered", "unknown_function", "approx_distinct"),
        ('Scalar Function with name cout does not exist!\nDid you mean "count"?', "unknown_function", "cout"),
        ("Column 'year' is ambiguous", "ambiguous_column", "year"),
    ],
)
def test_error_messages_from_several_engines_are_understood(message, kind, name):
    problem = diagnose(message)
    assert problem is not None and (problem.kind, problem.name) == (kind, name)


def test_messages_naming_nothing_fixable_are_not_guessed():
    assert diagnose("Out of Memory Error: could not allocate block") is None
    assert diagnose(None) is None
