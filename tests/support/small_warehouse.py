"""A small warehouse made in a test and read as a team's would be (bootstrapped from its schema, the URL
alone), and a question's rows checked against hand-written SQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent.bootstrap import Groundwork, build_groundwork
from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from tests.support.duck_files import duckdb_file
from tests.warehouse.conftest import server_settings


@contextmanager
def bootstrapped(folder: Path, name: str, schema: str) -> Iterator[Groundwork]:
    """The groundwork of a DuckDB file made from `schema` in `folder`; its warehouse closed afterwards."""
    work = build_groundwork(server_settings(folder, f"duckdb:///{duckdb_file(folder, name, schema)}"))
    try:
        yield work
    finally:
        work.warehouse.close()


def assert_reads_as(work: Groundwork, question: str, sql: str, *, leading: bool = False,
                    ordered: bool = False) -> None:
    """The question's rows are the SQL's; `leading`: only the answer's first columns are compared (a list
    may carry a count beside the names)."""
    read = extract_intent(question, work.semantic, work.values)
    assert read.intent is not None, (question, read.reason)
    got = work.warehouse.run(compile_intent(read.intent, work.semantic).sql)
    want = work.warehouse.run(sql)
    rows = [row[:len(want.columns)] for row in got.rows] if leading else got.rows
    columns = want.columns if leading else got.columns
    assert rows_match(want.columns, want.rows, columns, rows, ordered=ordered), (question, got.rows, want.rows)
