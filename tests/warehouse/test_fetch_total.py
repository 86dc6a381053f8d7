"""One request's results are bounded over all its queries (REQUEST_RESULT_BYTES), not only each query's:
on real DuckDB and PostgreSQL, through the person's scoped warehouse every tool uses."""

from __future__ import annotations

import asyncio
import duckdb
import pytest

from agent.context import ChatContext
from agent.errors import ResultTooLargeError
from agent.policy.scope import Governance, ScopedWarehouse
from agent.warehouse import open_warehouse
from tests.warehouse.conftest import server_settings

# each query brings back 56 kB as the collector counts it (1,000 rows of a 32-character text and an
# integer): under its own cap of 60 kB; three of them pass the request's 120 kB
ROWS_SQL = "SELECT md5(CAST(n AS text)) AS body, n FROM {source} WHERE n <= 1000"


def _scoped(warehouse, user: str = "U1") -> ScopedWarehouse:
    """One request's view of the warehouse, as Governance.context_for builds it for every question."""
    who = ChatContext(user=user, request_id=f"r-{user}")
    return ScopedWarehouse(warehouse, Governance(warehouse, None, None).access_for(who), None, who, None)


def _three_queries_then_a_fresh_request(warehouse, source: str) -> None:
    request = _scoped(warehouse)
    sql = ROWS_SQL.format(source=source)
    assert request.run(sql).row_count == 1000
    assert asyncio.run(request.arun(sql)).row_count == 1000
    with pytest.raises(ResultTooLargeError, match="This question's queries have brought back 120 kB of results "
                                                  "between them, the most one question may") as raised:
        request.run(sql)
    assert "fewer rows or columns" in raised.value.user_message
    # a failed query keeps nothing: a small one still fits in what is left
    assert request.run(ROWS_SQL.format(source=source).replace("1000", "10")).row_count == 10
    # the next question starts from nothing
    assert _scoped(warehouse).run(sql).row_count == 1000


def test_duckdb_request_total(tmp_path):
    path = tmp_path / "rows.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE numbers AS SELECT range AS n FROM range(1, 5001)")
    con.close()
    warehouse = open_warehouse(server_settings(tmp_path, f"duckdb:///{path}", query_result_bytes=60_000,
                                               request_result_bytes=120_000))
    try:
        _three_queries_then_a_fresh_request(warehouse, "numbers")
    finally:
        warehouse.close()


def test_postgres_request_total(pg_database, tmp_path):
    name, _ = pg_database
    warehouse = open_warehouse(server_settings(tmp_path, f"postgresql://postgres@127.0.0.1:5432/{name}",
                                               query_result_bytes=60_000, request_result_bytes=120_000))
    try:
        _three_queries_then_a_fresh_request(warehouse, "generate_series(1, 5000) AS g(n)")
    finally:
        warehouse.close()
