"""Agent fixtures: one offline context per test session, and assistants over any chat model."""

from __future__ import annotations

import dataclasses

import pytest

from agent.api import Assistant
from agent.llm.routing import Route, route_message
from agent.bootstrap import build_context


@pytest.fixture(scope="session")
def offline_context(settings, warehouse):
    return build_context(settings, warehouse=warehouse)


@pytest.fixture(scope="session")
def offline_assistant(offline_context):
    return Assistant(offline_context)


@pytest.fixture
def make_assistant(offline_context):
    """An assistant over the given chat model; options override settings for this test only."""

    def make(model, *, dispatch_strategy="rules", settings=None, **options):
        context = dataclasses.replace(
            offline_context, model=model, options=options, settings=settings or offline_context.settings
        )
        return Assistant(context, dispatch_strategy=dispatch_strategy)

    return make


@pytest.fixture
def route(offline_context):
    """The offline router on a message, in a run of the offline context (its checks are per person)."""
    run = dataclasses.replace(offline_context, per_run=True)

    async def route(text: str, **history) -> Route:
        return await route_message(text, run.model.reader, **history)

    return route
