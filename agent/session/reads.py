"""A turn reads its session's checkpoint once (issue 23): the API's reading is the one the run resumes from.

A turn (an ask, a resume, a direct tool run) starts by reading the session (`agent.session.read`: is a
question pending, whose is it), then LangGraph's run reads the same latest checkpoint again to start
from it. Each read fetches every channel and decodes it (in Redis, after a round trip). `ReadOnce` wraps
the saver the graph is compiled with: while a turn holds its session (`turn`, taken with the session's
lock), the latest checkpoint read for it is kept and the next read is answered from it; a write to the
session (a checkpoint, pending writes, a deletion) forgets it, so a read after a run fetches what the
run wrote. Outside a turn, and for a namespace or a checkpoint named by id, every read goes to the saver.

Each read gets its own copy of the checkpoint's dicts (LangGraph's run updates its versions in place);
the channel values themselves are shared, as they are between a run's steps.

Imported where the graph is built (it imports LangGraph), not by `agent.api` at import time.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    copy_checkpoint,
)


class ReadOnce(BaseCheckpointSaver[Any]):
    """`saver`, with a session's latest checkpoint read once per turn (see the module's doc)."""

    def __init__(self, saver: BaseCheckpointSaver[Any]) -> None:
        super().__init__(serde=saver.serde)
        self.saver = saver
        # The saver's own versions, called by LangGraph for every channel a step writes: no frame of ours
        # between them (a wrapper method here would be a call per channel for nothing).
        self.get_next_version = saver.get_next_version  # type: ignore[method-assign]
        self._turns: set[str] = set()  # sessions a turn holds now
        self._read: dict[str, CheckpointTuple | None] = {}  # session -> its latest checkpoint, read this turn

    @contextmanager
    def turn(self, thread_id: str) -> Iterator[None]:
        """While this holds (under the session's lock), `thread_id`'s latest checkpoint is read once."""
        self._turns.add(thread_id)
        try:
            yield
        finally:
            self._turns.discard(thread_id)
            self._read.pop(thread_id, None)

    def __getattr__(self, name: str) -> Any:
        """What else the saver offers (`durability`, `aclose`, `sessions`), as the saver's own."""
        if name == "saver":  # not set yet (a copy being made): no saver to ask
            raise AttributeError(name)
        return getattr(self.saver, name)

    # -- reads ------------------------------------------------------------------------------------

    def _kept_for(self, config: RunnableConfig) -> str | None:
        """The session whose reading is kept for `config`: a turn's session, read at its latest checkpoint."""
        configurable = config.get("configurable") or {}
        thread_id = configurable.get("thread_id")
        if thread_id is None or configurable.get("checkpoint_ns") or configurable.get("checkpoint_id"):
            return None
        thread_id = str(thread_id)
        return thread_id if thread_id in self._turns else None

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id = self._kept_for(config)
        if thread_id is None:
            return self.saver.get_tuple(config)
        if thread_id not in self._read:
            self._read[thread_id] = self.saver.get_tuple(config)
        return _copied(self._read[thread_id])

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id = self._kept_for(config)
        if thread_id is None:
            return await self.saver.aget_tuple(config)
        if thread_id not in self._read:
            self._read[thread_id] = await self.saver.aget_tuple(config)
        return _copied(self._read[thread_id])

    def list(
        self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None, limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        return self.saver.list(config, filter=filter, before=before, limit=limit)

    def alist(
        self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None, limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        return self.saver.alist(config, filter=filter, before=before, limit=limit)

    @property
    def config_specs(self) -> builtins.list[Any]:
        return self.saver.config_specs

    def with_allowlist(self, extra_allowlist: Collection[tuple[str, ...]]) -> BaseCheckpointSaver[Any]:
        saver = self.saver.with_allowlist(extra_allowlist)
        return self if saver is self.saver else ReadOnce(saver)

    # -- writes: each forgets the session's reading --------------------------------------------------

    def _forget(self, config: RunnableConfig) -> None:
        self._read.pop(str((config.get("configurable") or {}).get("thread_id")), None)

    def put(
        self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, new_versions: ChannelVersions
    ) -> RunnableConfig:
        self._forget(config)
        return self.saver.put(config, checkpoint, metadata, new_versions)

    async def aput(
        self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, new_versions: ChannelVersions
    ) -> RunnableConfig:
        self._forget(config)
        return await self.saver.aput(config, checkpoint, metadata, new_versions)

    def put_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        self._forget(config)
        self.saver.put_writes(config, writes, task_id, task_path)

    async def aput_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        self._forget(config)
        await self.saver.aput_writes(config, writes, task_id, task_path)

    def delete_thread(self, thread_id: str) -> None:
        self._read.pop(thread_id, None)
        self.saver.delete_thread(thread_id)

    async def adelete_thread(self, thread_id: str) -> None:
        self._read.pop(thread_id, None)
        await self.saver.adelete_thread(thread_id)


def _copied(saved: CheckpointTuple | None) -> CheckpointTuple | None:
    if saved is None:
        return None
    return saved._replace(checkpoint=copy_checkpoint(saved.checkpoint),
                          pending_writes=list(saved.pending_writes) if saved.pending_writes is not None else None)
