"""The read-only guard refuses every statement that could write, reach outside, or change the
session, however it is disguised, and lets ordinary read queries through."""

from __future__ import annotations

import pytest

from agent.errors import SqlSyntaxError, UnsafeSqlError
from agent.sql.guard import ensure_read_only

WRITES = [
    "INSERT INTO flights SELECT * FROM flights",
    "insert into airlines values ('XX', 'Nowhere Air')",
    "UPDATE flights SET dep_delay = 0",
    "update planes set seats = 1 where tailnum = 'N10156'",
    "DELETE FROM flights",
    "delete from weather where origin = 'JFK'",
    "MERGE INTO airlines t USING airlines s ON t.carrier = s.carrier WHEN MATCHED THEN DELETE",
    "INSERT OR REPLACE INTO airlines VALUES ('AA', 'x')",
    "UPSERT INTO airlines VALUES ('AA', 'x')",
    "REPLACE INTO airlines VALUES ('AA', 'x')",
    "COPY flights TO 'out.csv'",
    "COPY flights FROM 'in.csv'",
    "COPY (SELECT * FROM flights) TO '/tmp/x.parquet' (FORMAT PARQUET)",
    "EXPORT DATABASE '/tmp/dump'",
    "IMPORT DATABASE '/tmp/dump'",
    "SELECT * INTO flights_copy FROM flights",
    "WITH d AS (DELETE FROM flights RETURNING *) SELECT * FROM d",
    "WITH x AS (SELECT 1) INSERT INTO airlines SELECT 'a', 'b' FROM x",
]
SCHEMA_CHANGES = [
    "CREATE TABLE t AS SELECT * FROM flights",
    "create view v as select 1",
    "CREATE OR REPLACE TABLE airlines AS SELECT 1",
    "CREATE TEMP TABLE t (a INT)",
    "CREATE MACRO m(a) AS a + 1",
    "CREATE SEQUENCE s",
    "CREATE SCHEMA s",
    "CREATE INDEX i ON flights (origin)",
    "CREATE SECRET (TYPE S3, KEY_ID 'x', SECRET 'y')",
    "ALTER TABLE flights ADD COLUMN x INT",
    "alter table flights rename to f2",
    "DROP TABLE flights",
    "drop view if exists v",
    "DROP SCHEMA main CASCADE",
    "TRUNCATE flights",
    "TRUNCATE TABLE weather",
    "COMMENT ON TABLE flights IS 'x'",
    "GRANT SELECT ON flights TO bob",
]
OUTSIDE = [
    "ATTACH 'other.db' AS other",
    "attach database ':memory:' as m",
    "DETACH other",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_csv_auto('data.csv')",
    "SELECT * FROM READ_PARQUET('s3://bucket/key.parquet')",
    "SELECT * FROM parquet_scan('x.parquet')",
    "SELECT * FROM read_json('x.json')",
    "SELECT * FROM read_json_auto('x.json')",
    "SELECT * FROM read_ndjson_objects('x.json')",
    "SELECT * FROM read_text('/etc/hosts')",
    "SELECT * FROM read_blob('/etc/hosts')",
    "SELECT content FROM read_text('x')",
    "SELECT read_text('x')",
    "SELECT * FROM glob('/home/*')",
    "SELECT * FROM sniff_csv('x.csv')",
    "SELECT * FROM iceberg_scan('s3://x')",
    "SELECT * FROM delta_scan('s3://x')",
    "SELECT * FROM sqlite_scan('x.db', 't')",
    "SELECT * FROM postgres_scan('host=x', 'public', 't')",
    "SELECT * FROM mysql_scan('x', 't')",
    "SELECT * FROM parquet_metadata('x.parquet')",
    "SELECT * FROM 'data.csv'",
    "SELECT * FROM '/etc/passwd'",
    "SELECT * FROM 'https://example.com/x.parquet'",
    'SELECT * FROM "flights.csv"',
    "SELECT * FROM 's3://bucket/*.parquet'",
    "SELECT * FROM flights WHERE dest IN (SELECT dest FROM read_csv('d.csv'))",
    "SELECT * FROM flights f JOIN read_parquet('x') p ON f.dest = p.dest",
    "WITH a AS (SELECT * FROM read_csv('x')) SELECT * FROM a",
    "WITH a AS (WITH b AS (SELECT * FROM glob('*')) SELECT * FROM b) SELECT * FROM a",
    "WITH a AS (SELECT 1) SELECT * FROM a UNION ALL SELECT * FROM read_json_auto('x')",
    "SELECT (SELECT count(*) FROM read_csv('x')) AS n",
    "SELECT * FROM (SELECT * FROM (SELECT * FROM parquet_scan('x')))",
    "SELECT * FROM flights WHERE EXISTS (SELECT 1 FROM 'secret.csv')",
    "SELECT * FROM query('DROP TABLE flights')",
    "SELECT * FROM query_table('flights')",
    "SELECT getenv('HOME')",
    "SELECT current_setting('memory_limit')",
    "SELECT * FROM duckdb_secrets()",
    "SELECT * FROM duckdb_settings()",
    "SELECT * FROM which_secret('s3://x', 's3')",
    "SELECT * FROM pragma_table_info('flights')",
    "SELECT * FROM pragma_database_size()",
    "SELECT * FROM st_read('x.shp')",
    "SELECT * FROM read_xlsx('x.xlsx')",
    "SELECT * FROM postgres_query('db', 'SELECT 1')",
    "SELECT json_execute_serialized_sql('x')",
    "SELECT setseed(0.5)",
    "SELECT nextval('s')",
]
SESSION = [
    "INSTALL httpfs",
    "FORCE INSTALL httpfs",
    "LOAD httpfs",
    "PRAGMA enable_profiling",
    "pragma database_list",
    "SET memory_limit = '100GB'",
    "SET enable_external_access = true",
    "set threads to 64",
    "RESET memory_limit",
    "CALL pragma_version()",
    "CALL dbgen(sf = 1)",
    "USE other",
    "CHECKPOINT",
    "FORCE CHECKPOINT",
    "VACUUM",
    "VACUUM flights",
    "ANALYZE",
    "BEGIN",
    "BEGIN TRANSACTION",
    "START TRANSACTION",
    "COMMIT",
    "ROLLBACK",
    "ABORT",
    "PREPARE p AS SELECT 1",
    "EXECUTE p",
    "DEALLOCATE p",
    "DESCRIBE flights",
    "SHOW TABLES",
    "SUMMARIZE flights",
    "EXPLAIN SELECT 1",
]
TRICKS = [
    "SELECT 1; DROP TABLE flights",
    "SELECT 1;DROP TABLE flights;",
    "SELECT * FROM flights; DELETE FROM flights",
    "SELECT ';'; DELETE FROM flights",
    "SELECT 'a;b' AS x; UPDATE flights SET dep_delay = 1",
    "SELECT 1; SELECT 2",
    "/* harmless */ DROP TABLE flights",
    "-- just a comment\nDELETE FROM flights",
    "/* SELECT */ INSERT INTO airlines VALUES ('a', 'b')",
    "SELECT 1 -- \n; DROP TABLE flights",
    "DrOp TaBlE flights",
    "dElEtE fRoM flights",
    "select * from ReAd_CsV('x')",
    "SELECT * FROM \"read_csv\"('x.csv')",
    "SELECT * FROM main.read_csv('x.csv')",
    "  \n\t DROP TABLE flights",
    "(DELETE FROM flights)",
    "```sql\nDROP TABLE flights;\n```",
    "`DELETE FROM flights`",
    "WITH q AS (SELECT * FROM flights) DELETE FROM flights",
]
UNSAFE = WRITES + SCHEMA_CHANGES + OUTSIDE + SESSION + TRICKS

SAFE = [
    "SELECT 1",
    "SELECT * FROM flights",
    "select count(*) from flights where origin = 'JFK'",
    "SELECT origin, dest, count(*) AS n FROM flights GROUP BY origin, dest ORDER BY n DESC LIMIT 10",
    "SELECT f.carrier, a.name FROM flights f JOIN airlines a ON f.carrier = a.carrier",
    "SELECT * FROM flights LEFT JOIN planes USING (tailnum)",
    "SELECT * FROM flights f FULL OUTER JOIN weather w ON f.origin = w.origin AND f.time_hour = w.time_hour",
    "SELECT * FROM airlines CROSS JOIN airports LIMIT 5",
    "WITH d AS (SELECT dest, count(*) n FROM flights GROUP BY dest) SELECT * FROM d WHERE n > 100",
    "WITH a AS (SELECT 1 x), b AS (SELECT x + 1 y FROM a) SELECT * FROM b",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
    "SELECT tailnum, rank() OVER (PARTITION BY carrier ORDER BY distance DESC) FROM flights",
    "SELECT dest, avg(arr_delay) OVER (ORDER BY month ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM flights",
    "SELECT name FROM airlines WHERE carrier IN (SELECT carrier FROM flights WHERE distance > 2000)",
    "SELECT * FROM airports a WHERE EXISTS (SELECT 1 FROM flights f WHERE f.dest = a.faa)",
    "SELECT (SELECT max(distance) FROM flights) AS longest",
    "SELECT * FROM (SELECT dest, count(*) n FROM flights GROUP BY dest) t WHERE n > 10",
    "SELECT origin FROM flights UNION SELECT faa FROM airports",
    "SELECT origin FROM flights UNION ALL SELECT origin FROM weather",
    "SELECT dest FROM flights INTERSECT SELECT faa FROM airports",
    "SELECT dest FROM flights EXCEPT SELECT faa FROM airports",
    "(SELECT 1) UNION (SELECT 2)",
    "VALUES (1, 'a'), (2, 'b')",
    "SELECT * FROM (VALUES (1), (2)) t(x)",
    "SELECT 'DROP TABLE flights; DELETE FROM flights' AS s",
    "SELECT 'read_csv(''x'')' AS looks_dangerous",
    "SELECT 1 -- ; DROP TABLE flights",
    "SELECT 1 /* ; DELETE FROM flights */",
    "SELECT \"my col\" FROM \"my table\"",
    "SELECT * FROM flights;",
    "```sql\nSELECT * FROM flights LIMIT 1;\n```",
    "`SELECT 1`",
    "FROM flights SELECT origin LIMIT 3",
    "SELECT date_trunc('month', time_hour) m, count(*) FROM flights GROUP BY 1",
    "SELECT CASE WHEN dep_delay > 15 THEN 'late' ELSE 'on time' END AS status, count(*) FROM flights GROUP BY 1",
    "SELECT coalesce(arr_delay, 0), cast(dep_time AS VARCHAR) FROM flights",
    "SELECT * FROM flights WHERE dest LIKE 'L%' AND month BETWEEN 1 AND 3",
    "SELECT * FROM range(10) t(i)",
    "SELECT unnest([1, 2, 3])",
    "SELECT carrier, count(*) FILTER (WHERE dep_delay > 0) FROM flights GROUP BY carrier",
    "SELECT * FROM flights QUALIFY row_number() OVER (PARTITION BY dest ORDER BY dep_delay DESC) = 1",
    "SELECT * FROM main.flights",
    "SELECT update_time FROM (SELECT 1 AS update_time) t",
]


@pytest.mark.parametrize("sql", UNSAFE)
def test_unsafe_statements_are_refused(sql):
    with pytest.raises(UnsafeSqlError) as caught:
        ensure_read_only(sql, dialect="duckdb")
    assert caught.value.user_message.startswith("I only run read-only queries")


def test_the_corpus_covers_every_class():
    assert len(UNSAFE) >= 100
    assert len(SAFE) >= 40


@pytest.mark.parametrize("sql", SAFE)
def test_read_queries_are_allowed(sql):
    ensure_read_only(sql, dialect="duckdb")


def test_refusal_names_what_the_statement_would_do():
    with pytest.raises(UnsafeSqlError, match=r"would write data \(INSERT\)"):
        ensure_read_only("INSERT INTO airlines VALUES ('a', 'b')")
    with pytest.raises(UnsafeSqlError, match=r"read_csv\(\)"):
        ensure_read_only("SELECT * FROM read_csv('x')")
    with pytest.raises(UnsafeSqlError, match="one at a time; this has 2 statements"):
        ensure_read_only("SELECT 1; SELECT 2")


def test_malformed_sql_is_a_syntax_error_not_a_refusal():
    with pytest.raises(SqlSyntaxError) as caught:
        ensure_read_only("SELECT count(* FROM flights")
    assert caught.value.line == 1 and caught.value.column


def test_presto_dialect_is_guarded_too():
    ensure_read_only("SELECT approx_distinct(dest) FROM flights", dialect="presto")
    with pytest.raises(UnsafeSqlError):
        ensure_read_only("CREATE TABLE t AS SELECT 1", dialect="Presto SQL")


def test_returns_the_parsed_statement():
    tree = ensure_read_only("SELECT origin FROM flights")
    assert tree.sql(dialect="duckdb") == "SELECT origin FROM flights"
