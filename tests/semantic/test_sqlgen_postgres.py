"""The same model and query give the same rows on DuckDB and on a real PostgreSQL.

Runs against PostgreSQL on 127.0.0.1:5432 (POSTGRES_TEST_URL overrides) in a database of its
own, dropped afterwards; skipped with a reason when no server answers.
"""

from __future__ import annotations

import os
import uuid

import duckdb
import pytest

from agent.semantic.compare import rows_match
from agent.semantic.spec.dbt_load import read_project
from agent.semantic.compile.sqlgen import compile_query
from tests.semantic import shop
from tests.semantic.test_sqlgen_snapshots import QUERIES

psycopg = pytest.importorskip("psycopg")
URL = os.environ.get("POSTGRES_TEST_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


@pytest.fixture(scope="module")
def postgres():
    try:
        admin = psycopg.connect(URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL at {URL}: {exc}")
    name = f"semantic_test_{uuid.uuid4().hex[:10]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        con = psycopg.connect(URL.rsplit("/", 1)[0] + "/" + name, autocommit=True)
        try:
            con.execute("CREATE SCHEMA IF NOT EXISTS main")
            con.execute("SET search_path TO public, main")
            shop.load(lambda sql, params: con.execute(sql, params))
            con.execute("CREATE VIEW main.order_items AS SELECT * FROM public.order_items")
            yield con
        finally:
            con.close()
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(scope="module")
def duck():
    con = duckdb.connect()
    shop.load(lambda sql, params: con.execute(sql, params) if params else con.execute(sql), mark="?")
    yield con
    con.close()


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_duckdb_and_postgres_agree(postgres, duck, name):
    project = read_project(shop.PROJECT)
    query = QUERIES[name]
    want = duck.execute(compile_query(project, query, "duckdb").sql)
    want_columns = [d[0] for d in want.description]
    want_rows = want.fetchall()
    got = postgres.execute(compile_query(project, query, "postgres").sql)
    got_rows = [tuple(float(v) if type(v).__name__ == "Decimal" else v for v in row) for row in got.fetchall()]
    assert want_rows, "the fixture should give rows for every query"
    assert rows_match(want_columns, want_rows, [d[0] for d in got.description], got_rows, ordered=True), \
        (want_rows, got_rows)
