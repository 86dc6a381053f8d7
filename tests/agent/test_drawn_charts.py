"""A chart drawn lately is not drawn again: the same spec over the same columns and rows is the same PNG."""

from __future__ import annotations

from agent.api import Assistant
from agent.charts.drawn import DrawnCharts, chart_key
from agent.charts.spec import ChartSpec
from agent.supervisor.reply import AgentReply, Chart

SPEC = ChartSpec(kind="bar", x="origin", y=["n"], title="Flights by origin")
COLUMNS = ["origin", "n"]
ROWS = [["EWR", 120835], ["JFK", 111279], ["LGA", 104662]]


def reply(rows=ROWS, spec=SPEC, session="drawn"):
    return AgentReply(session_id=session, columns=COLUMNS, rows=rows, chart=Chart(spec=spec))


async def test_the_same_chart_is_drawn_once(offline_context, monkeypatch):
    assistant = Assistant(offline_context)
    drawn = []
    run = offline_context.cpu.run

    async def counting(what, fn, *args, **kwargs):
        drawn.append(fn.__name__)
        return await run(what, fn, *args, **kwargs)

    monkeypatch.setattr(offline_context.cpu, "run", counting)
    first = await assistant.draw_chart(reply(session="a"))
    again = await assistant.draw_chart(reply(session="b"))  # another person, the same picture
    assert first is not None and again is not None and first.png.startswith(b"\x89PNG")
    assert again.png == first.png and drawn == ["draw_chart"]
    other = await assistant.draw_chart(reply(rows=[*ROWS[:2], ["LGA", 104663]]))
    titled = await assistant.draw_chart(reply(spec=SPEC.model_copy(update={"title": "Another title"})))
    assert drawn == ["draw_chart"] * 3 and len({first.png, other.png, titled.png}) == 3


def test_keys_tell_apart_what_draws_differently():
    assert chart_key(SPEC, COLUMNS, ROWS) == chart_key(SPEC.model_copy(), list(COLUMNS), [list(r) for r in ROWS])
    assert chart_key(SPEC, COLUMNS, ROWS) != chart_key(SPEC, ["airport", "n"], ROWS)
    assert chart_key(SPEC, COLUMNS, [["EWR", 1]]) != chart_key(SPEC, COLUMNS, [["EWR", 1.0]])


def test_kept_charts_are_bounded_by_count_and_bytes_oldest_first():
    charts = DrawnCharts(max_charts=3, max_bytes=100)
    for n in range(4):
        charts.keep(bytes([n]), b"x" * 10)
    assert len(charts) == 3 and charts.get(bytes([0])) is None
    assert charts.get(bytes([1])) == b"x" * 10  # used: now the newest
    charts.keep(b"big", b"y" * 80)  # 30 + 80 > 100: the least recently used go
    assert charts.get(bytes([2])) is None and charts.get(bytes([1])) is not None and charts.get(b"big") is not None
    charts.keep(b"huge", b"z" * 101)  # larger than the whole bound: not kept, nothing dropped for it
    assert charts.get(b"huge") is None and len(charts) == 3
