"""Fix SQL's wider repairs (issue 10 item 6), each on other tables and columns than the dev sets:
a case counts when the fix returns the gold rows and names what it changed."""

from __future__ import annotations

import pytest

from agent.sql.fix import fix_sql

# (id, broken sql, dialect, gold sql, words the change list must mention)
CASES = [
    ("having", "SELECT manufacturer, count(*) FROM planes WHERE count(*) > 100 GROUP BY manufacturer",
     "duckdb", "SELECT manufacturer, count(*) FROM planes GROUP BY manufacturer HAVING count(*) > 100",
     "HAVING"),
    ("having-kept-row-filter",
     "SELECT origin, max(wind_speed) FROM weather WHERE month = 3 AND max(wind_speed) > 30 GROUP BY origin",
     "presto",
     "SELECT origin, max(wind_speed) FROM weather WHERE month = 3 GROUP BY origin HAVING max(wind_speed) > 30",
     "HAVING"),
    ("having-beside-a-subquery",
     ("SELECT origin, count(*) FROM weather WHERE temp > (SELECT avg(temp) FROM weather) AND count(*) > 10 "
      "GROUP BY origin"), "duckdb",
     ("SELECT origin, count(*) FROM weather WHERE temp > (SELECT avg(temp) FROM weather) GROUP BY origin "
      "HAVING count(*) > 10"), "HAVING"),
    ("window-in-where",
     ("SELECT manufacturer, model, count(*) AS n FROM planes WHERE rank() OVER (PARTITION BY manufacturer "
      "ORDER BY count(*) DESC) = 1 GROUP BY manufacturer, model"), "duckdb",
     ("SELECT manufacturer, model, n FROM (SELECT manufacturer, model, count(*) AS n, rank() OVER "
      "(PARTITION BY manufacturer ORDER BY count(*) DESC) AS r FROM planes GROUP BY manufacturer, model) "
      "WHERE r = 1"), "outer query"),
    ("missing-comma", "SELECT carrier, tailnum count(*) AS n FROM flights GROUP BY carrier, tailnum", "duckdb",
     "SELECT carrier, tailnum, count(*) AS n FROM flights GROUP BY carrier, tailnum", "comma"),
    ("unclosed-quote", "SELECT count(*) FROM planes WHERE manufacturer = 'BOEING AND seats > 100", "duckdb",
     "SELECT count(*) FROM planes WHERE manufacturer = 'BOEING' AND seats > 100", "opened at line 1, column 50"),
    ("wrong-alias",
     ("SELECT p.manufacturer, count(*) FROM flights f JOIN planes p ON f.tailnum = p.tailnum "
      "GROUP BY f.manufacturer"), "duckdb",
     "SELECT p.manufacturer, count(*) FROM flights f JOIN planes p ON f.tailnum = p.tailnum GROUP BY p.manufacturer",
     "p.manufacturer"),
    ("wrong-join-column",
     "SELECT a.name, count(*) FROM flights f JOIN airlines a ON f.carrier = a.code GROUP BY a.name", "duckdb",
     "SELECT a.name, count(*) FROM flights f JOIN airlines a ON f.carrier = a.carrier GROUP BY a.name",
     "a.carrier"),
    ("ambiguous-by-data",
     "SELECT count(*) FROM flights f JOIN planes p ON f.tailnum = p.tailnum WHERE year < 1990", "duckdb",
     "SELECT count(*) FROM flights f JOIN planes p ON f.tailnum = p.tailnum WHERE p.year < 1990", "p.year"),
    ("month-name", "SELECT count(*) FROM weather WHERE origin = 'JFK' AND month = 'Feb'", "duckdb",
     "SELECT count(*) FROM weather WHERE origin = 'JFK' AND month = 2", "2"),
    ("function-name-as-column",
     "SELECT manufacturer, count(*) AS planes FROM planes GROUP BY manufacturer ORDER BY count DESC LIMIT 3",
     "duckdb", "SELECT manufacturer, count(*) AS planes FROM planes GROUP BY manufacturer ORDER BY 2 DESC LIMIT 3",
     "count → planes"),
    ("oracle-rownum", "SELECT * FROM (SELECT name, alt FROM airports ORDER BY alt DESC) WHERE ROWNUM <= 5",
     "oracle", "SELECT name, alt FROM airports ORDER BY alt DESC LIMIT 5", "LIMIT 5"),
    ("oracle-rownum-lt", "SELECT * FROM (SELECT name, alt FROM airports ORDER BY alt DESC) WHERE ROWNUM < 4",
     "oracle", "SELECT name, alt FROM airports ORDER BY alt DESC LIMIT 3", "LIMIT 3"),
    ("oracle-nvl", "SELECT origin, avg(NVL(wind_gust, 0)) FROM weather GROUP BY origin", "oracle",
     "SELECT origin, avg(coalesce(wind_gust, 0)) FROM weather GROUP BY origin", "coalesce"),
    ("oracle-to-char-dy",
     "SELECT TO_CHAR(time_hour, 'Dy') AS d, count(*) FROM weather GROUP BY TO_CHAR(time_hour, 'Dy')", "oracle",
     "SELECT strftime(time_hour, '%a') AS d, count(*) FROM weather GROUP BY 1", "%a"),
    ("tsql-top", "SELECT TOP 3 name, alt FROM airports ORDER BY alt DESC", "tsql",
     "SELECT name, alt FROM airports ORDER BY alt DESC LIMIT 3", "DuckDB"),
    ("mysql-dayofweek", "SELECT count(*) FROM weather WHERE DAYOFWEEK(time_hour) = 1", "mysql",
     "SELECT count(*) FROM weather WHERE dayofweek(time_hour) = 0", "Sunday"),
    ("mysql-weekday", "SELECT count(*) FROM weather WHERE WEEKDAY(time_hour) = 0", "mysql",
     "SELECT count(*) FROM weather WHERE isodow(time_hour) = 1", "Monday"),
    ("bigquery-dayofweek-selected",
     "SELECT EXTRACT(DAYOFWEEK FROM time_hour) AS dow, count(*) FROM weather GROUP BY 1", "bigquery",
     "SELECT dayofweek(time_hour) + 1 AS dow, count(*) FROM weather GROUP BY 1", "Sunday"),
    ("spark-dayofweek-between", "SELECT count(*) FROM weather WHERE dayofweek(time_hour) BETWEEN 2 AND 6",
     "spark", "SELECT count(*) FROM weather WHERE dayofweek(time_hour) BETWEEN 1 AND 5", "Sunday"),
    ("postgres-month-name", "SELECT to_char(time_hour, 'Mon') AS m, avg(temp) FROM weather GROUP BY 1",
     "postgres", "SELECT strftime(time_hour, '%b') AS m, avg(temp) FROM weather GROUP BY 1", "%b"),
    ("postgres-day-name", "SELECT to_char(time_hour, 'Day') AS d, count(*) FROM weather GROUP BY 1",
     "postgres", "SELECT dayname(time_hour) AS d, count(*) FROM weather GROUP BY 1", "%A"),
    ("postgres-day-number", "SELECT count(*) FROM weather WHERE to_char(time_hour, 'D') = '1'", "postgres",
     "SELECT count(*) FROM weather WHERE dayofweek(time_hour) = 0", "Sunday"),
    ("mysql-date-format", "SELECT DATE_FORMAT(time_hour, '%Y') AS y, count(*) FROM weather GROUP BY y",
     "mysql", "SELECT strftime(time_hour, '%Y') AS y, count(*) FROM weather GROUP BY y", "strftime"),
]


def _rows(warehouse, sql):
    return sorted(warehouse.run(sql).rows, key=repr)


def _fix(warehouse, sql, dialect):
    return fix_sql(
        sql, dialect=dialect, schema=warehouse.schema(), dry_run=warehouse.dry_run,
        probe=lambda probe_sql: warehouse.run(probe_sql, row_cap=100).rows,
    )


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_wider_repairs_return_the_gold_rows(warehouse, case):
    _, sql, dialect, gold, mentioned = case
    result = _fix(warehouse, sql, dialect)
    assert result.valid, result.reason
    assert _rows(warehouse, result.fixed_sql) == _rows(warehouse, gold)
    described = " ".join(f"{c.what} {c.why}" for c in result.changes)
    assert mentioned in described


def test_no_fix_carries_no_sql_and_says_where(warehouse):
    result = _fix(warehouse, "SELECT frobnicate, count(*) FROM flights GROUP BY 1", "duckdb")
    assert not result.valid
    assert result.fixed_sql is None
    assert "frobnicate" in result.reason and "line 1" in result.reason


def test_unfixable_syntax_carries_no_sql(warehouse):
    result = _fix(warehouse, "SELECT FROM WHERE", "duckdb")
    assert not result.valid and result.fixed_sql is None
    assert "line 1" in result.reason


def test_a_join_column_is_not_guessed_without_looking_at_the_data(warehouse):
    result = fix_sql(
        "SELECT a.name, count(*) FROM flights f JOIN airlines a ON f.carrier = a.code GROUP BY a.name",
        dialect="duckdb", schema=warehouse.schema(), dry_run=warehouse.dry_run,
    )
    assert not result.valid and result.fixed_sql is None
    assert "code" in result.reason


def test_a_text_value_no_number_stands_for_is_refused_with_the_reason(warehouse):
    result = _fix(warehouse, "SELECT count(*) FROM weather WHERE month = 'spring'", "duckdb")
    assert not result.valid and result.fixed_sql is None
    assert "'spring'" in result.reason and "numbers" in result.reason


def test_an_ambiguous_filter_both_tables_can_meet_keeps_the_first_and_says_so(warehouse):
    result = _fix(
        warehouse, "SELECT count(*) FROM flights f JOIN planes p ON f.tailnum = p.tailnum WHERE year > 2000",
        "duckdb",
    )
    assert result.valid
    assert "first table in FROM" in result.changes[0].why


def test_an_ambiguous_column_is_resolved_from_the_schema_when_the_engine_lists_no_options(warehouse):
    from agent.errors import SqlError

    def terse_dry_run(sql):
        try:
            warehouse.dry_run(sql)
        except SqlError as exc:
            if "Ambiguous" in (exc.detail or ""):
                raise SqlError("The query failed.", detail="Column 'year' is ambiguous") from exc
            raise

    result = fix_sql(
        "SELECT count(*) FROM flights f JOIN planes p ON f.tailnum = p.tailnum WHERE year < 1990",
        dialect="duckdb", schema=warehouse.schema(), dry_run=terse_dry_run,
        probe=lambda probe_sql: warehouse.run(probe_sql, row_cap=100).rows,
    )
    assert result.valid, result.reason
    assert [c.what for c in result.changes] == ["year → p.year"]


@pytest.mark.parametrize(
    ("message", "kind", "name"),
    [
        ("Binder Error: WHERE clause cannot contain aggregates!", "aggregate_in_where", "WHERE"),
        ("Binder Error: WHERE clause cannot contain window functions!", "aggregate_in_where", "WHERE"),
        ("ERROR: aggregate functions are not allowed in WHERE", "aggregate_in_where", "WHERE"),
        ("ERROR 1111 (HY000): Invalid use of group function", "aggregate_in_where", "function"),
        ("Conversion Error: Could not convert string 'July' to INT64", "bad_value", "July"),
        ('ERROR: invalid input syntax for type integer: "July"', "bad_value", "July"),
    ],
)
def test_engine_messages_for_the_wider_repairs_are_understood(message, kind, name):
    from agent.sql.diagnose import diagnose

    problem = diagnose(message)
    assert problem is not None and (problem.kind, problem.name) == (kind, name)


def test_a_pasted_postgres_error_is_used_when_our_engine_runs_the_query(warehouse):
    # Our dry run plans `month = 'July'` without complaint; the person's error names the value.
    result = fix_sql(
        "SELECT count(*) FROM weather WHERE month = 'July'",
        error='ERROR: invalid input syntax for type integer: "July"',
        dialect="postgres", schema=warehouse.schema(), dry_run=warehouse.dry_run,
    )
    assert result.valid and [c.what for c in result.changes] == ["'July' → 7"]
