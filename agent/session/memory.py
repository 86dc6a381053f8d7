"""Sessions kept in this process (no REDIS_URL) with a bound, like Redis keeps them with a TTL.

LangGraph's `InMemorySaver` keeps every checkpoint of every session forever (about 0.3 MiB per
answer). Here a session keeps only its latest checkpoint per namespace (nothing reads older ones:
no time travel, no history), with the writes and channel values it refers to; a session idle past
`SESSION_IDLE_TTL_S` is dropped, and past `MEMORY_SESSIONS_MAX` sessions the least recently used goes.
What it keeps is compressed (`Compressed`): a session's values are JSON-like text, a third the size zipped.
"""

from __future__ import annotations

import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata
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
        return kind + _ZLIB, zlib.compress(data, 1)

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
        # (session, namespace) -> the channel-value keys written there, to drop the ones superseded
        self._blob_keys: dict[tuple[str, str], set[tuple[str, str, str, Any]]] = {}

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
            for key in self._blob_keys.pop((thread_id, ns), set()):
                self.blobs.pop(key, None)
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
        current = checkpoint["channel_versions"]
        keys = self._blob_keys.setdefault((thread_id, ns), set())
        keys.update((thread_id, ns, channel, version) for channel, version in new_versions.items())
        for key in [k for k in keys if current.get(k[2]) != k[3]]:
            keys.discard(key)
            self.blobs.pop(key, None)

    def _touch(self, thread_id: str) -> None:
        now = self._clock()
        self._last_used[thread_id] = now
        self._last_used.move_to_end(thread_id)
        while self._last_used:
            oldest, used = next(iter(self._last_used.items()))
            if len(self._last_used) <= self.max_sessions and now - used <= self.idle_ttl_s:
                break
            self.delete_thread(oldest)
