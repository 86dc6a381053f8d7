"""`agent.session.reads.ReadOnce` (issue 23): within a turn a session's latest checkpoint is read from the saver
once; a write forgets that reading; outside a turn, or for another namespace, every read is the saver's."""

from __future__ import annotations

from langgraph.checkpoint.base import empty_checkpoint

from agent.session.reads import ReadOnce
from tests.support.counting import CountingSaver


def _config(thread: str, **extra: str) -> dict:
    return {"configurable": {"thread_id": thread, "checkpoint_ns": "", **extra}}


def _write(saver: ReadOnce, thread: str, value: str) -> dict:
    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = {"question": value}
    checkpoint["channel_versions"] = {"question": saver.get_next_version(None, None)}
    return saver.put(_config(thread), checkpoint, {}, checkpoint["channel_versions"])


def test_a_turn_reads_once_and_a_write_forgets_the_reading():
    inner = CountingSaver()
    saver = ReadOnce(inner)
    _write(saver, "t", "first")
    with saver.turn("t"):
        one, two = saver.get_tuple(_config("t")), saver.get_tuple(_config("t"))
        assert inner.reads == 1
        assert one.checkpoint["channel_values"] == two.checkpoint["channel_values"] == {"question": "first"}
        # each read has its own dicts: a run updating its versions in place changes no other reading
        one.checkpoint["channel_versions"]["question"] = "changed"
        assert saver.get_tuple(_config("t")).checkpoint["channel_versions"]["question"] != "changed"
        _write(saver, "t", "second")
        assert saver.get_tuple(_config("t")).checkpoint["channel_values"] == {"question": "second"}
        assert inner.reads == 2
    saver.get_tuple(_config("t"))
    saver.get_tuple(_config("t"))
    assert inner.reads == 4  # outside a turn: the saver's every time


async def test_only_the_turns_session_at_its_latest_checkpoint_is_kept():
    inner = CountingSaver()
    saver = ReadOnce(inner)
    written = _write(saver, "t", "first")
    _write(saver, "other", "x")
    with saver.turn("t"):
        await saver.aget_tuple(_config("other"))
        await saver.aget_tuple(_config("other"))
        await saver.aget_tuple(_config("t", checkpoint_ns="sub"))
        await saver.aget_tuple(_config("t", checkpoint_id=written["configurable"]["checkpoint_id"]))
        assert inner.reads == 4
        assert await saver.aget_tuple(_config("new")) is None  # not a turn's session: no reading kept
        await saver.aget_tuple(_config("t"))
        await saver.aget_tuple(_config("t"))
        assert inner.reads == 6


def test_a_new_session_read_in_its_turn_is_read_once_too():
    inner = CountingSaver()
    saver = ReadOnce(inner)
    with saver.turn("fresh"):
        assert saver.get_tuple(_config("fresh")) is None
        assert saver.get_tuple(_config("fresh")) is None
    assert inner.reads == 1


def test_what_else_the_saver_offers_is_the_savers():
    inner = CountingSaver()
    saver = ReadOnce(inner)
    assert saver.durability == inner.durability and saver.sessions == 0
