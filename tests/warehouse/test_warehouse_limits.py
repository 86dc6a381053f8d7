"""The warehouse's safety limits, through real DuckDB: time, rows, read-only, files, settings."""

from __future__ import annotations

import asyncio

import duckdb
import pytest

from agent.errors import (
    AssistantError,
    QueryTimeoutError,
    ResultTooLargeError,
    SqlError,
    UnsafeSqlError,
)
from tests.support.timeouts import PROCESS_TIMEOUT_S

# Ten billion pairs: far more than any limit in these tests allows it to finish.
SLOW_SQL = "SELECT count(*) FROM range(100000) a, range(100000) b WHERE (a.range * b.range) % 7 = 3"


def test_slow_query_is_interrupted(warehouse):
    with pytest.raises(QueryTimeoutError) as caught:
        warehouse.run(SLOW_SQL, timeout_s=0.3)
    assert "0.3 seconds" in caught.value.user_message


async def test_slow_query_is_interrupted_off_the_event_loop(warehouse):
    query = asyncio.create_task(warehouse.arun(SLOW_SQL, timeout_s=0.3))
    # A query that held the event loop would let this loop turn once, then finish before the next turn.
    turns = 0
    while not query.done():
        turns += 1
        await asyncio.sleep(0.01)
    with pytest.raises(QueryTimeoutError):
        await query
    assert turns >= 3


def test_warehouse_still_works_after_an_interrupt(warehouse):
    with pytest.raises(QueryTimeoutError):
        warehouse.run(SLOW_SQL, timeout_s=0.2)
    assert warehouse.run("SELECT count(*) FROM airlines").rows == [(16,)]


def test_too_many_rows_is_refused(warehouse):
    with pytest.raises(ResultTooLargeError) as caught:
        warehouse.run("SELECT * FROM flights", row_cap=100)
    assert "100 rows" in caught.value.user_message


def test_exactly_the_cap_is_allowed(warehouse):
    assert warehouse.run("SELECT * FROM airlines", row_cap=16).row_count == 16


def test_guard_refuses_writes(warehouse):
    for sql in ("INSERT INTO airlines VALUES ('ZZ', 'Nope Air')", "DROP TABLE flights", "SELECT 1; DELETE FROM planes"):
        with pytest.raises(UnsafeSqlError):
            warehouse.run(sql)


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO airlines VALUES ('ZZ', 'Nope Air')",
        "DELETE FROM flights",
        "CREATE TABLE scratch AS SELECT 1 AS x",
        "UPDATE planes SET seats = 0",
    ],
)
def test_engine_refuses_writes_even_past_the_guard(warehouse, statement):
    # Straight to a DuckDB cursor, as if the SQL guard had a hole: the file is read-only.
    cursor = warehouse._cursor()
    try:
        with pytest.raises(duckdb.Error, match="read-only"):
            cursor.execute(statement)
    finally:
        cursor.close()
    assert warehouse.run("SELECT count(*) FROM airlines").rows == [(16,)]


def test_engine_refuses_to_lift_its_limits(warehouse):
    cursor = warehouse._cursor()
    try:
        for statement in ("SET memory_limit = '64GB'", "SET enable_external_access = true"):
            with pytest.raises(duckdb.Error):
                cursor.execute(statement)
    finally:
        cursor.close()


def test_limits_from_settings_are_applied(warehouse, settings):
    # The guard refuses current_setting() to people; the test reads it on the raw cursor.
    cursor = warehouse._cursor()
    try:
        threads, external = cursor.execute(
            "SELECT current_setting('threads'), current_setting('enable_external_access')"
        ).fetchone()
    finally:
        cursor.close()
    assert int(threads) == settings.query_threads
    assert external is False


def test_files_cannot_be_read_through_a_select(warehouse, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("a,b\n1,2\n")
    with pytest.raises(SqlError):
        warehouse.run(f"SELECT * FROM read_csv('{secret}')")


def test_engine_errors_are_sentences(warehouse):
    with pytest.raises(SqlError) as caught:
        warehouse.run("SELECT no_such_column FROM flights")
    assert isinstance(caught.value, AssistantError)
    assert "does not exist" in caught.value.user_message
    assert "Traceback" not in caught.value.user_message


def test_dry_run_validates_without_running(warehouse):
    warehouse.dry_run(SLOW_SQL)  # EXPLAIN only: returns at once
    with pytest.raises(SqlError):
        warehouse.dry_run("SELECT carrier FROM flight")


def test_results_are_plain_json_values(warehouse):
    result = warehouse.run(
        "SELECT time_hour, avg(temp) AS t FROM weather GROUP BY time_hour ORDER BY time_hour LIMIT 1"
    )
    assert result.columns == ["time_hour", "t"]
    assert result.types == ["TIMESTAMP", "DOUBLE"]
    assert result.rows[0][0] == "2013-01-01T06:00:00"


def test_engine_refuses_files_even_past_the_guard(warehouse, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("a,b\n1,2\n")
    cursor = warehouse._cursor()
    try:
        with pytest.raises(duckdb.Error, match="disabled"):
            cursor.execute(f"SELECT * FROM read_csv('{secret}')").fetchall()
    finally:
        cursor.close()


@pytest.mark.subprocess
def test_oversized_duckdb_results_end_with_a_sentence_within_a_memory_budget(tmp_path):
    """Run in a child process so its peak memory is its own: SELECT repeat('x', 1e9) and a huge
    range are refused by the guard; below the guard the byte cap stops the fetch."""
    import json
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(f"""
        import json, resource
        from agent.settings import load_settings
        from agent.warehouse import Limits, open_warehouse
        from agent.errors import AssistantError
        s = load_settings(_env_file=None, data_dir={str(tmp_path)!r}, warehouse_url=None, openai_api_key=None,
                          redis_url=None, slack_bot_token=None, query_memory_limit="512MB")
        wh = open_warehouse(s)
        out = []
        for sql in ["SELECT repeat('x', 1e9)", "SELECT range(1e9)", "SELECT * FROM range(1e10)"]:
            try:
                wh.run(sql); out.append("ran")
            except AssistantError as e:
                out.append(e.user_message)
        try:
            wh._execute("SELECT repeat('x', 100000) FROM range(1000000)", Limits(20, 10**7, 20_000_000))
            out.append("ran")
        except AssistantError as e:
            out.append(e.user_message)
        out.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        print(json.dumps(out))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-2000:]
    *messages, peak_kb = json.loads(done.stdout.strip().splitlines()[-1])
    assert all(m.startswith(("I only run queries whose size", "The query's result is larger")) for m in messages)
    assert "larger than 20 MB" in messages[-1]
    assert peak_kb < 1_500_000  # well under the 8.6 GB the unbounded version reached
