"""The guard is an allow-list: every DuckDB function not reviewed as safe is refused, system
catalogs are refused, generators are bounded, and PostgreSQL / MySQL corpora hold."""

from __future__ import annotations

import duckdb
import pytest

from agent.budget.inputs import check_sql
from agent.errors import InputTooLargeError, SqlError, UnsafeSqlError
from agent.sql.allowlist import allowed_functions, duckdb_refused, table_functions
from agent.sql.guard import GuardPolicy, ensure_read_only


def _duckdb_functions() -> dict[str, set[str]]:
    con = duckdb.connect()
    try:
        rows = con.execute("SELECT DISTINCT function_name, function_type FROM duckdb_functions()").fetchall()
    finally:
        con.close()
    kinds: dict[str, set[str]] = {}
    for name, kind in rows:
        kinds.setdefault(name.lower(), set()).add(kind)
    return kinds


DUCKDB_FUNCTIONS = _duckdb_functions()
ALLOWED = allowed_functions("duckdb") | table_functions("duckdb")


def test_every_duckdb_function_has_been_reviewed():
    """An engine upgrade that adds a function fails here until someone reviews it."""
    unreviewed = sorted(set(DUCKDB_FUNCTIONS) - ALLOWED - duckdb_refused())
    assert not unreviewed, f"review these DuckDB functions (allow-list or duckdb_refused.txt): {unreviewed}"


NOT_ALLOWED = sorted(n for n in DUCKDB_FUNCTIONS if n not in ALLOWED and n.replace("_", "").isalnum())


def _refused(sql: str) -> bool:
    try:
        ensure_read_only(sql, dialect="duckdb")
    except (UnsafeSqlError, SqlError):
        return True
    return False


def test_every_function_off_the_allow_list_is_refused_in_every_position():
    assert len(NOT_ALLOWED) > 500
    leaked = []
    for name in NOT_ALLOWED:
        for sql in (
            f"SELECT {name}(1)", f'SELECT "{name}"(1)', f"SELECT {name}('a', 'b')",
            f"SELECT * FROM {name}(1)", f"SELECT * FROM {name}('a', 'b')", f"SELECT * FROM main.{name}(1)",
        ):
            if not _refused(sql):
                leaked.append(sql)
    assert not leaked


def test_every_table_function_but_the_bounded_generators_is_refused():
    table_kinds = sorted(n for n, kinds in DUCKDB_FUNCTIONS.items() if kinds & {"table", "table_macro", "pragma"})
    assert len(table_kinds) > 50
    for name in table_kinds:
        if name in table_functions("duckdb"):
            ensure_read_only(f"SELECT * FROM {name}(1, 10)")
        else:
            with pytest.raises((UnsafeSqlError, SqlError)):
                ensure_read_only(f"SELECT * FROM {name}()")


@pytest.mark.parametrize("sql", [
    "SELECT * FROM register_external_resource_type('x', create_function := 'query')",
    "SELECT register_external_resource_type('x', create_function := 'query')",
    "SELECT destroy_external_resource('query', 'SELECT 42')",
    "SELECT * FROM pg_settings",
    "SELECT * FROM pragma_database_list",
    "SELECT * FROM duckdb_databases()",
    "SELECT * FROM duckdb_tables",
    "SELECT * FROM information_schema.tables",
    "SELECT * FROM sqlite_master",
    "SELECT * FROM system.main.duckdb_settings()",
    "SELECT range(1e9)",
    "SELECT * FROM range(1e9)",
    "SELECT * FROM range(0, 1e12, 2)",
    "SELECT * FROM generate_series(1, (SELECT max(distance) FROM flights))",
    "SELECT repeat('x', 1e9)",
    "SELECT repeat('x', dep_delay) FROM flights",
    "SELECT lpad('x', 100000000, 'y')",
    "SELECT list_resize([1], 1e10)",
    "SELECT * FROM generate_series(TIMESTAMP '2000-01-01', TIMESTAMP '2020-01-01', INTERVAL 1 SECOND)",
])
def test_probes_from_the_issue_are_refused(sql):
    with pytest.raises(UnsafeSqlError) as caught:
        ensure_read_only(sql, dialect="duckdb")
    assert caught.value.user_message.startswith("I only run")


def test_refusal_names_the_unknown_function():
    with pytest.raises(UnsafeSqlError, match=r"destroy_external_resource\(\) is not on my list"):
        ensure_read_only("SELECT destroy_external_resource('query', 'SELECT 42')")


@pytest.mark.parametrize("sql", [
    "SELECT * FROM range(10) t(i)",
    "SELECT * FROM generate_series(DATE '2024-01-01', DATE '2024-12-31', INTERVAL 1 DAY) d(day)",
    "SELECT repeat('-', 20)",
    "SELECT strftime(time_hour, '%Y-%m') m, count(*) FROM flights GROUP BY 1",
    "SELECT median(arr_delay), quantile_cont(arr_delay, 0.9), arg_max(carrier, distance) FROM flights",
    "SELECT dayname(time_hour), date_diff('day', DATE '2013-01-01', time_hour::DATE) FROM flights",
])
def test_ordinary_duckdb_reads_pass(sql):
    ensure_read_only(sql, dialect="duckdb")


def test_known_tables_policy_refuses_other_tables_and_allows_ctes():
    policy = GuardPolicy(tables=frozenset({"orders", "public.orders"}))
    ensure_read_only("WITH x AS (SELECT * FROM orders) SELECT * FROM x", dialect="postgres", policy=policy)
    ensure_read_only("SELECT * FROM public.orders", dialect="postgres", policy=policy)
    with pytest.raises(UnsafeSqlError, match="no table secrets"):
        ensure_read_only("SELECT * FROM secrets", dialect="postgres", policy=policy)
    allow = GuardPolicy(allow_system=True)
    ensure_read_only("SELECT * FROM information_schema.tables", dialect="postgres", policy=allow)


POSTGRES_REFUSED = [
    "SELECT pg_sleep(100)",
    "SELECT pg_catalog.pg_sleep(1)",
    "SELECT pg_sleep_for('5 minutes')",
    "SELECT pg_read_file('/etc/passwd')",
    "SELECT pg_read_binary_file('/etc/passwd')",
    "SELECT * FROM pg_ls_dir('.')",
    "SELECT pg_stat_file('postgresql.conf')",
    "SELECT lo_import('/etc/passwd')",
    "SELECT lo_export(1, '/tmp/x')",
    "SELECT * FROM dblink('host=x', 'SELECT 1') AS t(a int)",
    "SELECT current_setting('data_directory')",
    "SELECT set_config('default_transaction_read_only', 'off', false)",
    "SELECT version()",
    "SELECT current_user",
    "SELECT session_user",
    "SELECT inet_server_addr()",
    "SELECT pg_backend_pid()",
    "SELECT pg_cancel_backend(1)",
    "SELECT pg_terminate_backend(1)",
    "SELECT pg_reload_conf()",
    "SELECT pg_rotate_logfile()",
    "SELECT txid_current()",
    "SELECT nextval('orders_id_seq')",
    "SELECT setval('orders_id_seq', 1)",
    "SELECT pg_advisory_lock(1)",
    "SELECT query_to_xml('DELETE FROM orders', true, true, '')",
    "SELECT * FROM pg_settings",
    "SELECT * FROM pg_shadow",
    "SELECT * FROM pg_authid",
    "SELECT * FROM pg_catalog.pg_user",
    "SELECT * FROM pg_stat_activity",
    "SELECT * FROM information_schema.tables",
    "SELECT * FROM information_schema.columns WHERE table_name = 'orders'",
    "SELECT * FROM pg_class",
    "SELECT * FROM pg_tables",
    "SELECT * FROM orders FOR UPDATE",
    "SELECT * FROM orders FOR SHARE",
    "SELECT * FROM orders FOR NO KEY UPDATE",
    "SELECT * INTO backup FROM orders",
    "CREATE TABLE t AS SELECT * FROM orders",
    "CREATE FUNCTION f() RETURNS int AS 'SELECT 1' LANGUAGE sql",
    "DO $$ BEGIN PERFORM pg_sleep(1); END $$",
    "COPY orders TO '/tmp/orders.csv'",
    "COPY orders FROM PROGRAM 'id'",
    "INSERT INTO orders VALUES (1)",
    "UPDATE orders SET amount = 0",
    "DELETE FROM orders",
    "TRUNCATE orders",
    "DROP TABLE orders",
    "ALTER TABLE orders ADD COLUMN x int",
    "GRANT ALL ON orders TO public",
    "SET default_transaction_read_only = off",
    "SET ROLE postgres",
    "RESET ALL",
    "BEGIN READ WRITE",
    "LISTEN channel",
    "NOTIFY channel, 'x'",
    "DISCARD ALL",
    "VACUUM FULL orders",
    "REFRESH MATERIALIZED VIEW mv",
    "DECLARE c CURSOR FOR SELECT * FROM orders",
    "LOCK TABLE orders",
    "WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d",
    "WITH u AS (UPDATE orders SET amount = 0 RETURNING *) SELECT count(*) FROM u",
    "SELECT * FROM generate_series(1, 100000000000)",
    "SELECT repeat('x', 1000000000)",
    "SELECT 1; DROP TABLE orders",
    "PREPARE p AS DELETE FROM orders",
    "EXPLAIN ANALYZE DELETE FROM orders",
]
POSTGRES_ALLOWED = [
    "SELECT customer_id, sum(amount) FROM orders GROUP BY customer_id ORDER BY 2 DESC LIMIT 10",
    "SELECT date_trunc('month', created_at) AS m, count(*) FROM orders GROUP BY 1",
    "SELECT to_char(created_at, 'YYYY-MM'), avg(amount)::numeric(10, 2) FROM orders GROUP BY 1",
    "SELECT extract(year FROM created_at), percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) FROM orders GROUP BY 1",
    "SELECT string_agg(status, ', ') FROM orders",
    "SELECT * FROM generate_series(1, 12) AS m",
    "SELECT coalesce(status, 'none'), count(*) FILTER (WHERE amount > 10) FROM orders GROUP BY 1",
    "SELECT o.id, row_number() OVER (PARTITION BY customer_id ORDER BY created_at) FROM orders o",
    "SELECT now() - interval '7 days'",
    "SELECT \"Weird Name\", \"ÄÖ\" FROM \"Mixed Case\"",
]

MYSQL_REFUSED = [
    "SELECT SLEEP(100)",
    "SELECT BENCHMARK(100000000, MD5('x'))",
    "SELECT LOAD_FILE('/etc/passwd')",
    "SELECT * FROM orders INTO OUTFILE '/tmp/x'",
    "SELECT * FROM orders INTO DUMPFILE '/tmp/x'",
    "SELECT @@version",
    "SELECT @@global.read_only",
    "SELECT @x := 1",
    "SELECT USER()",
    "SELECT CURRENT_USER()",
    "SELECT DATABASE()",
    "SELECT VERSION()",
    "SELECT CONNECTION_ID()",
    "SELECT GET_LOCK('x', 10)",
    "SELECT RELEASE_LOCK('x')",
    "SELECT * FROM mysql.user",
    "SELECT * FROM information_schema.processlist",
    "SELECT * FROM performance_schema.threads",
    "SELECT * FROM sys.session",
    "SELECT * FROM orders FOR UPDATE",
    "SELECT * FROM orders LOCK IN SHARE MODE",
    "INSERT INTO orders VALUES (1)",
    "REPLACE INTO orders VALUES (1)",
    "UPDATE orders SET amount = 0",
    "DELETE FROM orders",
    "LOAD DATA INFILE '/tmp/x' INTO TABLE orders",
    "CREATE TABLE t SELECT * FROM orders",
    "DROP TABLE orders",
    "TRUNCATE TABLE orders",
    "ALTER TABLE orders ENGINE = MEMORY",
    "SET SESSION transaction_read_only = 0",
    "SET GLOBAL max_execution_time = 0",
    "DO SLEEP(5)",
    "HANDLER orders OPEN",
    "LOCK TABLES orders WRITE",
    "FLUSH TABLES",
    "KILL 1",
    "SHOW DATABASES",
    "CALL proc()",
    "START TRANSACTION READ WRITE",
    "SELECT 1; DELETE FROM orders",
    "SELECT SYS_EXEC('id')",
]
MYSQL_ALLOWED = [
    "SELECT customer_id, SUM(amount) FROM orders GROUP BY customer_id ORDER BY 2 DESC LIMIT 10",
    "SELECT DATE_FORMAT(created_at, '%Y-%m') AS m, COUNT(*) FROM orders GROUP BY m",
    "SELECT IFNULL(status, 'none'), GROUP_CONCAT(id) FROM orders GROUP BY 1",
    "SELECT `Weird Name` FROM `Mixed Case`",
    "SELECT YEAR(created_at), AVG(amount) FROM orders GROUP BY 1",
]


@pytest.mark.parametrize("sql", POSTGRES_REFUSED)
def test_postgres_corpus_refused(sql):
    with pytest.raises(UnsafeSqlError):
        ensure_read_only(sql, dialect="postgres")


@pytest.mark.parametrize("sql", POSTGRES_ALLOWED)
def test_postgres_reads_allowed(sql):
    ensure_read_only(sql, dialect="postgres")


@pytest.mark.parametrize("sql", MYSQL_REFUSED)
def test_mysql_corpus_refused(sql):
    with pytest.raises(UnsafeSqlError):
        ensure_read_only(sql, dialect="mysql")


@pytest.mark.parametrize("sql", MYSQL_ALLOWED)
def test_mysql_reads_allowed(sql):
    ensure_read_only(sql, dialect="mysql")


def test_corpora_are_big_enough():
    assert len(POSTGRES_REFUSED) >= 60 and len(MYSQL_REFUSED) >= 40


def test_length_and_nesting_are_refused_before_parsing():
    with pytest.raises(InputTooLargeError, match="10,000 levels deep; I read queries nested up to 100 levels"):
        ensure_read_only("SELECT " + "(" * 10_000 + "1" + ")" * 10_000)
    with pytest.raises(InputTooLargeError, match="characters long; I read queries of up to 100,000"):
        ensure_read_only("SELECT 1 " + "-- x\n" * 50_000)
    deep_case = "SELECT " + "CASE WHEN 1 = 1 THEN " * 150 + "1" + " END" * 150
    with pytest.raises(InputTooLargeError, match="150 levels deep"):
        ensure_read_only(deep_case)
    check_sql("SELECT '(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((('")
    check_sql("SELECT 1 -- ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((")
