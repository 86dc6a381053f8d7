"""A LangGraph checkpointer on plain Redis (no RedisJSON, no RediSearch).

The maintained `langgraph-checkpoint-redis` needs the Redis Stack modules; this one uses
only hashes, sets and sorted sets, so it runs on any Redis >= 6.2. Layout (see `keys.py`):
per (thread, namespace) a sorted set orders checkpoint ids, hashes hold checkpoints,
channel blobs and pending writes, and a sorted set indexes the writes by checkpoint.
Values go through `self.serde`; the small records around them are msgpack.

Sessions expire after `ttl_seconds` of idleness: every write refreshes the TTL of every
key of its thread, so a conversation lives as long as someone keeps talking to it.

Async only: the agent runs graphs with `ainvoke`/`astream`, and a sync facade over an
async client would block the event loop that the client needs.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import ormsgpack
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_serializable_checkpoint_metadata,
    writes_sort_key,
)
from langgraph.checkpoint.serde.base import SerializerProtocol
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.typing import EncodableT

from checkpoint_redis.keys import (
    DEFAULT_PREFIX,
    Keyspace,
    NamespaceKeys,
    ThreadKeys,
    blob_field,
    write_field,
    write_range,
)

# A channel listed in new_versions without a value (it was cleared) is stored as this
# type, so loading skips it instead of resurrecting an older value.
_EMPTY = "empty"
_LIST_PAGE = 50


def _pack(*parts: Any) -> bytes:
    return ormsgpack.packb(list(parts))


def _unpack(raw: bytes | str) -> list[Any]:
    """A record `_pack` wrote. redis-py types a reply as bytes or text; the saver's client does not
    decode replies (checked when the saver is made), so text here is a broken client, said as such."""
    if isinstance(raw, str):
        raise TypeError("AsyncRedisSaver read a decoded reply: its client must use decode_responses=False.")
    record: list[Any] = ormsgpack.unpackb(raw)
    return record


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _thread_and_ns(config: RunnableConfig) -> tuple[str, str]:
    configurable = config["configurable"]
    return str(configurable["thread_id"]), configurable.get("checkpoint_ns", "")


def _config(thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> RunnableConfig:
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": checkpoint_ns,
            "checkpoint_id": checkpoint_id,
        }
    }


@dataclass(frozen=True)
class _Stored:
    """One checkpoint as read back, before its channel values and writes are attached."""

    checkpoint_id: str
    checkpoint: Checkpoint  # without channel_values
    metadata: CheckpointMetadata
    parent_id: str | None


class AsyncRedisSaver(BaseCheckpointSaver[str]):
    """Checkpoints in plain Redis; give it a `redis.asyncio.Redis` with decode_responses=False."""

    def __init__(
        self,
        client: Redis,
        *,
        ttl_seconds: int | None = None,
        prefix: str = DEFAULT_PREFIX,
        serde: SerializerProtocol | None = None,
    ) -> None:
        super().__init__(serde=serde)
        # redis-py leaves get_connection_kwargs unannotated.
        if client.get_connection_kwargs().get("decode_responses"):  # type: ignore[no-untyped-call]
            raise ValueError(
                "AsyncRedisSaver needs a Redis client with decode_responses=False: "
                "checkpoints are stored as bytes."
            )
        if ttl_seconds is not None and ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be a positive number of seconds, or None for no expiry.")
        self._redis = client
        self._ttl = ttl_seconds
        self._keys = Keyspace(prefix)
        self._owns_client = False

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        ttl_seconds: int | None = None,
        prefix: str = DEFAULT_PREFIX,
        socket_timeout_s: float = 5.0,
        retries: int = 2,
        serde: SerializerProtocol | None = None,
    ) -> AsyncRedisSaver:
        """A saver owning its own client; close it with `aclose()` or `async with`.

        Few retries and a socket timeout on purpose: when Redis is down, a request should
        fail with a ConnectionError in seconds rather than wait out redis-py's defaults.
        """
        client = Redis.from_url(
            url,
            decode_responses=False,
            socket_timeout=socket_timeout_s,
            socket_connect_timeout=socket_timeout_s,
            retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries),
        )
        saver = cls(client, ttl_seconds=ttl_seconds, prefix=prefix, serde=serde)
        saver._owns_client = True
        return saver

    async def aclose(self) -> None:
        if self._owns_client:
            await self._redis.aclose()

    async def __aenter__(self) -> AsyncRedisSaver:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # ----------------------------------------------------------------- reads

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id, ns = _thread_and_ns(config)
        keys = self._keys.thread(thread_id).ns(ns)
        checkpoint_id = get_checkpoint_id(config)
        if checkpoint_id is None:
            latest = await self._redis.zrevrangebylex(keys.order, "+", "-", start=0, num=1)
            if not latest:
                return None
            checkpoint_id = _text(latest[0])
        raw = await self._redis.hget(keys.checkpoints, checkpoint_id)
        if raw is None:
            return None
        [found] = await self._attach(thread_id, ns, [self._decode(checkpoint_id, raw)])
        return found

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        """Newest first per namespace; without a config, every thread under the prefix."""
        remaining = limit
        if remaining is not None and remaining <= 0:
            return
        only_id = get_checkpoint_id(config) if config else None
        before_id = get_checkpoint_id(before) if before else None
        for thread_id in await self._thread_ids(config):
            thread = self._keys.thread(thread_id)
            if config is not None and "checkpoint_ns" in config["configurable"]:
                namespaces = [config["configurable"]["checkpoint_ns"]]
            else:
                namespaces = sorted(_text(ns) for ns in await self._redis.smembers(thread.namespaces))
            for ns in namespaces:
                async for found in self._list_namespace(
                    thread_id, ns, only_id=only_id, before_id=before_id, filter=filter, limit=remaining
                ):
                    yield found
                    if remaining is not None:
                        remaining -= 1
                        if remaining == 0:
                            return

    async def _thread_ids(self, config: RunnableConfig | None) -> list[str]:
        if config is not None:
            return [str(config["configurable"]["thread_id"])]
        found = {
            self._keys.thread_id_of(_text(key))
            async for key in self._redis.scan_iter(match=self._keys.threads_pattern(), count=500)
        }
        return sorted(found)

    async def _list_namespace(
        self,
        thread_id: str,
        ns: str,
        *,
        only_id: str | None,
        before_id: str | None,
        filter: dict[str, Any] | None,
        limit: int | None,
    ) -> AsyncIterator[CheckpointTuple]:
        keys = self._keys.thread(thread_id).ns(ns)
        if only_id is not None:
            if before_id is not None and only_id >= before_id:
                return
            pages: AsyncIterator[list[str]] = _single_page([only_id])
        else:
            pages = self._id_pages(keys, before_id)
        async for ids in pages:
            raws = await self._redis.hmget(keys.checkpoints, ids)
            stored = [self._decode(cid, raw) for cid, raw in zip(ids, raws, strict=True) if raw is not None]
            matching = [s for s in stored if _matches(s.metadata, filter)]
            if limit is not None:
                matching = matching[:limit]
                limit -= len(matching)
            for found in await self._attach(thread_id, ns, matching):
                yield found
            if limit == 0:
                return

    async def _id_pages(self, keys: NamespaceKeys, before_id: str | None) -> AsyncIterator[list[str]]:
        # Each page starts strictly below the last id seen, so new checkpoints written
        # while we page cannot shift the window.
        upper = f"({before_id}" if before_id is not None else "+"
        while True:
            page = [
                _text(i)
                for i in await self._redis.zrevrangebylex(keys.order, upper, "-", start=0, num=_LIST_PAGE)
            ]
            if not page:
                return
            yield page
            upper = f"({page[-1]}"

    def _decode(self, checkpoint_id: str, raw: bytes | str) -> _Stored:
        cp_type, cp_bytes, md_type, md_bytes, parent_id, _run_id = _unpack(raw)
        return _Stored(
            checkpoint_id=checkpoint_id,
            checkpoint=self.serde.loads_typed((cp_type, cp_bytes)),
            metadata=self.serde.loads_typed((md_type, md_bytes)),
            parent_id=parent_id,
        )

    async def _attach(self, thread_id: str, ns: str, stored: list[_Stored]) -> list[CheckpointTuple]:
        """Load channel values and pending writes for a batch, in two round trips."""
        if not stored:
            return []
        keys = self._keys.thread(thread_id).ns(ns)
        # HMGET refuses an empty field list, so commands are sent only when needed and
        # the replies are consumed in the same order.
        pipe = self._redis.pipeline(transaction=False)
        for s in stored:
            if s.checkpoint["channel_versions"]:
                pipe.hmget(
                    keys.blobs, [blob_field(ch, v) for ch, v in s.checkpoint["channel_versions"].items()]
                )
            pipe.zrangebylex(keys.write_index, *write_range(s.checkpoint_id))
        replies = iter(await pipe.execute())
        blob_replies, field_replies = [], []
        for s in stored:
            blob_replies.append(next(replies) if s.checkpoint["channel_versions"] else [])
            field_replies.append(next(replies))

        pipe = self._redis.pipeline(transaction=False)
        for fields in field_replies:
            if fields:
                pipe.hmget(keys.writes, fields)
        replies = iter(await pipe.execute())
        write_replies = [next(replies) if fields else [] for fields in field_replies]

        tuples = []
        for s, blobs, writes in zip(stored, blob_replies, write_replies, strict=True):
            values = {}
            for channel, raw in zip(s.checkpoint["channel_versions"], blobs, strict=True):
                if raw is None:
                    continue
                blob_type, blob_bytes = _unpack(raw)
                if blob_type != _EMPTY:
                    values[channel] = self.serde.loads_typed((blob_type, blob_bytes))
            pending = sorted(
                (_unpack(raw) for raw in writes if raw is not None),
                key=lambda w: writes_sort_key(w[2], w[0], w[3]),
            )
            tuples.append(
                CheckpointTuple(
                    config=_config(thread_id, ns, s.checkpoint_id),
                    checkpoint={**s.checkpoint, "channel_values": values},
                    metadata=s.metadata,
                    parent_config=_config(thread_id, ns, s.parent_id) if s.parent_id else None,
                    pending_writes=[
                        (task_id, channel, self.serde.loads_typed((value_type, value_bytes)))
                        for task_id, channel, _path, _idx, value_type, value_bytes in pending
                    ],
                )
            )
        return tuples

    # ---------------------------------------------------------------- writes

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        thread_id, ns = _thread_and_ns(config)
        thread = self._keys.thread(thread_id)
        keys = thread.ns(ns)
        checkpoint_id = checkpoint["id"]
        stripped = checkpoint.copy()
        values: dict[str, Any] = stripped.pop("channel_values")  # type: ignore[misc]
        stored_metadata = get_serializable_checkpoint_metadata(config, metadata)
        run_id = stored_metadata.get("run_id")
        run_id = str(run_id) if run_id is not None else None
        record = _pack(
            *self.serde.dumps_typed(stripped),
            *self.serde.dumps_typed(stored_metadata),
            config["configurable"].get("checkpoint_id"),
            run_id,
        )
        blobs: dict[EncodableT, EncodableT] = {
            blob_field(channel, version): _pack(
                *(self.serde.dumps_typed(values[channel]) if channel in values else (_EMPTY, b""))
            )
            for channel, version in new_versions.items()
        }

        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(keys.checkpoints, checkpoint_id, record)
        pipe.zadd(keys.order, {checkpoint_id: 0})
        if blobs:
            pipe.hset(keys.blobs, mapping=blobs)
        pipe.sadd(thread.namespaces, ns)
        run_keys = []
        if run_id is not None:
            run_keys.append(self._keys.run(run_id))
            pipe.sadd(run_keys[0], _pack(thread_id, ns, checkpoint_id))
            pipe.sadd(thread.runs, run_id)
        await self._execute_and_refresh(pipe, thread, {ns}, run_keys)
        return _config(thread_id, ns, checkpoint_id)

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        thread_id, ns = _thread_and_ns(config)
        thread = self._keys.thread(thread_id)
        keys = thread.ns(ns)
        checkpoint_id = config["configurable"]["checkpoint_id"]
        pipe = self._redis.pipeline(transaction=True)
        for position, (channel, value) in enumerate(writes):
            idx = WRITES_IDX_MAP.get(channel, position)
            field = write_field(checkpoint_id, task_id, idx)
            record = _pack(task_id, channel, task_path, idx, *self.serde.dumps_typed(value))
            # A retried task re-sends its regular writes: keep the first copy. Special
            # writes (error, interrupt, resume) replace the previous one, as in LangGraph.
            if idx >= 0:
                pipe.hsetnx(keys.writes, field, record)
            else:
                pipe.hset(keys.writes, field, record)
            pipe.zadd(keys.write_index, {field: 0})
        pipe.sadd(thread.namespaces, ns)
        await self._execute_and_refresh(pipe, thread, {ns}, [])

    async def _execute_and_refresh(
        self, pipe: Pipeline, thread: ThreadKeys, namespaces: set[str], extra_keys: Iterable[str]
    ) -> None:
        """Run the write, then push the whole thread's expiry out to now + TTL.

        The keys of the namespaces just written expire inside the same transaction; the
        thread's other namespaces (sub-graphs) are refreshed right after, in one pipeline.
        """
        if self._ttl is None:
            await pipe.execute()
            return
        for key in [*thread.all(namespaces), *extra_keys]:
            pipe.expire(key, self._ttl)
        pipe.smembers(thread.namespaces)
        replies = await pipe.execute()
        others = {_text(ns) for ns in replies[-1]} - namespaces
        if others:
            refresh = self._redis.pipeline(transaction=False)
            for ns in others:
                for key in thread.ns(ns).all():
                    refresh.expire(key, self._ttl)
            await refresh.execute()

    def get_next_version(self, current: str | None, channel: None) -> str:
        # Same scheme as LangGraph's own savers: a monotonic counter plus a random
        # fraction, so two forks of a thread never give one version to two different values.
        if current is None:
            counter = 0
        elif isinstance(current, int):
            counter = current
        else:
            counter = int(current.split(".")[0])
        return f"{counter + 1:032}.{random.random():016}"

    # -------------------------------------------------------------- deletion

    async def adelete_thread(self, thread_id: str) -> None:
        thread = self._keys.thread(thread_id)
        pipe = self._redis.pipeline(transaction=False)
        pipe.smembers(thread.namespaces)
        pipe.smembers(thread.runs)
        raw_namespaces, raw_runs = await pipe.execute()
        run_keys = [self._keys.run(_text(run_id)) for run_id in raw_runs]
        pipe = self._redis.pipeline(transaction=False)
        for key in run_keys:
            pipe.smembers(key)
        run_members = await pipe.execute()

        pipe = self._redis.pipeline(transaction=True)
        for key, members in zip(run_keys, run_members, strict=True):
            ours = [m for m in members if _unpack(m)[0] == thread_id]
            if ours:
                pipe.srem(key, *ours)
        pipe.delete(*thread.all(_text(ns) for ns in raw_namespaces))
        await pipe.execute()

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        for run_id in run_ids:
            run_key = self._keys.run(str(run_id))
            by_namespace: dict[tuple[str, str], list[str]] = defaultdict(list)
            for member in await self._redis.smembers(run_key):
                thread_id, ns, checkpoint_id = _unpack(member)
                by_namespace[(thread_id, ns)].append(checkpoint_id)
            for (thread_id, ns), checkpoint_ids in by_namespace.items():
                await self._delete_checkpoints(thread_id, ns, checkpoint_ids)
            pipe = self._redis.pipeline(transaction=True)
            pipe.delete(run_key)
            for thread_id in {thread_id for thread_id, _ in by_namespace}:
                pipe.srem(self._keys.thread(thread_id).runs, str(run_id))
            await pipe.execute()

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """`keep_latest` keeps the newest checkpoint of each namespace; `delete` drops the thread.

        Not DeltaChannel-aware: the graphs here use none, and keep_latest drops ancestors.
        """
        if strategy == "delete":
            for thread_id in thread_ids:
                await self.adelete_thread(thread_id)
            return
        if strategy != "keep_latest":
            raise ValueError(f"Unknown prune strategy {strategy!r}: use 'keep_latest' or 'delete'.")
        for thread_id in thread_ids:
            thread = self._keys.thread(thread_id)
            for raw_ns in await self._redis.smembers(thread.namespaces):
                await self._keep_latest(thread_id, _text(raw_ns))

    async def _keep_latest(self, thread_id: str, ns: str) -> None:
        keys = self._keys.thread(thread_id).ns(ns)
        # redis-py types zrange's members as if they came with their scores; without withscores they do not.
        ids = [_text(i) for i in await self._redis.zrange(keys.order, 0, -1)]  # type: ignore[arg-type]
        if not ids:
            return
        latest = ids[-1]
        await self._delete_checkpoints(thread_id, ns, ids[:-1])
        # With one checkpoint left, any blob it does not reference is unreachable.
        raw = await self._redis.hget(keys.checkpoints, latest)
        if raw is None:
            return
        wanted = {
            blob_field(ch, v).encode()
            for ch, v in self._decode(latest, raw).checkpoint["channel_versions"].items()
        }
        unused = [field for field in await self._redis.hkeys(keys.blobs) if field not in wanted]
        if unused:
            await self._redis.hdel(keys.blobs, *unused)

    async def _delete_checkpoints(self, thread_id: str, ns: str, checkpoint_ids: list[str]) -> None:
        """Drop checkpoints with their writes and run-index entries.

        Channel blobs stay: versions are shared between checkpoints, and they go when the
        thread is deleted or expires.
        """
        if not checkpoint_ids:
            return
        keys = self._keys.thread(thread_id).ns(ns)
        pipe = self._redis.pipeline(transaction=False)
        pipe.hmget(keys.checkpoints, checkpoint_ids)
        for checkpoint_id in checkpoint_ids:
            pipe.zrangebylex(keys.write_index, *write_range(checkpoint_id))
        records, *write_fields = await pipe.execute()

        pipe = self._redis.pipeline(transaction=True)
        pipe.hdel(keys.checkpoints, *checkpoint_ids)
        pipe.zrem(keys.order, *checkpoint_ids)
        fields = [f for per_checkpoint in write_fields for f in per_checkpoint]
        if fields:
            pipe.hdel(keys.writes, *fields)
            pipe.zrem(keys.write_index, *fields)
        for checkpoint_id, raw in zip(checkpoint_ids, records, strict=True):
            run_id = _unpack(raw)[5] if raw is not None else None
            if run_id is not None:
                pipe.srem(self._keys.run(run_id), _pack(thread_id, ns, checkpoint_id))
        await pipe.execute()

    # ------------------------------------------------------------------ copy

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy every checkpoint, blob and write; entries already on the target are overwritten."""
        source = self._keys.thread(source_thread_id)
        target = self._keys.thread(target_thread_id)
        namespaces = sorted(_text(ns) for ns in await self._redis.smembers(source.namespaces))
        if not namespaces:
            return
        read = self._redis.pipeline(transaction=False)
        for ns in namespaces:
            keys = source.ns(ns)
            read.hgetall(keys.checkpoints)
            read.hgetall(keys.blobs)
            read.hgetall(keys.writes)
            read.zrange(keys.order, 0, -1)
            read.zrange(keys.write_index, 0, -1)
        replies = await read.execute()

        write = self._redis.pipeline(transaction=True)
        run_keys = set()
        for i, ns in enumerate(namespaces):
            checkpoints, blobs, writes, order, write_index = replies[5 * i : 5 * i + 5]
            keys = target.ns(ns)
            for key, mapping in ((keys.checkpoints, checkpoints), (keys.blobs, blobs), (keys.writes, writes)):
                if mapping:
                    write.hset(key, mapping=mapping)
            for key, members in ((keys.order, order), (keys.write_index, write_index)):
                if members:
                    write.zadd(key, dict.fromkeys(members, 0))
            write.sadd(target.namespaces, ns)
            for checkpoint_id, raw in checkpoints.items():
                run_id = _unpack(raw)[5]
                if run_id is not None:
                    run_keys.add(self._keys.run(run_id))
                    write.sadd(self._keys.run(run_id), _pack(target_thread_id, ns, _text(checkpoint_id)))
                    write.sadd(target.runs, run_id)
        await self._execute_and_refresh(write, target, set(namespaces), run_keys)

    # ------------------------------------------------- sync API: not offered

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        raise _async_only("get_tuple")

    def list(self, config: RunnableConfig | None, **kwargs: Any) -> Any:
        raise _async_only("list")

    def put(self, *args: Any, **kwargs: Any) -> RunnableConfig:
        raise _async_only("put")

    def put_writes(self, *args: Any, **kwargs: Any) -> None:
        raise _async_only("put_writes")

    def delete_thread(self, thread_id: str) -> None:
        raise _async_only("delete_thread")


def _async_only(method: str) -> NotImplementedError:
    return NotImplementedError(
        f"AsyncRedisSaver is async-only: call a{method}() instead of {method}(), and run graphs "
        "with ainvoke/astream/aget_state."
    )


def _matches(metadata: CheckpointMetadata, filter: dict[str, Any] | None) -> bool:
    return not filter or all(metadata.get(key) == value for key, value in filter.items())


async def _single_page(ids: list[str]) -> AsyncIterator[list[str]]:
    yield ids
