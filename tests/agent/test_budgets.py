"""Runaway work and oversized input cost at most their budget: the agent keeps answering others.

A statement that ignores cancellation (a test double for the engine call), a CPU step that
never yields, text too long or too deeply nested: each ends with a clear reply, and other
people's questions are answered meanwhile. Budgets here are small; the only time bounds
asserted are generous ones.
"""

from __future__ import annotations

import asyncio
import dataclasses
import pickle
import threading

import pytest

from agent.api import Assistant, ChatContext
from agent.bootstrap import build_context
from agent.tools import steps
from agent.budget.cpu import CpuPool
from agent.budget.inputs import nesting_depth
from agent.errors import QueryTimeoutError, StepOverrunError
from agent.text2sql import draft_sql
from agent.warehouse.duck import DuckDBWarehouse
from tests.support.runaway import blocking_engine, endless_read, spin
from tests.text2sql.conftest import script

RUN = "Chat BI Agent"
GENEROUS_S = 60


async def reply_of(events):
    last = None
    async for event in events:
        last = event
    return last


@pytest.fixture
def release():
    event = threading.Event()
    yield event
    event.set()  # let abandoned threads finish whatever the test did


@pytest.fixture
def runaway_assistant(offline_context, settings, monkeypatch, release):
    """An assistant whose warehouse (1 s limit, 2 slots) blocks forever on SQL that mentions `runaway`."""
    monkeypatch.setattr(DuckDBWarehouse, "_execute", blocking_engine(DuckDBWarehouse._execute, release))
    tight = settings.model_copy(update={"query_timeout_s": 1.0, "warehouse_slots": 2})
    warehouse = DuckDBWarehouse(offline_context.warehouse.path, tight)
    context = dataclasses.replace(offline_context, settings=tight, warehouse=warehouse)
    return Assistant(context)


def run_sql(assistant: Assistant, user: str, sql: str):
    return reply_of(assistant.run_tool(f"s-{user}-{sql[:12]}", RUN, {"sql": sql}, ChatContext(user=user)))


async def test_a_statement_that_ignores_cancellation_costs_its_budget_and_others_are_answered(
    runaway_assistant, release
):
    runaway = asyncio.create_task(run_sql(runaway_assistant, "U-runaway", "SELECT 'runaway' AS x"))
    other = await asyncio.wait_for(
        run_sql(runaway_assistant, "U-other", "SELECT origin, count(*) AS n FROM flights GROUP BY origin"),
        GENEROUS_S,
    )
    assert other.error is None and other.row_count == 3
    assert not runaway.done() or not release.is_set()

    refused = await asyncio.wait_for(runaway, GENEROUS_S)
    assert refused.error_code == "query_timeout"
    assert "did not stop" in refused.error
    assert not release.is_set()  # the statement is still running: the answer did not wait for it

    again = await asyncio.wait_for(run_sql(runaway_assistant, "U-runaway", "SELECT 1 AS y"), GENEROUS_S)
    assert again.error_code == "busy" and "still running" in again.error
    others = await asyncio.wait_for(run_sql(runaway_assistant, "U-other", "SELECT 2 AS z"), GENEROUS_S)
    assert others.error is None and others.rows == [[2]]


async def test_health_reports_wedged_while_every_slot_is_held_past_its_budget(runaway_assistant, release):
    assert (await runaway_assistant.health())["wedged"] is False
    first = await asyncio.wait_for(run_sql(runaway_assistant, "U-a", "SELECT 'runaway' AS x"), GENEROUS_S)
    second = await asyncio.wait_for(run_sql(runaway_assistant, "U-b", "SELECT 'runaway' AS x"), GENEROUS_S)
    assert first.error_code == second.error_code == "query_timeout"

    health = await runaway_assistant.health(timeout_s=0.5)
    assert health["wedged"] is True and health["warehouse"] != "up"

    release.set()
    for _ in range(GENEROUS_S * 10):
        health = await runaway_assistant.health(timeout_s=5)
        if not health["wedged"]:
            break
        await asyncio.sleep(0.1)
    assert health["wedged"] is False and health["warehouse"] == "up"


async def test_a_cpu_step_that_never_yields_is_stopped_from_outside_and_the_pool_recovers():
    pool = CpuPool(workers=1, budget_s=1.0, preload=steps.PRELOAD)
    try:
        with pytest.raises(StepOverrunError, match="took longer than 1 seconds"):
            await asyncio.wait_for(pool.run("Reading the SQL", spin), GENEROUS_S)
        assert pool.overruns == 1
        assert await asyncio.wait_for(pool.run("Counting", spin, 0.01), GENEROUS_S) > 0
    finally:
        pool.close()


async def test_ten_thousand_nested_parentheses_get_a_clear_refusal(offline_assistant):
    sql = "SELECT " + "(" * 10_000 + "1" + ")" * 10_000
    for agent_name in ("Fix SQL Agent", "Explain SQL Agent", RUN):
        reply = await asyncio.wait_for(
            reply_of(offline_assistant.run_tool(f"deep-{agent_name}", agent_name, {"sql": sql})), GENEROUS_S
        )
        assert reply.error_code == "input_too_large", (agent_name, reply.error)
        assert "10,000 levels deep" in reply.error


async def test_a_megabyte_of_sql_is_refused_before_parsing(offline_assistant):
    sql = "SELECT " + " + ".join(["1"] * 350_000)
    for agent_name in ("Fix SQL Agent", "Explain SQL Agent", RUN):
        reply = await asyncio.wait_for(
            reply_of(offline_assistant.run_tool(f"big-{agent_name}", agent_name, {"sql": sql})), GENEROUS_S
        )
        assert reply.error_code == "input_too_large" and "characters long" in reply.error


async def test_an_oversized_question_is_refused_and_a_normal_one_still_answered(offline_assistant):
    huge = "how many flights left each airport " * 3000
    reply = await asyncio.wait_for(reply_of(offline_assistant.ask("huge-q", huge)), GENEROUS_S)
    assert reply.error_code == "input_too_large" and "questions of up to" in reply.error

    deep = "SELECT " + "(" * 10_000 + "1" + ")" * 10_000 + " AS x FROM flights"
    reply = await asyncio.wait_for(reply_of(offline_assistant.ask("deep-sql", "what does this do? " + deep)), GENEROUS_S)
    assert reply.error_code == "input_too_large" and "levels deep" in reply.error

    normal = await asyncio.wait_for(reply_of(offline_assistant.ask("normal-q", "number of flights by origin")), GENEROUS_S)
    assert normal.error is None


def test_nesting_depth_ignores_brackets_in_strings_and_comments():
    assert nesting_depth("SELECT '((((' AS a, \"((\" -- ((((\n FROM t /* ((( */ WHERE (x IN (1))") == 2
    assert nesting_depth("SELECT 'it''s (' , ((1))") == 2
    assert nesting_depth("SELECT [1, [2]]") == 2
    assert nesting_depth("SELECT CASE WHEN (a) THEN CASE x WHEN 1 THEN 2 END END AS legend, 'case' FROM t") == 2


async def test_a_question_the_parser_never_finishes_costs_its_budget_and_others_are_answered(
    offline_context, monkeypatch
):
    pool = CpuPool(workers=1, budget_s=2.0, preload=steps.PRELOAD)
    monkeypatch.setattr(steps, "read_and_compile", endless_read)
    assistant = Assistant(dataclasses.replace(offline_context, cpu=pool))
    try:
        stuck = await asyncio.wait_for(
            reply_of(assistant.ask("parse-runaway", "number of flights by origin runaway")), GENEROUS_S
        )
        assert stuck.error_code == "step_overrun"
        assert "Reading the question took longer than 2 seconds" in stuck.error
        assert pool.overruns == 1
        normal = await asyncio.wait_for(
            reply_of(assistant.ask("parse-normal", "number of flights by origin")), GENEROUS_S
        )
        assert normal.error is None
    finally:
        pool.close()


async def test_the_routers_dry_run_takes_a_slot_and_is_abandoned_at_its_budget(
    offline_context, settings, monkeypatch, release
):
    """Pasted SQL is dry-run to route it; an EXPLAIN the engine never finishes must not hold the run."""
    monkeypatch.setattr(DuckDBWarehouse, "_explain", blocking_engine(
        DuckDBWarehouse._explain, release, blocks=lambda sql: "runaway" in sql))
    tight = settings.model_copy(update={"query_timeout_s": 1.0, "warehouse_slots": 2})
    warehouse = DuckDBWarehouse(offline_context.warehouse.path, tight)
    assistant = Assistant(dataclasses.replace(offline_context, settings=tight, warehouse=warehouse))
    reply = await asyncio.wait_for(
        reply_of(assistant.ask("route-runaway", "run this: SELECT count(*) AS runaway FROM flights")), GENEROUS_S
    )
    assert warehouse.slots.snapshot()["abandoned_total"] >= 1, reply


async def test_the_free_paths_sample_reads_take_a_slot_and_are_abandoned_at_their_budget(
    offline_context, settings, monkeypatch, release
):
    monkeypatch.setattr(DuckDBWarehouse, "_execute", blocking_engine(
        DuckDBWarehouse._execute, release, blocks=lambda sql: "LIMIT 3" in sql))
    tight = settings.model_copy(update={"query_timeout_s": 1.0, "warehouse_slots": 2})
    warehouse = DuckDBWarehouse(offline_context.warehouse.path, tight)
    model = script(None, None).model
    with pytest.raises(QueryTimeoutError, match="did not stop within"):
        await asyncio.wait_for(
            draft_sql("How many flights per carrier?", model=model, warehouse=warehouse,
                      catalog=offline_context.catalog, tables=["flights"]),
            GENEROUS_S,
        )
    assert warehouse.slots.snapshot()["abandoned_total"] == 1


async def test_start_up_value_reads_that_never_return_are_abandoned_and_start_up_goes_on(
    offline_context, settings, monkeypatch, release
):
    """Reading the warehouse's values at start-up is budgeted like any query: a read the engine never
    finishes costs its budget, then the bot starts without those values instead of hanging."""
    monkeypatch.setattr(DuckDBWarehouse, "_sample_values", blocking_engine(
        DuckDBWarehouse._sample_values, release, blocks=lambda table: True))
    tight = settings.model_copy(update={"query_timeout_s": 1.0, "warehouse_slots": 2})
    warehouse = DuckDBWarehouse(offline_context.warehouse.path, tight)
    context = await asyncio.wait_for(asyncio.to_thread(build_context, tight, warehouse=warehouse), GENEROUS_S)
    try:
        assert context.values.phrases == []
        # one read abandoned for the catalog's values and one for the semantic model's, then no more
        assert warehouse.slots.snapshot()["abandoned_total"] <= 2
    finally:
        context.cpu.close()


async def test_a_querys_own_schema_read_takes_no_second_slot(offline_context, settings, monkeypatch):
    """The guard reads the schema from inside a query's slot: that read is bounded by the slot's
    budget and must not count as a second call, or other people would wait for a slot nobody uses."""
    busy_while_reading: list[int] = []
    real = DuckDBWarehouse._introspect

    def introspect(self):
        busy_while_reading.append(self.slots.snapshot()["busy"])
        return real(self)

    monkeypatch.setattr(DuckDBWarehouse, "_introspect", introspect)
    warehouse = DuckDBWarehouse(offline_context.warehouse.path, settings.model_copy(update={"warehouse_slots": 1}))
    result = await asyncio.wait_for(warehouse.arun("SELECT 1 AS x"), GENEROUS_S)
    assert result.row_count == 1 and busy_while_reading == [1]


def test_values_shared_with_a_worker_arrive_there_as_the_values():
    pool = CpuPool(workers=1, budget_s=1.0, preload=steps.PRELOAD)
    model, values = {"model": 1}, [2]
    try:
        handle = pool.share(model, values)
        assert pool.share(model, values) == handle  # the same objects: the file written once
        assert pickle.loads(pickle.dumps(handle)) == (model, values)  # as a step's worker unpickles it
    finally:
        pool.close()
