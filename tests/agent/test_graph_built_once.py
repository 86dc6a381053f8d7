"""The supervisor's graph is compiled once per Assistant, and the free path's once per process: a
question runs a compiled graph with its own context, it never compiles one (issue 22's review)."""

from __future__ import annotations

import dataclasses

from langgraph.graph import StateGraph

from agent.api import Assistant
from tests.support.counting import InProcessPool


async def test_questions_run_the_graph_the_assistant_built(offline_context, monkeypatch):
    pool = InProcessPool()
    compiled: list[object] = []
    compile_graph = StateGraph.compile
    monkeypatch.setattr(StateGraph, "compile", lambda self, *a, **k: compiled.append(self) or compile_graph(self, *a, **k))
    agent = Assistant(dataclasses.replace(offline_context, cpu=pool))
    assert len(compiled) == 1  # the supervisor's, as the Assistant is built
    try:
        for n, question in enumerate(["Number of flights by origin", "Average departure delay by carrier"]):
            asked = await agent.reply(agent.ask(f"built-once-{n}", question))
            assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
            answered = await agent.reply(agent.resume(f"built-once-{n}", "run"))
            assert answered.error is None and answered.rows, answered.text
    finally:
        pool.close()
    assert len(compiled) == 1, compiled
