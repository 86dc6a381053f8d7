"""The demo's semantic model and values are kept in DATA_DIR/cache between starts, under a name made of
everything they are read from: a start finds them only when none of that changed."""

from __future__ import annotations

import shutil

import duckdb
import pytest

from agent import bootstrap as groundwork_module
from agent.semantic.model import layer
from agent import groundwork_cache
from agent.bootstrap import build_groundwork
from agent.file_digests import FileDigests
from agent.warehouse import open_warehouse
from agent.warehouse.demo import demo_path


@pytest.fixture
def own_settings(settings, warehouse, tmp_path):
    """The test settings on a data folder of the test's own, holding a copy of the demo warehouse."""
    shutil.copyfile(warehouse.path, demo_path(tmp_path))
    return settings.model_copy(update={"data_dir": tmp_path})


def start(settings):
    """What one start reads (the warehouse opened afresh, as a new process does)."""
    warehouse = open_warehouse(settings)
    return warehouse, build_groundwork(settings, warehouse)


def kept_files(settings):
    return sorted((settings.data_dir / "cache").glob("groundwork-*.pickle"))


def reads_nothing(monkeypatch):
    """From now on, reading the model's YAML or the warehouse's values fails the test."""
    def fail(*args, **kwargs):
        raise AssertionError("read again although nothing changed")

    monkeypatch.setattr(layer, "load_layer", fail)
    monkeypatch.setattr(groundwork_module.ValueIndex, "from_warehouse", fail)


def test_a_second_start_reads_nothing_again_and_reads_questions_the_same(own_settings, monkeypatch):
    first_wh, first = start(own_settings)
    assert len(kept_files(own_settings)) == 1
    reads_nothing(monkeypatch)
    second_wh, second = start(own_settings)
    try:
        assert second.semantic == first.semantic
        assert (second.values.values, second.values.labels, second.values.phrases) == (
            first.values.values, first.values.labels, first.values.phrases)
        for question in ("number of flights by origin", "average arrival delay of JetBlue from Newark"):
            assert second.reading(question) == first.reading(question) is not None
        # the latest date ('last month') is read from this start's warehouse, as before
        assert second.values.latest_date("flights") == first.values.latest_date("flights") is not None
    finally:
        first_wh.close()
        second_wh.close()


def test_a_changed_warehouse_is_read_again(own_settings):
    warehouse, _ = start(own_settings)
    warehouse.close()
    with duckdb.connect(str(demo_path(own_settings.data_dir))) as connection:
        connection.execute("UPDATE airlines SET name = 'Renamed Airways' WHERE carrier = 'B6'")
    warehouse, after = start(own_settings)
    try:
        assert after.values.labels["carrier"]["B6"] == "Renamed Airways"
        assert len(kept_files(own_settings)) == 2
    finally:
        warehouse.close()


def test_a_setting_that_can_change_the_reads_names_another_file_and_the_log_level_does_not(own_settings):
    warehouse, _ = start(own_settings)
    try:
        at = groundwork_cache.cache_path(own_settings, warehouse)
        assert groundwork_cache.cache_path(own_settings.model_copy(update={"log_level": "DEBUG"}), warehouse) == at
        assert groundwork_cache.cache_path(own_settings.model_copy(update={"query_row_cap": 7}), warehouse) != at
    finally:
        warehouse.close()


def test_a_file_that_does_not_load_is_read_afresh_and_replaced(own_settings):
    warehouse, first = start(own_settings)
    warehouse.close()
    [kept] = kept_files(own_settings)
    kept.write_bytes(b"cut sh")
    warehouse, again = start(own_settings)
    try:
        assert again.semantic == first.semantic
        assert groundwork_cache.load(kept) is not None  # written whole again
    finally:
        warehouse.close()


def test_only_the_demo_warehouse_is_kept(own_settings, tmp_path):
    """Another warehouse's values are live data with nothing to hash: read at every start."""
    other = tmp_path / "mine.duckdb"
    shutil.copyfile(demo_path(own_settings.data_dir), other)
    settings = own_settings.model_copy(update={"warehouse_url": f"duckdb:///{other}"})
    warehouse = open_warehouse(settings)
    try:
        assert not warehouse.is_demo and groundwork_cache.cache_path(settings, warehouse) is None
    finally:
        warehouse.close()


def test_a_tree_is_named_by_its_files_outside_pycache_folders_as_rglob_found_them(tmp_path):
    """The tree walk skips __pycache__ folders without entering them; the name it gives is the one a
    walk over every path (rglob, filtered after) gave, so files kept before are still found."""
    import hashlib

    root = tmp_path / "tree"
    for relative, text in {"a.py": "1", "b/c.yaml": "2", "b/__pycache__/c.cpython-311.pyc": "x",
                           "b/d/e.py": "3", "__pycache__/a.pyc": "y", "notes.txt": "4"}.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "f.py").write_text("5")
    (root / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)

    digests = FileDigests(tmp_path / "digests.json")

    def by_rglob(suffixes):
        digest = hashlib.sha256()
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            if suffixes is None or path.suffix in suffixes:
                digest.update(str(path.relative_to(root)).encode() + b"\0")
                groundwork_cache._hash_file(digest, path, digests)
        return digest.hexdigest()

    for suffixes in (groundwork_cache.CODE_SUFFIXES, None):
        digest = hashlib.sha256()
        groundwork_cache._hash_tree(digest, root, suffixes, digests)
        assert digest.hexdigest() == by_rglob(suffixes)
    assert sorted(p.name for p in groundwork_cache._files_under(root)) == ["a.py", "c.yaml", "e.py", "notes.txt"]
