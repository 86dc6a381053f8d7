"""A real MariaDB/MySQL: introspection, guarded reads, a read-only session under the guard,
the engine's own statement time limit, permission errors naming the table."""

from __future__ import annotations

import pytest

from agent.errors import QueryTimeoutError, ResultTooLargeError, SqlError, UnsafeSqlError
from agent.warehouse import Limits, open_warehouse
from tests.warehouse.conftest import server_settings

pytest.importorskip("pymysql")
pytest.importorskip("sqlalchemy")

from agent.warehouse.sql_engine import PermissionDeniedError, WarehouseUnavailableError  # noqa: E402


@pytest.fixture(scope="module")
def admin_wh(mysql_database, tmp_path_factory):
    name, _ = mysql_database
    wh = open_warehouse(server_settings(tmp_path_factory.mktemp("my"), f"mysql://root@127.0.0.1:3306/{name}"))
    yield wh
    wh.close()


@pytest.fixture(scope="module")
def bot_wh(mysql_database, tmp_path_factory):
    name, user = mysql_database
    url = f"mariadb://{user}:bot-secret-pw@127.0.0.1:3306/{name}"
    wh = open_warehouse(server_settings(tmp_path_factory.mktemp("mybot"), url, query_timeout_s=2))
    yield wh
    wh.close()


def test_introspection(admin_wh):
    schema = admin_wh.refresh()
    assert admin_wh.dialect == "mysql"
    assert {"customers", "orders", "mixed case", "secret_salaries"} <= set(schema.tables)
    assert schema.info["customers"].primary_key == ("id",)
    assert schema.info["customers"].comment == "People and companies that buy from us"
    assert {c.name: c.comment for c in schema.tables["customers"]}["segment"] == "Market segment"
    [fk] = schema.info["orders"].foreign_keys
    assert (fk.columns, fk.table, fk.ref_columns) == (("customer_id",), "customers", ("id",))
    assert [c.name for c in schema.tables["mixed case"]] == ["Weird Name", "Größe"]


def test_guarded_reads(bot_wh):
    assert bot_wh.run("SELECT `Weird Name`, `Größe` FROM `Mixed Case` ORDER BY 1").rows == [("a", 1), ("b", 2)]
    assert bot_wh.run("SELECT status, COUNT(*) FROM orders WHERE status LIKE 'o%' GROUP BY status").rows == [("open", 1)]
    assert sorted(bot_wh.distinct_values("customers", "segment")) == ["online", "retail"]
    with pytest.raises(UnsafeSqlError):
        bot_wh.run("SELECT * FROM mysql.user")


def test_dry_run_uses_the_engines_explain(bot_wh):
    bot_wh.dry_run("SELECT status, COUNT(*) FROM orders GROUP BY status")
    with pytest.raises(SqlError, match="does not exist|Unknown column"):
        bot_wh.dry_run("SELECT no_such_column FROM orders")


@pytest.mark.parametrize("write", [
    "CREATE TABLE intruder (a INT)",
    "INSERT INTO customers VALUES (999, 'x', 'y', NULL)",
    "UPDATE orders SET amount = 0",
    "DELETE FROM orders",
])
def test_the_session_is_read_only_even_without_the_guard(admin_wh, write):
    """As root, below the guard: SET SESSION TRANSACTION READ ONLY still refuses."""
    with pytest.raises(SqlError):
        admin_wh._execute(write, admin_wh.limits())
    assert admin_wh.run("SELECT COUNT(*) FROM orders").rows == [(2,)]
    assert admin_wh.run("SELECT COUNT(*) FROM customers").rows == [(2,)]


def test_a_long_statement_is_stopped_by_the_engine(bot_wh):
    with pytest.raises(QueryTimeoutError):
        bot_wh._execute(
            "SELECT COUNT(*) FROM customers a, customers b, customers c, customers d, customers e "
            "WHERE SLEEP(0.5) = 0",
            bot_wh.limits(),
        )
    assert bot_wh.run("SELECT COUNT(*) FROM customers").rows == [(2,)]


def test_oversized_results_stop_during_the_fetch(admin_wh):
    with pytest.raises(ResultTooLargeError, match="larger than"):
        admin_wh._execute(
            "SELECT REPEAT('x', 100000) FROM customers a, customers b, customers c, customers d, "
            "customers e, customers f, customers g, customers h",
            Limits(timeout_s=20, row_cap=1_000_000, max_bytes=5_000_000),
        )


def test_permission_denied_names_the_table(bot_wh):
    with pytest.raises(PermissionDeniedError, match="secret_salaries"):
        bot_wh._execute("SELECT * FROM secret_salaries", bot_wh.limits())


def test_wrong_credentials(mysql_database, tmp_path):
    name, user = mysql_database
    wrong = open_warehouse(server_settings(tmp_path, f"mysql://{user}:wrong-pw@127.0.0.1:3306/{name}"))
    try:
        with pytest.raises(WarehouseUnavailableError, match="refused the bot's credentials") as caught:
            wrong.run("SELECT 1")
        assert "wrong-pw" not in caught.value.user_message
    finally:
        wrong.close()


def test_temporary_disk_is_bounded_on_mariadb_10_11(mysql_database, tmp_path):
    """An exponential recursive CTE (issue 25 wrote 2.6 GB of temporary disk before its time limit) ends
    at QUERY_TEMP_DISK_BYTES with a sentence: tmp_disk_table_size bounds MariaDB's temporary tables."""
    name, user = mysql_database
    url = f"mariadb://{user}:bot-secret-pw@127.0.0.1:3306/{name}"
    wh = open_warehouse(server_settings(tmp_path, url, query_temp_disk_bytes=8_000_000, query_timeout_s=30))
    doubling = ("WITH RECURSIVE r(n, s) AS (SELECT 1, REPEAT('x', 1000) UNION ALL "
                "SELECT n + 1, s FROM r, (SELECT 1 AS k UNION ALL SELECT 2) two WHERE n < 40) SELECT COUNT(*) FROM r")
    try:
        with pytest.raises(SqlError, match="more than the 8 MB of temporary disk"):
            wh.run(doubling)
        assert wh.run("SELECT COUNT(*) FROM orders").rows == [(2,)]  # the session goes on
    finally:
        wh.close()
