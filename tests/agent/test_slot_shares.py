"""Runaways from many people cannot starve the others (issue 25, finding 4).

Six people each run a statement that holds its warehouse slot until the test lets it go (a cross
join of flights with itself, whose plan DuckDB estimates at 10^11 rows; the engine call is the
controllable stand-in of tests/support/runaway.py, and once let go the LIMIT ends it at once). A seventh person's ordinary question must get a
slot and its answer while all six still hold or wait: asserted on the order of events, never on time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading

import pytest

from agent.api import Assistant, ChatContext
from agent.budget.slots import BlockingSlots
from agent.warehouse.duck import DuckDBWarehouse
from tests.support.runaway import blocking_engine

RUN = "Chat BI Agent"
GENEROUS_S = 60
RUNAWAY = "SELECT a.origin AS runaway FROM flights a CROSS JOIN flights b LIMIT 1"
ORDINARY = "SELECT origin, count(*) AS n FROM flights GROUP BY origin"


async def reply_of(events):
    last = None
    async for event in events:
        last = event
    return last


@pytest.fixture
def release():
    event = threading.Event()
    yield event
    event.set()


def make_assistant(offline_context, settings, share: float) -> Assistant:
    """Four slots (the default), `share` of them at most per person, channel or costly work, and a
    generous query limit: nothing is abandoned while the test runs."""
    roomy = settings.model_copy(
        update={"query_timeout_s": GENEROUS_S, "warehouse_slots": 4, "warehouse_slot_share": share}
    )
    warehouse = DuckDBWarehouse(offline_context.warehouse.path, roomy)
    return Assistant(dataclasses.replace(offline_context, settings=roomy, warehouse=warehouse))


def run_sql(assistant: Assistant, user: str, channel: str, sql: str):
    context = ChatContext(user=user, channel=channel)
    return reply_of(assistant.run_tool(f"s-{user}", RUN, {"sql": sql}, context))


async def _until(condition) -> None:
    for _ in range(GENEROUS_S * 20):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the runaways never all reached the warehouse")


@pytest.mark.parametrize(
    ("share", "channels", "held"),
    [
        # no shares at all: the kept slot alone stops a fourth costly query
        (1.0, [f"C{n}" for n in range(6)], 3),
        # six people in six channels: costly work together holds one share (two of four slots)
        (0.5, [f"C{n}" for n in range(6)], 2),
        # six people in one channel: the channel's share stops the third
        (0.5, ["C-busy"] * 6, 2),
    ],
)
async def test_a_seventh_person_gets_a_slot_while_six_runaways_hold_the_rest(
    offline_context, settings, monkeypatch, release, share, channels, held
):
    monkeypatch.setattr(DuckDBWarehouse, "_execute", blocking_engine(DuckDBWarehouse._execute, release))
    assistant = make_assistant(offline_context, settings, share)
    slots = assistant.context.warehouse.slots
    runaways = [
        asyncio.create_task(run_sql(assistant, f"U-runaway-{n}", channel, RUNAWAY)) for n, channel in enumerate(channels)
    ]
    await _until(lambda: slots.snapshot()["busy"] + slots.snapshot()["waiting"] == 6)
    assert slots.snapshot()["busy"] == held  # the rest wait: shares and the kept slot held them back

    seventh = await asyncio.wait_for(run_sql(assistant, "U-seventh", channels[0], ORDINARY), GENEROUS_S)
    assert seventh.error is None and seventh.row_count == 3
    assert not any(task.done() for task in runaways), "the seventh person waited for a runaway"
    assert not release.is_set()

    release.set()
    finished = await asyncio.wait_for(asyncio.gather(*runaways), GENEROUS_S)
    assert all(reply.error is None for reply in finished), [reply.error for reply in finished]


async def test_one_person_holds_at_most_their_share():
    slots = BlockingSlots(4, share=0.5)
    release = threading.Event()
    held = [asyncio.create_task(slots.call(release.wait, budget_s=GENEROUS_S, owner="U1")) for _ in range(4)]
    await _until(lambda: slots.snapshot()["busy"] + slots.snapshot()["waiting"] == 4)
    assert slots.snapshot()["busy"] == 2
    assert await slots.call(lambda: "mine", budget_s=GENEROUS_S, owner="U2", costly=True) == "mine"
    release.set()
    assert await asyncio.wait_for(asyncio.gather(*held), GENEROUS_S) == [True] * 4


async def test_slots_held_past_their_budget_are_reported():
    now = [0.0]
    slots = BlockingSlots(2, clock=lambda: now[0])
    release = threading.Event()
    running = asyncio.create_task(slots.call(release.wait, budget_s=1.0, owner="U1"))
    await _until(lambda: slots.snapshot()["busy"] == 1)
    assert slots.snapshot()["overdue"] == 0
    now[0] = 31.0
    report = slots.snapshot()
    assert report["overdue"] == 1 and report["overdue_longest_s"] == 30.0 and not report["wedged"]
    release.set()
    await asyncio.wait_for(asyncio.gather(running, return_exceptions=True), GENEROUS_S)


async def test_the_budget_counts_from_the_slot_not_from_the_wait_for_it():
    """A call that waited most of its budget for a slot still gets its whole budget on it (as the engine's
    own time limit starts with the statement), instead of being abandoned as a runaway moments after."""
    now = [0.0]
    slots = BlockingSlots(1, clock=lambda: now[0])
    first_done, second_done = threading.Event(), threading.Event()
    first = asyncio.create_task(slots.call(first_done.wait, budget_s=5.0, owner="U1"))
    await _until(lambda: slots.snapshot()["busy"] == 1)
    second = asyncio.create_task(slots.call(second_done.wait, budget_s=5.0, owner="U2"))
    await _until(lambda: slots.snapshot()["waiting"] == 1)
    now[0] = 4.9  # the second caller has waited 4.9 of its 5 s for the slot
    first_done.set()
    await _until(lambda: slots.snapshot()["waiting"] == 0 and slots.snapshot()["busy"] == 1)
    await asyncio.sleep(0.5)  # longer than the 0.1 s a budget counted from the wait would leave
    second_done.set()
    assert await asyncio.wait_for(asyncio.gather(first, second), GENEROUS_S) == [True, True]
    assert slots.abandoned_total == 0
