"""Readiness's ping is a constant query the bot writes itself: it reaches the engine without the
guard, so a first /readyz does not wait for the whole schema to be read (the first question reads it)."""

from __future__ import annotations

import pytest

from agent.errors import AssistantError
from agent.warehouse import open_warehouse


@pytest.fixture
def fresh(settings, warehouse):  # `warehouse` built the demo file; this one has read nothing yet
    opened = open_warehouse(settings)
    yield opened
    opened.close()


async def test_the_ping_answers_without_reading_the_schema(fresh, monkeypatch):
    def unread() -> None:
        raise AssertionError("the ping read the schema")

    monkeypatch.setattr(fresh, "schema", unread)
    await fresh.aping(5)


async def test_a_ping_the_engine_fails_is_an_assistant_error(fresh, monkeypatch):
    def broken(sql, limits):
        raise AssistantError("The warehouse did not answer.")

    monkeypatch.setattr(fresh, "_execute", broken)
    with pytest.raises(AssistantError):
        await fresh.aping(5)
