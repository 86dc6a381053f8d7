"""Sessions kept in this process (no REDIS_URL) with a bound, like Redis keeps them with a TTL.

LangGraph's `InMemorySaver` keeps every checkpoint of every session forever (about 0.3 MiB per
answer). Here a session keeps only its latest checkpoint per namespace (nothing reads older ones:
no time travel, no history), with the writes and channel values it refers to; a session idle past
`SESSION_IDLE_TTL_S` is dropped, and past `MEMORY_SESSIONS_MAX` sessions the least recently used goes.
What it keeps is compressed (`Compressed`): a session's values are JSON-like text, a third the size zipped.
Nothing else is kept for a session: no value for an empty channel, no second copy of the values' keys,
and no entry for a session only read (a demo session costs ~15 KB of Python heap, 7.6 KB of it its values).
"""

from __future__ import annotations

import sys
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata, CheckpointTuple
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.types import Durability

# Values shorter than this are kept as they are: zlib's own header and table would outweigh the saving.
COMPRESS_FROM_BYTES = 256
_ZLIB = "+zlib"


class Compressed(SerializerProtocol):
    """Another serializer's bytes, zlib-compressed at its fastest level: a session's messages and tool
    outputs shrink about 3× (a session of the demo kept 19 KB, now 7 KB) for about 0.1 ms a value."""

    def __init__(self, inner: SerializerProtocol):
        self.inner = inner

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        kind, data = self.inner.dumps_typed(obj)
        if len(data) < COMPRESS_FROM_BYTES:
            return kind, data
        return sys.intern(kind + _ZLIB), zlib.compress(data, 1)  # one "msgpack+zlib" shared by every value

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        kind, raw = data
        if kind.endswith(_ZLIB):
            return self.inner.loads_typed((kind.removesuffix(_ZLIB), zlib.decompress(raw)))
        return self.inner.loads_typed(data)


class BoundedInMemorySaver(InMemorySaver):
    # A run writes its checkpoint when it ends (answered, paused on a question, failed or stopped), not
    # after every step: this saver keeps only a session's latest checkpoint and dies with the process,
    # so a checkpoint between steps would be compressed only to be dropped by the next (13 of 15 in an
    # ask and its Run). `agent.api` passes this to LangGraph as the run's `durability`.
    durability: Durability = "exit"

    def __init__(self, *, max_sessions: int, idle_ttl_s: float, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.serde = Compressed(self.serde)
        self.max_sessions = max_sessions
        self.idle_ttl_s = idle_ttl_s
        self._clock = clock
        self._last_used: OrderedDict[str, float] = OrderedDict()  # session -> last write, oldest first
        # (session, namespace) -> channel -> the version whose value is kept, to drop it once superseded: the
        # channel's name and version are the very strings in `blobs`' key, so a session pays a dict, not a
        # second copy of every key (a set of them was a fifth of what a demo session kept)
        self._kept: dict[tuple[str, str], dict[str, Any]] = {}

    # InMemorySaver's storage is a defaultdict: its reads of a session it does not hold (never written, or
    # dropped past the cap or idle) left an empty entry behind, one no write touches, so never dropped: a
    # bot asked about old threads (is a question pending?) grew by one per thread. A read adds nothing here.

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        if config["configurable"].get("checkpoint_ns", "") not in self.storage.get(config["configurable"]["thread_id"], {}):
            return None
        return super().get_tuple(config)

    def list(
        self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None, limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        if config is not None and config["configurable"]["thread_id"] not in self.storage:
            return iter(())
        return super().list(config, filter=filter, before=before, limit=limit)

    def put(
        self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, new_versions: ChannelVersions
    ) -> RunnableConfig:
        saved = super().put(config, checkpoint, metadata, new_versions)
        thread_id, ns = config["configurable"]["thread_id"], config["configurable"]["checkpoint_ns"]
        self._keep_latest(thread_id, ns, checkpoint, new_versions)
        self._touch(thread_id)
        return saved

    def put_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        super().put_writes(config, writes, task_id, task_path)
        self._touch(config["configurable"]["thread_id"])

    def delete_thread(self, thread_id: str) -> None:
        namespaces = list(self.storage.get(thread_id, {}))
        self.storage.pop(thread_id, None)
        for ns in namespaces:
            for channel, version in self._kept.pop((thread_id, ns), {}).items():
                self.blobs.pop((thread_id, ns, channel, version), None)
        for write_key in [k for k in self.writes if k[0] == thread_id]:
            del self.writes[write_key]
        self._last_used.pop(thread_id, None)

    @property
    def sessions(self) -> int:
        return len(self._last_used)

    def _keep_latest(self, thread_id: str, ns: str, checkpoint: Checkpoint, new_versions: ChannelVersions) -> None:
        """Drop the namespace's older checkpoints, their writes and the channel values no longer current."""
        checkpoints = self.storage[thread_id][ns]
        for old in [cid for cid in checkpoints if cid != checkpoint["id"]]:
            del checkpoints[old]
            self.writes.pop((thread_id, ns, old), None)
        kept = self._kept.setdefault((thread_id, ns), {})
        values = checkpoint["channel_values"]
        for channel, version in new_versions.items():
            superseded = kept.pop(channel, None)
            if superseded is not None and superseded != version:
                self.blobs.pop((thread_id, ns, channel, superseded), None)
            if channel in values:
                kept[channel] = version
            else:
                # An empty channel (a branch's trigger, `__start__`): LangGraph reads a value it cannot find
                # as empty, so the ("empty", b"") InMemorySaver wrote for it is dropped, a third of the keys.
                self.blobs.pop((thread_id, ns, channel, version), None)
        current = checkpoint["channel_versions"]
        for channel in [c for c, version in kept.items() if current.get(c) != version]:
            self.blobs.pop((thread_id, ns, channel, kept.pop(channel)), None)

    def _touch(self, thread_id: str) -> None:
        now = self._clock()
        self._last_used[thread_id] = now
        self._last_used.move_to_end(thread_id)
        while self._last_used:
            oldest, used = next(iter(self._last_used.items()))
            if len(self._last_used) <= self.max_sessions and now - used <= self.idle_ttl_s:
                break
            self.delete_thread(oldest)
