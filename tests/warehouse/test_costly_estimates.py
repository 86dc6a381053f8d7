"""Issue 25 item 4: which queries count as costly (they never take the slot kept for others).

Every engine's planner question is the statement it would send and the reading of its answer, checked
against answers recorded in each engine's documented form (Trino, Snowflake, BigQuery and ClickHouse
do not run here); DuckDB, PostgreSQL and MariaDB answer for real. Recursion and a regular expression
over a large table are costly by their shape on every engine, whatever the planner says."""

from __future__ import annotations

import asyncio
import json
import os
import threading

import duckdb
import pytest

from agent.budget import slots as slots_module
from agent.budget.threads import DaemonThreads
from agent.warehouse import open_warehouse
from agent.warehouse.base import COSTLY_NICENESS
from agent.warehouse.engines import ENGINES
from agent.warehouse.engines.base import PlanSize
from tests.warehouse.conftest import server_settings

RECURSIVE = ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) "
             "SELECT count(*) FROM r")


def _node(name: str, rows, children=()) -> dict:
    """One node of Trino's logical plan in JSON, as EXPLAIN (TYPE LOGICAL, FORMAT JSON) writes it."""
    return {"id": name, "name": name, "descriptor": {}, "outputs": [], "details": [],
            "estimates": [{"outputRowCount": rows, "outputSizeInBytes": "NaN", "cpuCost": "NaN",
                           "memoryCost": "NaN", "networkCost": "NaN"}] if rows is not None else [],
            "children": list(children)}


def test_trino_reads_the_largest_stated_row_count_of_its_logical_plan():
    trino = ENGINES["trino"]
    assert trino.plan_statement("SELECT 1") == "EXPLAIN (TYPE LOGICAL, FORMAT JSON) SELECT 1"
    plan = _node("Output", "NaN", [_node("CrossJoin", 6.0e9, [_node("TableScan", 75000.0), _node("TableScan", 80000)]),
                                   _node("Aggregate", None)])
    assert trino.plan_size(["Query Plan"], [(json.dumps(plan),)]) == PlanSize(rows=6.0e9)
    # a connector without statistics writes "NaN" everywhere: no estimate, not zero
    unknown = _node("Output", "NaN", [_node("TableScan", "NaN")])
    assert trino.plan_size(["Query Plan"], [(json.dumps(unknown),)]) is None


def test_snowflake_reads_the_bytes_its_plan_assigns():
    snowflake = ENGINES["snowflake"]
    assert snowflake.plan_statement("SELECT 1") == "EXPLAIN USING JSON SELECT 1"
    answer = {"GlobalStats": {"partitionsTotal": 412, "partitionsAssigned": 380, "bytesAssigned": 52_345_678_901},
              "Operations": [[{"id": 0, "operation": "Result"},
                              {"id": 1, "parentOperators": [0], "operation": "TableScan", "objects": ["SHOP.PUBLIC.ORDERS"],
                               "partitionsAssigned": 380, "partitionsTotal": 412, "bytesAssigned": 52_345_678_901}]]}
    assert snowflake.plan_size(["content"], [(json.dumps(answer),)]) == PlanSize(bytes=52_345_678_901)
    assert snowflake.plan_size(["content"], [(json.dumps({"Operations": []}),)]) is None


def test_bigquery_reads_its_dry_run_jobs_bytes():
    bigquery = ENGINES["bigquery"]
    assert bigquery.plan_statement("SELECT 1") is None  # no EXPLAIN: a dry-run job through the driver
    job = {"kind": "bigquery#job", "configuration": {"dryRun": True, "query": {"query": "SELECT 1"}},
           "status": {"state": "DONE"},
           "statistics": {"creationTime": "1700000000000", "totalBytesProcessed": "2147483648",
                          "query": {"totalBytesProcessed": "2147483648", "totalBytesBilled": "0", "cacheHit": False}}}
    assert bigquery.job_size(job) == PlanSize(bytes=2147483648)
    assert bigquery.job_size({"statistics": {}}) is None


def test_clickhouse_adds_up_the_rows_each_table_read_takes():
    clickhouse = ENGINES["clickhouse"]
    assert clickhouse.plan_statement("SELECT 1") == "EXPLAIN ESTIMATE SELECT 1"
    columns = ["database", "table", "parts", "rows", "marks"]
    answer = [("shop", "orders", 12, 90_000_000, 10_987), ("shop", "customers", 1, 40_000_000, 4_883)]
    assert clickhouse.plan_size(columns, answer) == PlanSize(rows=130_000_000)
    assert clickhouse.plan_size(columns, []) is None


def test_postgres_and_mysql_read_their_explain():
    plan = [{"Plan": {"Node Type": "Nested Loop", "Plan Rows": 900000,
                      "Plans": [{"Node Type": "Seq Scan", "Plan Rows": 300}, {"Node Type": "Seq Scan", "Plan Rows": 3000}]}}]
    assert ENGINES["postgres"].plan_size(["QUERY PLAN"], [(plan,)]) == PlanSize(rows=900000)
    mysql = [(1, "SIMPLE", "a", "ALL", None, None, None, None, 3000, ""),
             (1, "SIMPLE", "b", "ALL", None, None, None, None, 300, "Using join buffer")]
    columns = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
    assert ENGINES["mysql"].plan_size(columns, mysql) == PlanSize(rows=900000)


@pytest.fixture
def duck(tmp_path):
    path = tmp_path / "notes.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE notes AS SELECT i AS id, md5(i::varchar) AS body FROM range(200) r(i)")
    con.execute("CREATE TABLE tiny AS SELECT i AS id, md5(i::varchar) AS body FROM range(5) r(i)")
    con.close()
    # 200 rows a regexp reads weigh 200 x 50 = 10,000 ordinary steps: past 5,000; 5 rows are not
    wh = open_warehouse(server_settings(tmp_path, f"duckdb:///{path}", warehouse_costly_rows=5_000))
    yield wh
    wh.close()


def test_duckdb_shapes_and_plans(duck):
    costly = lambda sql: asyncio.run(duck.is_costly(sql))  # noqa: E731
    assert not costly("SELECT count(*) FROM notes")
    assert costly("SELECT count(*) FROM notes a, notes b")  # the plan: 40,000 pairs
    assert costly(RECURSIVE)  # the plan says 1 row or so: recursion is costly by its shape
    assert costly("SELECT count(*) FROM notes WHERE regexp_matches(body, '^a.*b')")
    assert costly("SELECT count(*) FROM notes WHERE body SIMILAR TO 'a%'")
    assert not costly("SELECT count(*) FROM tiny WHERE regexp_matches(body, '^a.*b')")
    assert not costly("DELETE FROM notes")  # refused by the guard when it runs, not priced


def test_postgres_estimates_for_real(pg_database, tmp_path):
    name, _ = pg_database
    wh = open_warehouse(server_settings(tmp_path, f"postgresql://postgres@127.0.0.1:5432/{name}",
                                        warehouse_costly_rows=100_000))
    try:
        assert not asyncio.run(wh.is_costly("SELECT count(*) FROM orders"))
        assert asyncio.run(wh.is_costly("SELECT count(*) FROM orders a, customers b"))  # 3,000 x 300
        assert asyncio.run(wh.is_costly(RECURSIVE))
    finally:
        wh.close()


def test_mariadb_estimates_for_real(mysql_database, tmp_path):
    name, _ = mysql_database
    wh = open_warehouse(server_settings(tmp_path, f"mysql://root@127.0.0.1:3306/{name}", warehouse_costly_rows=3))
    try:
        assert not asyncio.run(wh.is_costly("SELECT * FROM orders WHERE id = 1"))
        assert asyncio.run(wh.is_costly("SELECT * FROM orders a, customers b"))  # 2 x 2 rows read
        assert asyncio.run(wh.is_costly(RECURSIVE))
    finally:
        wh.close()


def test_a_costly_in_process_query_runs_at_a_lower_cpu_priority(duck, monkeypatch):
    """DuckDB's threads are the bot's cores: a costly query's slot thread yields them to everyone else's
    work (Linux niceness is per thread); an ordinary one does not, before or after it (slot threads are
    kept for the next call, but not one that was niced)."""
    threads = DaemonThreads()
    monkeypatch.setattr(slots_module, "_threads", threads)
    seen: dict[str, int] = {}
    run = duck.run
    ours = os.getpriority(os.PRIO_PROCESS, 0)

    def recording(sql, **limits):
        seen[sql] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        return run(sql, **limits)

    def niceness_of_live_threads() -> list[int]:
        found = []
        for thread in threading.enumerate():
            try:
                found.append(os.getpriority(os.PRIO_PROCESS, thread.native_id))
            except (ProcessLookupError, TypeError):
                pass  # it ended between the listing and the look-up
        return found

    def settled() -> list[int]:
        """Once every thread's work is done and a niced thread has had time to end (polled): the niceness of
        each thread still alive (a thread that finished its query may take a moment more to exit)."""
        found: list[int] = []
        for _ in range(10_000):
            if not threads.busy:
                found = niceness_of_live_threads()
                if set(found) == {ours}:
                    return found
            threading.Event().wait(0.001)
        if threads.busy:
            raise AssertionError("the slot threads' work did not finish")
        return found

    monkeypatch.setattr(duck, "run", recording)
    cheap, costly = "SELECT count(*) FROM notes", "SELECT count(*) FROM notes a, notes b"
    asyncio.run(duck.arun(cheap))
    settled()
    kept = threads.idle
    asyncio.run(duck.arun(costly))
    assert kept >= 1 and seen[cheap] == ours
    assert seen[costly] == min(ours + COSTLY_NICENESS, 19)
    assert set(settled()) == {ours}  # the niced thread ended with its query
