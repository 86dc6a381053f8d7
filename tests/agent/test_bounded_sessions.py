"""Sessions kept in-process without Redis are bounded: the latest checkpoint per session, LRU and idle TTL."""

from __future__ import annotations

import gc

from agent.api import Assistant
from agent.session.memory import BoundedInMemorySaver, Compressed


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def ask(assistant: Assistant, session: str, text: str):
    reply = await assistant.reply(assistant.ask(session, text))
    if reply.ask_human and reply.ask_human.kind == "confirm_sql":
        reply = await assistant.reply(assistant.resume(session, "run"))
    assert reply.error is None, reply.error
    return reply


def stored(saver: BoundedInMemorySaver, session: str) -> tuple[int, int, int]:
    """(checkpoints, pending-write sets, channel values) the saver holds for a session."""
    checkpoints = sum(len(by_id) for by_id in saver.storage.get(session, {}).values())
    writes = sum(1 for key in saver.writes if key[0] == session)
    blobs = sum(1 for key in saver.blobs if key[0] == session)
    return checkpoints, writes, blobs


async def test_a_long_conversation_keeps_one_checkpoint_and_stays_the_same_size(offline_context):
    saver = BoundedInMemorySaver(max_sessions=10, idle_ttl_s=3600)
    assistant = Assistant(offline_context, saver)
    await ask(assistant, "long", "average departure delay at JFK")
    await ask(assistant, "long", "now by month")
    after_two = stored(saver, "long")
    follow_up = await ask(assistant, "long", "what about EWR")
    assert "EWR" in follow_up.sql and follow_up.row_count == 12  # the history it needs is still there
    assert stored(saver, "long") == after_two and after_two[0] == 1


async def test_past_the_cap_the_least_recently_used_session_is_forgotten(offline_context):
    saver = BoundedInMemorySaver(max_sessions=2, idle_ttl_s=3600)
    assistant = Assistant(offline_context, saver)
    for session in ("a", "b"):
        await ask(assistant, session, "number of flights by origin")
    await ask(assistant, "a", "now by month")  # a is used again: b is now the least recent
    await ask(assistant, "c", "number of flights by origin")
    assert saver.sessions == 2 and stored(saver, "b") == (0, 0, 0)
    assert stored(saver, "a")[0] == 1 and stored(saver, "c")[0] == 1


async def test_an_idle_session_expires_like_a_redis_one(offline_context):
    clock = Clock()
    saver = BoundedInMemorySaver(max_sessions=10, idle_ttl_s=60, clock=clock)
    assistant = Assistant(offline_context, saver)
    await ask(assistant, "idle", "number of flights by origin")
    clock.now = 61
    await ask(assistant, "busy", "number of flights by origin")
    assert stored(saver, "idle") == (0, 0, 0) and saver.sessions == 1
    snapshot = await assistant.graph.aget_state({"configurable": {"thread_id": "idle"}})
    assert snapshot.values == {}


async def test_a_session_lock_is_kept_only_while_a_turn_uses_it(offline_context):
    assistant = Assistant(offline_context, BoundedInMemorySaver(max_sessions=10, idle_ttl_s=3600))
    await ask(assistant, "locked", "number of flights by origin")
    gc.collect()
    assert "locked" not in assistant._sessions._locks


async def test_what_a_session_keeps_is_compressed_and_reads_back_the_same(offline_context):
    saver = BoundedInMemorySaver(max_sessions=10, idle_ttl_s=3600)
    assistant = Assistant(offline_context, saver)
    await ask(assistant, "zipped", "number of flights by origin")
    large = {key: value for key, value in saver.blobs.items() if key[0] == "zipped" and key[2] == "messages"}
    assert large and all(kind.endswith("+zlib") for kind, _ in large.values())
    plain = Compressed(saver.serde.inner)
    for kind, data in large.values():
        value = saver.serde.loads_typed((kind, data))
        assert plain.loads_typed(plain.dumps_typed(value)) == value
        assert len(data) < len(saver.serde.inner.dumps_typed(value)[1]) / 2


async def test_reading_a_session_the_saver_does_not_hold_leaves_nothing_behind(offline_context):
    """InMemorySaver's storage is a defaultdict: a read of a session never written, or dropped past the cap,
    left an empty entry no write ever touched, so none was ever dropped (a bot asked about old threads grew)."""
    saver = BoundedInMemorySaver(max_sessions=1, idle_ttl_s=3600)
    assistant = Assistant(offline_context, saver)
    await ask(assistant, "kept", "number of flights by origin")
    for session in [f"unknown-{n}" for n in range(20)]:
        assert await assistant.pending(session) is None
        assert [c async for c in assistant.graph.checkpointer.alist({"configurable": {"thread_id": session}})] == []
    await ask(assistant, "newer", "number of flights by origin")  # "kept" goes past the cap
    assert (await assistant._sessions.read("kept")).values == {}
    assert list(saver.storage) == ["newer"] and saver.sessions == 1
    assert {key[0] for key in saver.blobs} == {"newer"} and list(saver._kept) == [("newer", "")]


async def test_a_session_keeps_only_its_current_values_and_no_empty_ones(offline_context):
    """What a session keeps is its latest checkpoint's values and nothing for an empty channel (LangGraph
    reads a value it cannot find as empty): the ("empty", b"") kept for each was a third of the keys."""
    saver = BoundedInMemorySaver(max_sessions=10, idle_ttl_s=3600)
    assistant = Assistant(offline_context, saver)
    await ask(assistant, "s", "average departure delay at JFK")
    await ask(assistant, "s", "now by month")
    [(checkpoint, _, _)] = saver.storage["s"][""].values()
    versions = saver.serde.loads_typed(checkpoint)["channel_versions"]
    kept = {key[2]: key[3] for key in saver.blobs if key[0] == "s"}
    assert kept and all(versions[channel] == version for channel, version in kept.items())
    assert all(saver.blobs[("s", "", c, v)][0] != "empty" for c, v in kept.items())
    assert saver._kept[("s", "")] == kept
    follow_up = await ask(assistant, "s", "what about EWR")
    assert "EWR" in follow_up.sql and follow_up.row_count == 12
