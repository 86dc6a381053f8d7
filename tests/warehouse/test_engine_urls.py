"""Engines that cannot run here (Trino, Snowflake, BigQuery, ClickHouse): URL parsing, dialect
choice, the engine's own limits in the connection plan, and the missing-extra message.
PostgreSQL and MySQL plans are checked here too and exercised for real in their own tests."""

from __future__ import annotations

import pytest

from agent.errors import WarehouseError
from agent.warehouse import open_warehouse
from agent.warehouse.urls import ENGINES, duckdb_path, engine_of, mask_url, plan, require_extra
from tests.warehouse.conftest import server_settings
from tests.support.timeouts import PROCESS_TIMEOUT_S


@pytest.mark.parametrize("url, key, dialect", [
    ("postgresql://bot:pw@db:5432/analytics", "postgres", "postgres"),
    ("postgres://bot@db/analytics", "postgres", "postgres"),
    ("postgresql+psycopg2://bot@db/analytics", "postgres", "postgres"),
    ("mysql://bot:pw@db:3306/shop", "mysql", "mysql"),
    ("mariadb://bot@db/shop", "mysql", "mysql"),
    ("mysql+mysqldb://bot@db/shop", "mysql", "mysql"),
    ("trino://bot@trino:8080/hive/sales", "trino", "trino"),
    ("presto://bot@trino:8080/hive/sales", "trino", "trino"),
    ("snowflake://bot:pw@acme-xy123/ANALYTICS/PUBLIC?warehouse=WH&role=BOT", "snowflake", "snowflake"),
    ("bigquery://my-project/my_dataset", "bigquery", "bigquery"),
    ("clickhouse://bot:pw@ch:8123/default", "clickhouse", "clickhouse"),
])
def test_url_names_engine_and_dialect(url, key, dialect):
    engine = engine_of(url)
    assert engine.key == key and engine.dialect == dialect


def test_duckdb_urls_and_unknown_engines():
    assert engine_of("duckdb:///data/x.duckdb") is None
    assert str(duckdb_path("duckdb:///abs/x.duckdb")) == "/abs/x.duckdb"
    assert str(duckdb_path("duckdb://rel/x.duckdb")) == "rel/x.duckdb"
    with pytest.raises(WarehouseError, match="engine 'oracle'"):
        engine_of("oracle://scott:tiger@db/orcl")


def test_passwords_are_masked_anywhere_in_text():
    text = "could not connect to postgresql://bot:s3cr%40t@db:5432/a and snowflake://u:pw@acct/db"
    masked = mask_url(text)
    assert "s3cr" not in masked and ":pw@" not in masked and masked.count("***") == 2


def test_postgres_plan_sets_read_only_and_statement_timeout():
    p = plan("postgresql://bot:pw@db/a", ENGINES["postgres"], timeout_s=20, max_bytes_billed=0)
    assert p.url == "postgresql+psycopg://bot:pw@db/a"
    assert "default_transaction_read_only=on" in p.connect_args["options"]
    assert "statement_timeout=20000" in p.connect_args["options"]


def test_mysql_plan_is_read_only():
    p = plan("mariadb://bot@db/shop", ENGINES["mysql"], timeout_s=20, max_bytes_billed=0, temp_disk_bytes=10**9)
    assert p.url.startswith("mysql+pymysql://bot@db/shop")

    class Recorder:  # what a new session is told, without a server
        def __init__(self):
            self.statements = []

        def execute(self, sql):
            self.statements.append(sql)

        def fetchone(self):  # MariaDB 10.11: tmp_disk_table_size, not yet 11.5's max_tmp_session_space_usage
            last = self.statements[-1]
            if last == "SELECT VERSION()":
                return ("10.11.19-MariaDB",)
            return ("tmp_disk_table_size", "18446744073709551615") if "tmp_disk_table_size" in last else None

    cursor = Recorder()
    session = ENGINES["mysql"].on_connect(cursor, p.limits)
    assert session == {"mariadb": True}
    assert cursor.statements[0] == "SET SESSION TRANSACTION READ ONLY"
    assert "SET SESSION max_statement_time = 20.000" in cursor.statements
    assert any(s.startswith("SET SESSION tmp_table_size") for s in cursor.statements)
    assert "SET SESSION tmp_disk_table_size = 1000000000" in cursor.statements
    assert not any("SET SESSION max_tmp_session_space_usage" in s for s in cursor.statements)


def test_mariadb_gets_regexp_not_regexp_like():
    mysql = ENGINES["mysql"]
    sql = "SELECT a FROM t WHERE REGEXP_LIKE(a, '^x')"
    assert mysql.executable(sql, {"mariadb": True}) == "SELECT a FROM t WHERE a REGEXP '^x'"
    assert mysql.executable(sql, {"mariadb": False}) == sql


def test_every_engine_is_one_module():
    assert set(ENGINES) == {"bigquery", "clickhouse", "mysql", "postgres", "snowflake", "trino"}
    assert all(type(e).__module__ == f"agent.warehouse.engines.{type(e).__module__.rsplit('.', 1)[-1]}"
               for e in ENGINES.values())


def test_trino_plan_sets_query_max_run_time():
    p = plan("trino://bot@trino:8080/hive/sales", ENGINES["trino"], timeout_s=20, max_bytes_billed=0)
    assert p.url == "trino://bot@trino:8080/hive/sales"
    assert p.connect_args["session_properties"]["query_max_run_time"] == "20s"


def test_snowflake_plan_sets_statement_timeout():
    p = plan("snowflake://bot:pw@acct/DB/PUBLIC?warehouse=WH", ENGINES["snowflake"], timeout_s=20, max_bytes_billed=0)
    assert p.connect_args["session_parameters"]["STATEMENT_TIMEOUT_IN_SECONDS"] == 20
    assert "warehouse=WH" in p.url


def test_bigquery_plan_sets_job_timeout_and_bytes_billed():
    p = plan("bigquery://proj/ds?location=EU", ENGINES["bigquery"], timeout_s=20, max_bytes_billed=10**10)
    assert p.url.startswith("bigquery://proj/ds?")
    assert "maximum_bytes_billed=10000000000" in p.url and "job_timeout_ms=20000" in p.url
    assert "location=EU" in p.url


def test_clickhouse_plan_is_readonly_with_max_execution_time():
    p = plan("clickhouse://bot:pw@ch:8123/default", ENGINES["clickhouse"], timeout_s=20, max_bytes_billed=0)
    assert p.url.startswith("clickhousedb://bot:pw@ch:8123/default?")
    assert "readonly=1" in p.url and "max_execution_time=20" in p.url


@pytest.mark.parametrize("key", ["trino", "snowflake", "bigquery", "clickhouse"])
def test_a_missing_driver_names_the_extra(key, tmp_path):
    engine = ENGINES[key]
    try:
        require_extra(engine)
    except WarehouseError as exc:
        assert f".[{engine.extra}]" in exc.user_message
        url = {"trino": "trino://u@h/c/s", "snowflake": "snowflake://u:p@a/d", "bigquery": "bigquery://p/d",
               "clickhouse": "clickhouse://u@h/d"}[key]
        with pytest.raises(WarehouseError, match=rf"\[{engine.extra}\]"):
            open_warehouse(server_settings(tmp_path, url))
    else:
        pytest.skip(f"the {key} driver is installed here")


@pytest.mark.parametrize("dialect, sql", [
    ("trino", "SELECT approx_distinct(x) FROM t"),
    ("snowflake", "SELECT iff(a > 1, 'y', 'n'), zeroifnull(b) FROM t"),
    ("bigquery", "SELECT safe_divide(a, b), countif(c) FROM t"),
    ("clickhouse", "SELECT uniq(a) FROM t"),
])
def test_each_dialect_has_an_allow_list(dialect, sql):
    from agent.sql.guard import ensure_read_only

    ensure_read_only(sql, dialect=dialect)


def test_every_log_line_has_url_passwords_masked(tmp_path, caplog):
    import logging

    open_warehouse(server_settings(tmp_path, None)).close()  # installs the masking
    caplog.set_level(logging.INFO)
    logging.getLogger("some.driver").info("connecting to %s", "postgresql://bot:hunter2@db:5432/a")
    logging.getLogger("other").warning("retry postgresql://bot:hunter2@db:5432/a failed")
    assert "hunter2" not in caplog.text and caplog.text.count("bot:***@db") == 2


@pytest.mark.subprocess
def test_an_unreachable_warehouse_at_start_up_is_a_sentence_not_a_crash(tmp_path):
    import json
    import os
    import subprocess
    import sys

    pytest.importorskip("psycopg")
    env = {**os.environ, "WAREHOUSE_URL": "postgresql://bot:hunter2@127.0.0.1:1/db", "DATA_DIR": str(tmp_path),
           "OPENAI_API_KEY": "", "REDIS_URL": ""}
    done = subprocess.run([sys.executable, "-m", "agent", "ask", "how many orders", "--json"],
                          env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    reply = json.loads(done.stdout.strip().splitlines()[-1])
    assert "cannot reach the warehouse" in reply["error"]
    assert "Traceback" not in done.stderr
    assert "hunter2" not in done.stderr + done.stdout
