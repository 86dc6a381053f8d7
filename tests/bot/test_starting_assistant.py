"""`Assistant.starting`: what `python -m bot` holds once it says ready, its graph built on a thread later.
A first call before that build waits for it and is answered; a build that fails makes readiness say so."""

from __future__ import annotations

import pytest

from agent.api import Assistant, StartingAssistant
from bot.health import Readiness


async def test_a_question_asked_before_the_graph_is_built_waits_for_it_and_is_answered(settings):
    assistant = Assistant.starting(settings)
    try:
        assert isinstance(assistant, StartingAssistant)
        health = await assistant.health()
        assert health["warehouse"] == "up" and not health.get("agent_problem")
        reply = await assistant.reply(assistant.ask("starting-1", "number of flights by origin"))  # no warm() yet
        assert reply.text
        assert assistant.suggested_prompts(2)
        assert (await assistant.health())["warehouse"] == "up"
    finally:
        await assistant.aclose()


async def test_a_graph_that_cannot_be_built_makes_readiness_say_so(settings, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no graph")

    assistant = Assistant.starting(settings)
    monkeypatch.setattr(Assistant, "from_settings", broken)
    try:
        with pytest.raises(RuntimeError, match="no graph"):
            await assistant.built()
        report = await Readiness(agent_health=assistant.health).check()
        assert report["ready"] is False and "agent" in report["not_ready"]
        assert "no graph" in report["agent"]
    finally:
        await assistant.aclose()


async def test_the_first_ready_report_starts_what_start_up_deferred(settings):
    started = []
    readiness = Readiness(agent_health=None)
    readiness.on_first_ready = lambda: started.append(True)
    await readiness.check()
    assert readiness.on_first_ready is None  # once only
