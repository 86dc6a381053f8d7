"""Files' digests kept in the data folder: used again while a file is unchanged, never for a file that
changed since, even one written back to its old size and modification time."""

from __future__ import annotations

import hashlib
import os
import time

import pytest

from agent import file_digests
from agent.file_digests import FileDigests


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "warehouse.duckdb"
    path.write_bytes(b"a" * 1000)
    return path


@pytest.fixture
def kept(tmp_path):
    return tmp_path / "cache" / "digests.json"


def settled(monkeypatch):
    """The clock moved on: files written by the test have been unchanged for long enough to be kept."""
    now = time.time_ns()
    monkeypatch.setattr(file_digests.time, "time_ns", lambda: now + 10 * file_digests.SETTLED_NS)


def reads(monkeypatch) -> list:
    """From now on, the files whose content is read to be hashed."""
    read = []
    real = file_digests._sha256
    monkeypatch.setattr(file_digests, "_sha256", lambda path: read.append(path) or real(path))
    return read


def sha256(path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def test_the_next_start_uses_the_kept_digest_of_an_unchanged_file(data, kept, monkeypatch):
    settled(monkeypatch)
    first = FileDigests(kept)
    assert first.digest(data) == sha256(data)
    first.save()
    read = reads(monkeypatch)
    assert FileDigests(kept).digest(data) == sha256(data)
    assert read == []


def test_a_file_written_again_with_its_old_size_and_time_stamp_is_read_again(data, kept, monkeypatch):
    before = data.stat()
    settled(monkeypatch)
    first = FileDigests(kept)
    first.digest(data)
    first.save()
    time.sleep(0.05)  # the file system's clock ticks (a few milliseconds at most): the write below is later
    data.write_bytes(b"b" * 1000)
    os.utime(data, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `touch -d` or an archive tool sets it back
    read = reads(monkeypatch)
    assert FileDigests(kept).digest(data) == sha256(data) != hashlib.sha256(b"a" * 1000).digest()
    assert read == [data]


def test_a_file_changed_moments_ago_is_hashed_but_its_digest_not_kept(data, kept, monkeypatch):
    digests = FileDigests(kept)
    assert digests.digest(data) == sha256(data)
    digests.save()
    read = reads(monkeypatch)
    FileDigests(kept).digest(data)
    assert read == [data]


def test_a_damaged_file_of_digests_is_ignored_and_replaced(data, kept, monkeypatch):
    kept.parent.mkdir()
    kept.write_text('{"cut sh')
    settled(monkeypatch)
    digests = FileDigests(kept)
    assert digests.digest(data) == sha256(data)
    digests.save()
    read = reads(monkeypatch)
    FileDigests(kept).digest(data)
    assert read == []
