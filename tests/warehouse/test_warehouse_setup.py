"""Building the demo warehouse (atomic, once) and opening a warehouse by URL (clear errors)."""

from __future__ import annotations

import os

import pytest

from agent.errors import WarehouseError
from agent.settings import load_settings
from agent.warehouse import demo, open_warehouse
from agent.warehouse.demo import TABLES, demo_path, ensure_demo_warehouse


def settings_for(data_dir, warehouse_url=None):
    return load_settings(_env_file=None, data_dir=data_dir, warehouse_url=warehouse_url, redis_url=None)


def test_demo_is_built_once_and_reused(tmp_path, monkeypatch):
    path = ensure_demo_warehouse(tmp_path)
    assert path == demo_path(tmp_path) and path.exists()
    built_at = path.stat().st_mtime_ns

    def must_not_rebuild(_):
        raise AssertionError("the demo warehouse was built a second time")

    monkeypatch.setattr(demo, "_build", must_not_rebuild)
    assert ensure_demo_warehouse(tmp_path) == path
    assert path.stat().st_mtime_ns == built_at
    assert sorted(os.listdir(tmp_path)) == [demo.DEMO_FILE]

    warehouse = open_warehouse(settings_for(tmp_path))
    try:
        assert set(warehouse.schema().tables) == set(TABLES)
        assert warehouse.run("SELECT count(*) FROM flights").rows == [(336776,)]
    finally:
        warehouse.close()


def test_interrupted_build_leaves_nothing_behind(tmp_path, monkeypatch):
    def build_half_then_fail(path):
        path.write_bytes(b"half a database")
        raise KeyboardInterrupt

    monkeypatch.setattr(demo, "_build", build_half_then_fail)
    with pytest.raises(KeyboardInterrupt):
        ensure_demo_warehouse(tmp_path)
    assert os.listdir(tmp_path) == []  # no target, no temporary file: the next start builds afresh


def test_demo_builds_into_a_missing_directory(tmp_path, monkeypatch):
    built = []
    monkeypatch.setattr(demo, "_build", lambda path: (built.append(path), path.write_bytes(b"db")))
    target = ensure_demo_warehouse(tmp_path / "nested" / "data")
    assert target.read_bytes() == b"db" and len(built) == 1
    assert built[0].parent == target.parent and built[0] != target  # built beside, then renamed


def test_warehouse_url_to_a_duckdb_file(tmp_path, warehouse):
    settings = settings_for(tmp_path, f"duckdb://{warehouse.path}")
    opened = open_warehouse(settings)
    try:
        assert opened.path == warehouse.path
        assert opened.run("SELECT count(*) FROM airlines").rows == [(16,)]
    finally:
        opened.close()


@pytest.mark.parametrize(
    "url, words",
    [
        ("oracle://user@db.internal/analytics", "engine 'oracle'"),
        ("duckdb:///no/such/place/warehouse.duckdb", "does not exist"),
    ],
)
def test_bad_warehouse_url_is_a_clear_error(tmp_path, url, words):
    with pytest.raises(WarehouseError) as caught:
        open_warehouse(settings_for(tmp_path, url))
    assert words in caught.value.user_message
    assert "WAREHOUSE_URL" in caught.value.user_message


def test_file_that_is_not_a_database_is_a_clear_error(tmp_path):
    not_a_database = tmp_path / "notes.duckdb"
    not_a_database.write_text("this is not a database\n" * 100)
    with pytest.raises(WarehouseError) as caught:
        open_warehouse(settings_for(tmp_path, f"duckdb://{not_a_database}"))
    assert "could not be opened" in caught.value.user_message
    assert "WAREHOUSE_URL" in caught.value.user_message
