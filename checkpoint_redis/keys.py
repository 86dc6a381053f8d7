"""Where the Redis checkpointer keeps things: key names and field encodings.

Every key of a thread carries the thread id inside `{…}` so one thread's keys read as a
group (and share a slot, should the data ever move to a cluster). Thread ids and
namespaces are percent-encoded, so a `:` or `}` in them can never blur two keys together.

A thread has a fixed set of keys, however long it runs: two thread-level sets plus five
keys per checkpoint namespace. That keeps "refresh the TTL of the whole thread" and
"delete the thread" a handful of commands instead of one per checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, unquote

DEFAULT_PREFIX = "sda:cp:"
_NAMESPACES_SUFFIX = "}:namespaces"


def _escape(text: str) -> str:
    return quote(text, safe="")


def _glob_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "*?[]\\" else ch for ch in text)


@dataclass(frozen=True)
class NamespaceKeys:
    """The five keys of one (thread, checkpoint namespace)."""

    order: str  # sorted set, all scores 0: checkpoint ids in lexicographic (= time) order
    checkpoints: str  # hash: checkpoint id -> packed checkpoint record
    blobs: str  # hash: blob_field(channel, version) -> packed channel value
    writes: str  # hash: write_field(checkpoint id, task id, idx) -> packed write
    write_index: str  # sorted set, all scores 0: the write fields, so one checkpoint's writes are a lex range

    def all(self) -> tuple[str, ...]:
        return (self.order, self.checkpoints, self.blobs, self.writes, self.write_index)


@dataclass(frozen=True)
class ThreadKeys:
    base: str
    namespaces: str  # set of the thread's checkpoint namespaces
    runs: str  # set of run ids that wrote checkpoints in the thread

    def ns(self, checkpoint_ns: str) -> NamespaceKeys:
        stem = f"{self.base}:ns:{_escape(checkpoint_ns)}"
        return NamespaceKeys(
            order=f"{stem}:order",
            checkpoints=f"{stem}:checkpoints",
            blobs=f"{stem}:blobs",
            writes=f"{stem}:writes",
            write_index=f"{stem}:write_index",
        )

    def all(self, namespaces: Iterable[str]) -> list[str]:
        keys = [self.namespaces, self.runs]
        for ns in namespaces:
            keys.extend(self.ns(ns).all())
        return keys


@dataclass(frozen=True)
class Keyspace:
    prefix: str = DEFAULT_PREFIX

    def thread(self, thread_id: str) -> ThreadKeys:
        base = f"{self.prefix}{{{_escape(thread_id)}}}"
        return ThreadKeys(base=base, namespaces=f"{base}:namespaces", runs=f"{base}:runs")

    def run(self, run_id: str) -> str:
        """Set of packed (thread id, namespace, checkpoint id) written by one run."""
        return f"{self.prefix}run:{_escape(run_id)}"

    def threads_pattern(self) -> str:
        """SCAN pattern matching exactly one key per stored thread."""
        return f"{_glob_escape(self.prefix)}{{*{_NAMESPACES_SUFFIX}"

    def thread_id_of(self, namespaces_key: str) -> str:
        return unquote(namespaces_key[len(self.prefix) + 1 : -len(_NAMESPACES_SUFFIX)])


def blob_field(channel: str, version: object) -> str:
    return f"{channel}\x00{version}"


def write_field(checkpoint_id: str, task_id: str, idx: int) -> str:
    return f"{checkpoint_id}\x00{task_id}\x00{idx}"


def write_range(checkpoint_id: str) -> tuple[bytes, bytes]:
    """ZRANGEBYLEX bounds covering exactly the write fields of one checkpoint."""
    stem = checkpoint_id.encode()
    return b"[" + stem + b"\x00", b"(" + stem + b"\x01"
