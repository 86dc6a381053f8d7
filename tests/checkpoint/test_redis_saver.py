"""Behaviour the conformance suite does not cover: idle TTL, key layout, cleanup, failure."""

from __future__ import annotations

import asyncio
import socket

import pytest
import redis
from langgraph.checkpoint.conformance.test_utils import (
    generate_checkpoint,
    generate_config,
    generate_metadata,
)
from redis.asyncio import Redis

from checkpoint_redis import AsyncRedisSaver


async def _put(saver, thread_id, *, ns="", values=None, parent=None, run_id="run-1"):
    config = generate_config(thread_id, checkpoint_ns=ns)
    if parent is not None:
        config["configurable"]["checkpoint_id"] = parent["configurable"]["checkpoint_id"]
    values = values or {}
    checkpoint = generate_checkpoint(channel_values=values)
    versions = {channel: saver.get_next_version(None, None) for channel in values}
    checkpoint["channel_versions"] = versions
    return await saver.aput(config, checkpoint, generate_metadata(run_id=run_id), versions)


async def _keys(client, prefix):
    return sorted([key async for key in client.scan_iter(match=f"{prefix}*", count=1000)])


async def test_every_key_of_a_thread_gets_the_idle_ttl(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix, ttl_seconds=600)
    stored = await _put(saver, "T1", values={"messages": ["hi"]})
    await _put(saver, "T1", ns="child:1", values={"x": 1})
    await saver.aput_writes(stored, [("messages", "more")], "task-1")

    keys = await _keys(redis_client, key_prefix)
    # namespaces + runs + run index, 5 keys for the root namespace, 3 for the child (no writes there)
    assert len(keys) == 11
    for key in keys:
        assert 0 < await redis_client.ttl(key) <= 600, key


async def test_a_write_refreshes_the_ttl_of_the_whole_thread(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix, ttl_seconds=600)
    stored = await _put(saver, "T1", values={"a": 1})
    await _put(saver, "T1", ns="child:1", values={"b": 2})
    await _put(saver, "OTHER", values={"c": 3})
    thread_keys = [k for k in await _keys(redis_client, key_prefix) if b"{T1}" in k]
    other_keys = [k for k in await _keys(redis_client, key_prefix) if b"{OTHER}" in k]
    for key in thread_keys + other_keys:
        await redis_client.expire(key, 30)

    # A write to the root namespace must also keep the sub-graph namespace alive.
    await saver.aput_writes(stored, [("a", 5)], "task-1")

    for key in thread_keys:
        assert await redis_client.ttl(key) > 30, key
    for key in other_keys:
        assert await redis_client.ttl(key) <= 30, key


async def test_without_ttl_nothing_expires(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix, ttl_seconds=None)
    await _put(saver, "T1", values={"a": 1})
    for key in await _keys(redis_client, key_prefix):
        assert await redis_client.ttl(key) == -1, key


async def test_separators_in_ids_cannot_mix_up_threads_or_namespaces(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix)
    await _put(saver, "a:b", ns="c", values={"v": "first"})
    await _put(saver, "a", ns="b:c", values={"v": "second"})
    await _put(saver, "x}:ns:{y", values={"v": "third"})

    first = await saver.aget_tuple(generate_config("a:b", checkpoint_ns="c"))
    second = await saver.aget_tuple(generate_config("a", checkpoint_ns="b:c"))
    third = await saver.aget_tuple(generate_config("x}:ns:{y"))
    assert first.checkpoint["channel_values"] == {"v": "first"}
    assert second.checkpoint["channel_values"] == {"v": "second"}
    assert third.checkpoint["channel_values"] == {"v": "third"}
    assert await saver.aget_tuple(generate_config("a", checkpoint_ns="c")) is None


async def test_listing_without_a_config_covers_every_thread_under_the_prefix(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix)
    for thread_id in ("T1", "T2:with:colons"):
        parent = await _put(saver, thread_id)
        await _put(saver, thread_id, parent=parent)
    other = AsyncRedisSaver(redis_client, prefix=key_prefix + "other:")
    await _put(other, "T3")

    listed = [t.config["configurable"]["thread_id"] async for t in saver.alist(None)]
    assert sorted(listed) == ["T1", "T1", "T2:with:colons", "T2:with:colons"]
    assert len([t async for t in saver.alist(None, limit=3)]) == 3
    await other.adelete_thread("T3")


async def test_deleting_a_thread_leaves_no_key_behind(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix, ttl_seconds=600)
    parent = await _put(saver, "T1", values={"a": 1}, run_id="run-A")
    child = await _put(saver, "T1", ns="child:1", values={"b": 1}, run_id="run-B")
    await saver.aput_writes(parent, [("a", 2)], "task")
    await saver.aput_writes(child, [("b", 2)], "task")
    await saver.acopy_thread("T1", "T2")

    await saver.adelete_thread("T1")
    remaining = await _keys(redis_client, key_prefix)
    assert remaining and all(b"{T1}" not in key for key in remaining)

    # The run index now points only at the copy; deleting the run empties everything.
    await saver.adelete_for_runs(["run-A", "run-B"])
    assert [t async for t in saver.alist(generate_config("T2"))] == []
    await saver.adelete_thread("T2")
    assert await _keys(redis_client, key_prefix) == []


async def test_keep_latest_prune_drops_blobs_no_checkpoint_uses(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix)
    first = await _put(saver, "T1", values={"a": "old", "b": "kept"})
    kept_b = (await saver.aget_tuple(first)).checkpoint["channel_versions"]["b"]
    config = generate_config("T1")
    config["configurable"]["checkpoint_id"] = first["configurable"]["checkpoint_id"]
    checkpoint = generate_checkpoint(channel_values={"a": "new", "b": "kept"})
    new_a = saver.get_next_version(None, None)
    checkpoint["channel_versions"] = {"a": new_a, "b": kept_b}
    latest = await saver.aput(config, checkpoint, generate_metadata(), {"a": new_a})

    await saver.aprune(["T1"], strategy="keep_latest")

    [blobs_key] = [k for k in await _keys(redis_client, key_prefix) if k.endswith(b":blobs")]
    assert await redis_client.hlen(blobs_key) == 2
    survivor = await saver.aget_tuple(generate_config("T1"))
    assert survivor.config == latest
    assert survivor.checkpoint["channel_values"] == {"a": "new", "b": "kept"}
    with pytest.raises(ValueError, match="Unknown prune strategy"):
        await saver.aprune(["T1"], strategy="keep_some")


async def test_a_client_that_decodes_responses_is_refused(redis_url):
    client = Redis.from_url(redis_url, decode_responses=True)
    with pytest.raises(ValueError, match="decode_responses=False"):
        AsyncRedisSaver(client)
    await client.aclose()


async def test_sync_calls_say_the_saver_is_async_only(redis_client, key_prefix):
    saver = AsyncRedisSaver(redis_client, prefix=key_prefix)
    with pytest.raises(NotImplementedError, match="aget_tuple"):
        saver.get_tuple(generate_config("T1"))


def _unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_unreachable_redis_raises_a_connection_error_instead_of_hanging():
    saver = AsyncRedisSaver.from_url(f"redis://127.0.0.1:{_unused_port()}/0", socket_timeout_s=0.5, retries=1)
    async with saver:
        # wait_for only turns a hang into a failure; it is not a timing assertion.
        with pytest.raises(redis.exceptions.ConnectionError):
            await asyncio.wait_for(saver.aget_tuple(generate_config("T1")), timeout=30)
        with pytest.raises(redis.exceptions.ConnectionError):
            await asyncio.wait_for(_put(saver, "T1"), timeout=30)
