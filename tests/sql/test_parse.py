"""Parsing pasted SQL: fences, dialect names, errors with positions, transpile and pretty."""

from __future__ import annotations

import pytest

from agent.errors import SqlError, SqlSyntaxError
from agent.sql.parse import (
    clean_sql_text,
    parse_one_statement,
    pretty,
    sqlglot_dialect,
    transpile,
)


@pytest.mark.parametrize(
    "pasted",
    [
        "```sql\nSELECT origin FROM flights;\n```",
        "```\nSELECT origin FROM flights\n```",
        "`SELECT origin FROM flights`",
        "  SELECT origin FROM flights ;  ",
        "SELECT origin FROM flights;;",
    ],
)
def test_pasted_sql_is_unwrapped(pasted):
    assert parse_one_statement(pasted).sql() == "SELECT origin FROM flights"


def test_curly_quotes_are_undone_and_entities_left_to_the_surface():
    assert clean_sql_text("SELECT 1 WHERE b = ‘JFK’") == "SELECT 1 WHERE b = 'JFK'"
    # Slack's escaping is the bot's to undo; a literal '&gt;' inside a string must survive here.
    assert clean_sql_text("SELECT '&gt;'") == "SELECT '&gt;'"


def test_hive_backtick_identifiers_are_not_mistaken_for_a_wrapper():
    tree = parse_one_statement("SELECT `dest` FROM `flights`", dialect="hive")
    assert tree.sql(dialect="duckdb") == 'SELECT "dest" FROM "flights"'


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Presto SQL", "presto"), ("presto", "presto"), ("PRESTO", "presto"), ("Trino", "trino"),
        ("duckdb", "duckdb"), ("DuckDB", "duckdb"), ("spark", "spark"), ("Spark SQL", "spark"),
        ("hive", "hive"), ("MySQL", "mysql"), ("postgres", "postgres"), ("PostgreSQL", "postgres"),
        (None, "presto"),
    ],
)
def test_dialect_names(name, expected):
    assert sqlglot_dialect(name) == expected


def test_unknown_dialect_is_a_clear_error():
    with pytest.raises(SqlError, match="I do not know the SQL dialect 'cobol'"):
        sqlglot_dialect("cobol")


def test_syntax_error_points_at_the_problem_and_names_the_misspelt_keyword():
    with pytest.raises(SqlSyntaxError) as caught:
        parse_one_statement("SELECT count(*)\nFORM flights")
    error = caught.value
    assert (error.line, error.column) == (2, 6)
    assert "line 2, column 6" in error.user_message
    assert "'FORM' may be a misspelling of FROM" in error.user_message


def test_missing_parenthesis_is_described():
    with pytest.raises(SqlSyntaxError) as caught:
        parse_one_statement("SELECT carrier, avg(dep_delay FROM flights GROUP BY carrier")
    assert "closing parenthesis" in caught.value.user_message
    assert caught.value.column == 31


def test_unclosed_quote_is_located():
    with pytest.raises(SqlSyntaxError) as caught:
        parse_one_statement("SELECT *\nFROM flights WHERE origin = 'JFK")
    assert (caught.value.line, caught.value.column) == (2, 29)
    assert "never closed" in caught.value.user_message


def test_incomplete_statement_reads_as_words_not_parser_internals():
    with pytest.raises(SqlSyntaxError) as caught:
        parse_one_statement("SELECT * FROM")
    assert "Token" not in caught.value.user_message


def test_several_statements_are_refused_with_a_reason():
    with pytest.raises(SqlSyntaxError, match="2 statements"):
        parse_one_statement("SELECT 1; SELECT 2")


def test_empty_input_is_explained():
    with pytest.raises(SqlSyntaxError, match="no SQL"):
        parse_one_statement("```sql\n```")


@pytest.mark.parametrize(
    ("presto", "duckdb"),
    [
        ("SELECT approx_distinct(dest) FROM flights", "SELECT APPROX_COUNT_DISTINCT(dest) FROM flights"),
        ("SELECT arbitrary(dest) FROM flights", "SELECT ANY_VALUE(dest) FROM flights"),
        ("SELECT approx_percentile(arr_delay, 0.5) FROM flights", "SELECT APPROX_QUANTILE(arr_delay, 0.5) FROM flights"),
        ("SELECT cardinality(ARRAY[1, 2])", "SELECT ARRAY_LENGTH([1, 2])"),
    ],
)
def test_transpile_presto_to_duckdb(presto, duckdb):
    assert transpile(presto, read="presto", write="duckdb") == duckdb


def test_transpiled_sql_runs_on_the_warehouse(warehouse):
    sql = transpile(
        "SELECT date_trunc('month', time_hour) AS m, approx_distinct(dest) AS d "
        "FROM flights WHERE regexp_like(dest, '^L') GROUP BY 1 ORDER BY 1 LIMIT 3",
        read="Presto SQL",
    )
    result = warehouse.run(sql)
    assert result.row_count == 3 and result.columns == ["m", "d"]


def test_pretty_puts_clauses_on_their_own_lines():
    text = pretty("select origin, count(*) from flights where month = 1 group by origin")
    assert text.splitlines() == [
        "SELECT", "  origin,", "  COUNT(*)", "FROM flights", "WHERE", "  month = 1", "GROUP BY", "  origin",
    ]
