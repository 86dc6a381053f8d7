"""A real PostgreSQL: introspection, guarded reads, a read-only session under the guard,
the engine's own timeout and cancel, byte caps, and every failure as a sentence."""

from __future__ import annotations

import logging

import pytest

from agent.errors import QueryTimeoutError, ResultTooLargeError, SqlError, UnsafeSqlError
from agent.warehouse import Limits, open_warehouse
from tests.warehouse.conftest import server_settings

pytest.importorskip("psycopg")
pytest.importorskip("sqlalchemy")

from agent.warehouse.sql_engine import PermissionDeniedError, WarehouseUnavailableError  # noqa: E402


@pytest.fixture(scope="module")
def admin_wh(pg_database, tmp_path_factory):
    name, _ = pg_database
    wh = open_warehouse(server_settings(tmp_path_factory.mktemp("pg"), f"postgresql://postgres@127.0.0.1:5432/{name}"))
    yield wh
    wh.close()


@pytest.fixture(scope="module")
def bot_wh(pg_database, tmp_path_factory):
    """The bot's own role: SELECT on some tables only, as the README tells operators to set up."""
    name, role = pg_database
    url = f"postgresql://{role}:bot-secret-pw@127.0.0.1:5432/{name}"
    wh = open_warehouse(server_settings(tmp_path_factory.mktemp("pgbot"), url, query_timeout_s=2))
    yield wh
    wh.close()


def test_dialect_and_description_hide_the_password(bot_wh):
    assert bot_wh.dialect == "postgres"
    assert "bot-secret-pw" not in bot_wh.describe() and "***" in bot_wh.describe()


def test_introspection_reads_tables_columns_keys_comments_and_estimates(admin_wh):
    schema = admin_wh.refresh()
    assert {"customers", "orders", "mixed case", "secret_salaries"} <= set(schema.tables)
    customers = schema.info["customers"]
    assert customers.primary_key == ("id",)
    assert customers.comment == "People and companies that buy from us"
    assert {c.name: c.comment for c in schema.tables["customers"]}["segment"] == "Market segment"
    assert customers.row_estimate == 300
    [fk] = schema.info["orders"].foreign_keys
    assert (fk.columns, fk.table, fk.ref_columns) == (("customer_id",), "customers", ("id",))
    assert [c.name for c in schema.tables["mixed case"]] == ["Weird Name", "Größe", 'quote"d']


def test_guarded_reads_run_with_odd_identifiers(admin_wh):
    result = admin_wh.run('SELECT "Weird Name", "Größe" FROM "Mixed Case" ORDER BY 1')
    assert result.rows == [("a", 1), ("b", 2)]
    assert admin_wh.run("SELECT status, count(*) FROM orders GROUP BY 1 ORDER BY 1").rows == [
        ("open", 1000), ("returned", 1000), ("shipped", 1000)]
    assert admin_wh.run("SELECT 7 % 4 AS m, 'a%' LIKE 'a%' AS l").rows == [(3, True)]
    assert sorted(admin_wh.distinct_values("customers", "segment")) == ["online", "retail", "wholesale"]


def test_dry_run_uses_the_engines_explain(bot_wh):
    bot_wh.dry_run("WITH t AS (SELECT status, count(*) AS n FROM orders GROUP BY 1) SELECT * FROM t")
    with pytest.raises(SqlError, match="does not exist"):
        bot_wh.dry_run("SELECT no_such_column FROM orders")


def test_the_guard_refuses_system_catalogs_and_unknown_tables(admin_wh):
    with pytest.raises(UnsafeSqlError, match="system catalog"):
        admin_wh.run("SELECT * FROM pg_catalog.pg_settings")
    with pytest.raises(UnsafeSqlError, match="no table nowhere"):
        admin_wh.run("SELECT * FROM nowhere")


@pytest.mark.parametrize("write", [
    "CREATE TABLE intruder (a int)",
    "INSERT INTO customers VALUES (999, 'x', 'y', NULL)",
    "UPDATE orders SET amount = 0",
    "DELETE FROM orders",
])
def test_the_session_is_read_only_even_without_the_guard(admin_wh, write):
    """Called as superuser, below the guard: the adapter's execute refuses, and so does a plain
    statement on one of its pooled sessions (default_transaction_read_only)."""
    import sqlalchemy

    with pytest.raises(SqlError):
        admin_wh._execute(write, admin_wh.limits())
    with admin_wh._connect() as conn, pytest.raises(sqlalchemy.exc.DBAPIError, match="read-only transaction"):
        conn.exec_driver_sql(write)
    assert admin_wh.run("SELECT count(*) FROM orders").rows == [(3000,)]


def test_pg_sleep_past_the_limit_is_cancelled_by_the_engine(bot_wh, admin_wh):
    with pytest.raises(QueryTimeoutError, match="2 seconds"):
        bot_wh._execute("SELECT pg_sleep(60)", bot_wh.limits())
    running = admin_wh._execute(
        "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(60)%' AND state = 'active'",
        admin_wh.limits(),
    )
    assert running.rows == [(0,)]
    assert bot_wh.run("SELECT count(*) FROM customers").rows == [(300,)]  # the pool still works


def test_a_shorter_per_query_limit_uses_statement_timeout(bot_wh):
    with pytest.raises(QueryTimeoutError, match="1 seconds"):
        bot_wh._execute("SELECT pg_sleep(30)", bot_wh.limits(timeout_s=1))


def test_oversized_results_stop_during_the_fetch(admin_wh):
    limits = Limits(timeout_s=20, row_cap=1_000_000, max_bytes=5_000_000)
    with pytest.raises(ResultTooLargeError, match="larger than 5 MB"):
        admin_wh._execute("SELECT repeat('x', 100000) FROM generate_series(1, 100000)", limits)
    with pytest.raises(ResultTooLargeError, match="more than 10 rows"):
        admin_wh._execute("SELECT * FROM generate_series(1, 1000000)", Limits(20, 10, 5_000_000))


def test_permission_denied_names_the_table(bot_wh):
    with pytest.raises(PermissionDeniedError, match="table secret_salaries"):
        bot_wh.run("SELECT * FROM secret_salaries")


def test_a_table_dropped_while_cached_is_a_clear_error(pg_database, admin_wh):
    import psycopg

    name, _ = pg_database
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
        con.execute("CREATE TABLE short_lived (a int)")
    assert "short_lived" in admin_wh.refresh().tables
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
        con.execute("DROP TABLE short_lived")
    with pytest.raises(SqlError, match="does not exist"):
        admin_wh.run("SELECT * FROM short_lived")
    assert "short_lived" not in admin_wh.schema().tables  # the cache was dropped and re-read


def test_wrong_credentials_and_unreachable_servers_are_sentences(pg_database, tmp_path, caplog):
    name, _ = pg_database
    # The local server trusts every password, so a role that does not exist stands in for
    # wrong credentials (the same sentence covers "password authentication failed").
    wrong = open_warehouse(server_settings(tmp_path, f"postgresql://no_such_role:not-the-pw@127.0.0.1:5432/{name}"))
    caplog.set_level(logging.INFO)
    try:
        with pytest.raises(WarehouseUnavailableError, match="refused the bot's credentials"):
            wrong.run("SELECT 1")
    finally:
        wrong.close()
    down = open_warehouse(server_settings(tmp_path, "postgresql://bot:hunter2-secret@127.0.0.1:1/db"))
    try:
        with pytest.raises(WarehouseUnavailableError, match="cannot reach the warehouse"):
            down.run("SELECT 1")
        with pytest.raises(WarehouseUnavailableError, match="cannot reach"):  # fast, from the backoff
            down._execute("SELECT 1", down.limits())
        assert "cannot reach" in down.health()
    finally:
        down.close()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "hunter2-secret" not in logged and "not-the-pw" not in logged
