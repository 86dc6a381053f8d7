"""A result's analysis (its facts, sentences, chart and follow-ups, each follow-up compiled to be checked)
runs on the CPU pool like the agent's other CPU work, never on the event loop: the steps cross as they
would to a worker (pickled), and the in-place versions the event loop would call are not called."""

from __future__ import annotations

import dataclasses

import pytest

from agent.api import Assistant
from agent.chatbi import analyze as analyze_module
from agent.tools import steps
from tests.support.counting import InProcessPool


@pytest.fixture
def assistant(offline_context):
    pool = InProcessPool()
    yield Assistant(dataclasses.replace(offline_context, cpu=pool)), pool
    pool.close()


async def test_a_data_answer_is_analysed_on_the_cpu_pool(assistant, monkeypatch):
    agent, pool = assistant

    def on_the_loop(*args, **kwargs):
        raise AssertionError("the analysis ran on the event loop")

    monkeypatch.setattr(analyze_module, "analysed", on_the_loop)
    monkeypatch.setattr(analyze_module, "write_up", on_the_loop)
    asked = await agent.reply(agent.ask("analysis-on-pool", "Number of flights by origin"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
    pool.steps.clear()
    answered = await agent.reply(agent.resume("analysis-on-pool", "run"))
    assert answered.error is None and answered.rows, answered.text
    assert answered.follow_ups and answered.chart is not None, answered
    # the whole result in one step; a result cut by its LIMIT takes a second, after its whole total's query
    assert pool.steps.count(steps.analysis_first.__name__) == 1, pool.steps
    assert steps.analysis_write_up.__name__ not in pool.steps, pool.steps


async def test_a_result_cut_by_its_limit_is_written_up_after_its_whole_total(assistant, monkeypatch):
    agent, pool = assistant
    asked = await agent.reply(agent.ask("analysis-cut", "Top 3 carriers by number of flights"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
    pool.steps.clear()
    answered = await agent.reply(agent.resume("analysis-cut", "run"))
    assert answered.error is None and len(answered.rows) == 3, answered.text
    assert "%" in (answered.text or ""), answered.text  # shares of the whole total, which was queried
    assert [s for s in pool.steps if s.startswith("analysis_")] == ["analysis_first", "analysis_write_up"], pool.steps
