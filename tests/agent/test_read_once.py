"""A SQL text is parsed once per request and a question read once per turn: the guard's reading
(`CheckedQuery`) goes on to the dry run, the cost estimate, the access check, the audit, the run and
the answer's column meanings; the reader's reading of a question goes on from the router's check to
discovery and to the SQL.

The CPU steps run in this process here (arguments and results still pickled, as they cross to a
worker), so the parses they make are counted too.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from agent.api import Assistant
from agent.tools import steps
from tests.support.counting import InProcessPool, ParseSpy, forget_checked_queries


@pytest.fixture
def assistant(offline_context, monkeypatch):
    pool = InProcessPool()
    # A worker opens its own read-only connection to the warehouse file; in this process DuckDB allows
    # only connections configured like the warehouse's, so the step gets one of the warehouse's own.
    warehouse, settings = offline_context.warehouse, offline_context.settings
    key = (str(warehouse.path), settings.query_memory_limit)
    monkeypatch.setitem(steps._connections, key, warehouse._con.cursor())
    forget_checked_queries(monkeypatch, warehouse)
    yield Assistant(dataclasses.replace(offline_context, cpu=pool)), pool
    pool.close()


async def test_a_data_question_parses_its_sql_once_and_reads_the_question_once(assistant, monkeypatch):
    agent, pool = assistant
    spy = ParseSpy(monkeypatch)
    asked = await agent.reply(agent.ask("read-once-data", "Average arrival delay by carrier"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
    assert pool.steps.count(steps.read_and_compile.__name__) == 1, pool.steps
    answered = await agent.reply(agent.resume("read-once-data", "run"))
    assert answered.error is None and answered.rows, answered.text
    assert spy.of(answered.sql) == 1, spy.queries()
    assert steps.read_and_compile.__name__ not in pool.steps[1:], pool.steps  # running it reads nothing again
    assert all(n == 1 for n in spy.queries().values()), spy.queries()


async def test_a_follow_up_reads_its_edit_once(assistant, monkeypatch):
    agent, pool = assistant
    first = await agent.reply(agent.ask("read-once-edit", "Average arrival delay by carrier"))
    assert first.ask_human is not None
    pool.steps.clear()
    edited = await agent.reply(agent.ask("read-once-edit", "now by month"))
    assert edited.sql and "month" in edited.sql.lower(), edited.text
    assert pool.steps.count(steps.read_edit.__name__) == 1, pool.steps
    assert steps.read_and_compile.__name__ not in pool.steps, pool.steps


@pytest.mark.parametrize(
    ("agent_name", "sql"),
    [
        ("Fix SQL Agent", "SELECT orign, count(*) FROM flights GROUP BY orign"),
        ("Explain SQL Agent", "SELECT dest, count(*) AS flights FROM flights GROUP BY dest"),
    ],
)
async def test_a_pasted_query_is_parsed_once(assistant, monkeypatch, agent_name, sql):
    agent, _ = assistant
    spy = ParseSpy(monkeypatch)
    reply = await agent.reply(agent.run_tool(f"read-once-{agent_name}", agent_name, {"sql": sql}))
    assert reply.error is None, reply.text
    assert spy.of(sql) == 1, spy.queries()
    # each query text met on the way (the pasted one, its DuckDB translation, the repaired one) once
    assert all(n == 1 for n in spy.queries().values()), spy.queries()


async def test_the_guard_judges_a_data_question_s_sql_once(assistant, monkeypatch):
    """The dry run, the access check, the audit, the cost estimate and the run are handed the guard's
    `CheckedQuery`: the warehouse passes on a query it judged under its current tables, unasked."""
    from agent.warehouse import base

    agent, _ = assistant
    judged: list[str] = []

    def counted(name: str, function: Any) -> Any:
        def spy(*args: Any, **kwargs: Any) -> Any:
            judged.append(name)
            return function(*args, **kwargs)

        return spy

    monkeypatch.setattr(base, "check_query", counted("check_query", base.check_query))
    monkeypatch.setattr(base, "recheck", counted("recheck", base.recheck))
    asked = await agent.reply(agent.ask("guard-once", "Average departure delay by carrier"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
    answered = await agent.reply(agent.resume("guard-once", "run"))
    assert answered.error is None and answered.rows, answered.text
    assert judged == ["check_query"], judged


async def test_a_new_questions_sql_is_compiled_in_the_worker_that_reads_it(assistant, monkeypatch):
    """Compiling checks every definition of the model (several ms a new question): done beside the
    reading in its CPU worker, discovery and the SQL find it kept, and this process compiles nothing."""
    from agent.tools import semantic

    agent, pool = assistant
    monkeypatch.setattr(semantic, "_COMPILED", type(semantic._COMPILED)())  # nothing kept from other tests
    here: list[str] = []
    compile_intent = semantic.compile_intent

    def counted(intent, model, dialect="duckdb"):
        here.append(intent.model_dump_json())
        return compile_intent(intent, model, dialect)

    monkeypatch.setattr(semantic, "compile_intent", counted)
    asked = await agent.reply(agent.ask("compiled-there", "Average departure delay by origin in March 2013"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
    assert pool.steps.count(steps.read_and_compile.__name__) == 1, pool.steps
    answered = await agent.reply(agent.resume("compiled-there", "run"))
    assert answered.error is None and sorted(r[0] for r in answered.rows) == ["EWR", "JFK", "LGA"], answered.text
    assert here == []


async def test_a_questions_reading_is_dated_once_in_the_worker_that_compiles_it(assistant, monkeypatch):
    """The worker gives the reading's relative period its dates and compiles it: the SQL step is handed
    that compile, and does not date the reading again to find it."""
    from agent.tools import semantic

    agent, _ = assistant
    monkeypatch.setattr(semantic, "_COMPILED", type(semantic._COMPILED)())  # nothing kept from other tests
    dated_here: list[str] = []
    with_latest_dates = semantic.with_latest_dates

    def counted(intent, model, values):
        dated_here.append(intent.model_dump_json())
        return with_latest_dates(intent, model, values)

    monkeypatch.setattr(semantic, "with_latest_dates", counted)
    asked = await agent.reply(agent.ask("dated-there", "average arrival delay by carrier last month"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
    assert "2013-12" in asked.sql, asked.sql
    answered = await agent.reply(agent.resume("dated-there", "run"))
    assert answered.error is None and answered.rows, answered.text
    assert dated_here == []


def test_the_worker_compiles_the_reading_as_the_sql_step_will(offline_context):
    """A relative period is compiled with the dates the data's latest date gives it; a follow-up's
    latest message wins; a question with no reading compiles nothing."""
    from agent.tools.semantic import compile_checked

    offline_context.values.read_all_latest(offline_context.semantic)
    shared = (offline_context.semantic, offline_context.values)  # as the step is handed them in its worker
    extractions, ready, as_stepped = steps.read_and_compile(shared, ["number of flights by origin last month"], "duckdb")
    intent = extractions[0].intent
    assert intent is not None and [key for key, _ in ready] == [intent.model_dump_json()]
    assert ready[0][1] == compile_checked(offline_context, intent)[0] and "2013-12" in ready[0][1].sql
    assert as_stepped == ready[0]

    follow_up = ["average departure delay at JFK by month  and at EWR", "and at EWR"]
    extractions, ready, _ = steps.read_and_compile(shared, follow_up, "duckdb")
    assert len(ready) == 1 and "EWR" in ready[0][1].sql and "JFK" not in ready[0][1].sql

    assert steps.read_and_compile(shared, ["write me a poem about autumn"], "duckdb")[1:] == ([], None)
