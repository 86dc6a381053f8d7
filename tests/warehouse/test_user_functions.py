"""Issue 25 item 1 on real engines: a function someone created in a schema or database, named like a
built-in (`db.lower`), never runs through the guard; a lock is never taken; an engine's error reaches
a person as a sentence, never a driver's argument tuple."""

from __future__ import annotations

import duckdb
import pytest

from agent.errors import SqlError, UnsafeSqlError
from agent.warehouse import open_warehouse
from tests.warehouse.conftest import server_settings
from tests.warehouse import servers

pytest.importorskip("sqlalchemy")

RAN = "a user function ran"


@pytest.fixture(scope="module")
def mariadb_with_function(mysql_database, tmp_path_factory):
    """The test database with `<db>.lower`, a stored function that takes a user lock, and the bot's
    user allowed to execute it (the probe's read-only user could)."""
    pymysql = pytest.importorskip("pymysql")
    name, user = mysql_database
    admin = pymysql.connect(host=servers.MYSQL_HOST, port=servers.MYSQL_PORT, user="root", autocommit=True)
    with admin.cursor() as cur:
        cur.execute(f"CREATE FUNCTION `{name}`.lower(s TEXT) RETURNS TEXT NOT DETERMINISTIC "
                    f"RETURN CONCAT('{RAN}', GET_LOCK('sda_probe', 0))")
        for host in ("%", "localhost"):
            cur.execute(f"GRANT EXECUTE ON `{name}`.* TO '{user}'@'{host}'")
    url = f"mariadb://{user}:bot-secret-pw@127.0.0.1:3306/{name}"
    wh = open_warehouse(server_settings(tmp_path_factory.mktemp("myfn"), url))
    yield name, wh, admin
    wh.close()
    with admin.cursor() as cur:
        cur.execute(f"DROP FUNCTION IF EXISTS `{name}`.lower")
    admin.close()


def test_mariadb_stored_function_named_like_a_built_in_is_refused(mariadb_with_function):
    name, wh, admin = mariadb_with_function
    with admin.cursor() as cur:  # the function is real: called by its full name it runs its body
        cur.execute(f"SELECT `{name}`.lower('x'), RELEASE_LOCK('sda_probe')")
        assert cur.fetchone()[0] == f"{RAN}1"
    for sql in (f"SELECT {name}.lower(status) FROM orders", f"SELECT `{name}`.`lower`(status) FROM orders",
                f"SELECT status FROM orders WHERE {name}.lower(status) = 'x'"):
        with pytest.raises(UnsafeSqlError, match="created"):
            wh.run(sql)
    with admin.cursor() as cur:  # and nothing holds its lock
        cur.execute("SELECT IS_USED_LOCK('sda_probe')")
        assert cur.fetchone()[0] is None
    assert wh.run("SELECT lower(status) FROM orders WHERE status = 'open'").rows == [("open",)]


def test_mariadb_lock_functions_are_refused(mariadb_with_function):
    _, wh, _ = mariadb_with_function
    for sql in ("SELECT GET_LOCK('sda_probe', 0)", "SELECT RELEASE_ALL_LOCKS()", "SELECT IS_USED_LOCK('x')"):
        with pytest.raises(UnsafeSqlError, match="lock"):
            wh.run(sql)


def test_mariadb_engine_errors_are_sentences(mariadb_with_function):
    _, wh, _ = mariadb_with_function
    with pytest.raises(SqlError) as failed:
        wh.run("SELECT no_such_column FROM orders")
    said = failed.value.user_message
    assert "Unknown column" in said and "(1054," not in said and not said.rstrip().endswith(")")
    assert "OperationalError 1054: Unknown column" in said


@pytest.fixture(scope="module")
def postgres_with_function(pg_database, tmp_path_factory):
    psycopg = pytest.importorskip("psycopg")
    name, role = pg_database
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
        con.execute("CREATE SCHEMA sda_fn")
        con.execute(f"CREATE FUNCTION sda_fn.lower(text) RETURNS text LANGUAGE sql AS $$ SELECT '{RAN}' $$")
        con.execute(f"GRANT USAGE ON SCHEMA sda_fn TO {role}")
    url = f"postgresql://{role}:bot-secret-pw@127.0.0.1:5432/{name}"
    wh = open_warehouse(server_settings(tmp_path_factory.mktemp("pgfn"), url))
    yield name, wh
    wh.close()


def test_postgres_function_in_a_schema_named_like_a_built_in_is_refused(postgres_with_function):
    name, wh = postgres_with_function
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}") as con:
        assert con.execute("SELECT sda_fn.lower('X')").fetchone()[0] == RAN
    for sql in ("SELECT sda_fn.lower(status) FROM orders", 'SELECT "sda_fn"."lower"(status) FROM orders',
                "SELECT pg_catalog.lower(status) FROM orders"):
        with pytest.raises(UnsafeSqlError, match="created"):
            wh.run(sql)
    for sql in ("SELECT pg_advisory_lock(42)", "SELECT pg_try_advisory_xact_lock(42)",
                "SELECT set_config('statement_timeout', '0', false)"):
        with pytest.raises(UnsafeSqlError, match="lock"):
            wh.run(sql)


def test_duckdb_macro_named_like_a_built_in_is_refused(tmp_path):
    path = tmp_path / "macro.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE t AS SELECT 'A' AS name")
        con.execute(f"CREATE MACRO lower(x) AS '{RAN}'")
        con.execute(f"CREATE MACRO m(x) AS '{RAN}'")
        assert con.execute("SELECT main.lower(name) FROM t").fetchone()[0] == RAN
    wh = open_warehouse(server_settings(tmp_path, f"duckdb:///{path}"))
    try:
        for sql in ("SELECT main.lower(name) FROM t", "SELECT main.m(name) FROM t", 'SELECT "main"."m"(1)'):
            with pytest.raises(UnsafeSqlError, match="created"):
                wh.run(sql)
    finally:
        wh.close()


def test_duckdb_macro_shadowing_a_built_in_is_refused_even_unqualified(tmp_path):
    """DuckDB runs a macro named `lower` for a bare `lower(...)`: the name is refused on that warehouse."""
    path = tmp_path / "shadow.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE t AS SELECT 'A' AS name")
        con.execute(f"CREATE MACRO lower(x) AS '{RAN}'")
        assert con.execute("SELECT lower(name) FROM t").fetchone()[0] == RAN
    wh = open_warehouse(server_settings(tmp_path, f"duckdb:///{path}"))
    try:
        with pytest.raises(UnsafeSqlError, match="someone created a function named lower"):
            wh.run("SELECT lower(name) FROM t")
        assert wh.run("SELECT upper(name) FROM t").rows == [("A",)]
    finally:
        wh.close()


def test_postgres_function_shadowing_a_built_in_by_argument_type_is_refused(postgres_with_function, tmp_path):
    """public.upper(varchar) beats pg_catalog.upper(text) for a varchar argument on PostgreSQL's search path."""
    name, _ = postgres_with_function
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
        con.execute(f"CREATE FUNCTION public.upper(varchar) RETURNS text LANGUAGE sql AS $$ SELECT '{RAN}' $$")
        assert con.execute("SELECT upper('x'::varchar)").fetchone()[0] == RAN
    wh = open_warehouse(server_settings(tmp_path, f"postgresql://postgres@127.0.0.1:5432/{name}"))
    try:
        with pytest.raises(UnsafeSqlError, match="someone created a function named upper"):
            wh.run("SELECT upper(CAST(status AS varchar)) FROM orders")
        assert wh.run("SELECT lower(status) FROM orders WHERE status = 'open' LIMIT 1").rows == [("open",)]
    finally:
        wh.close()
