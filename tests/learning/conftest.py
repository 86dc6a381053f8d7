"""Assistants over the demo warehouse whose learned words go to a store of their own (a temporary
folder, or a fresh Redis prefix), with every audit record collected."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from typing import Any

import pytest

from agent.api import Assistant, ChatContext
from agent.audit import AuditTrail
from agent.policy import Policy
from agent.policy.scope import Governance
from agent.bootstrap import build_context

_sessions = itertools.count()


@pytest.fixture(scope="session")
def learning_context(settings, warehouse):
    return build_context(settings, warehouse=warehouse)


@pytest.fixture
def new_session() -> Callable[[], str]:
    return lambda: f"learning-{next(_sessions)}"


@pytest.fixture
def audit() -> list[dict[str, Any]]:
    return []


@pytest.fixture
def make_learning_assistant(learning_context, tmp_path, audit):
    """An assistant whose store is under `tmp_path` (or Redis with `redis_url` and `prefix`); `policy`
    is the text of an access policy file. Its store is closed after the test (the warehouse is shared)."""
    made: list[Assistant] = []

    def make(*, redis_url: str | None = None, prefix: str = "sda:learned", policy: str | None = None) -> Assistant:
        settings = learning_context.settings.model_copy(
            update={"data_dir": tmp_path, "redis_url": redis_url, "learning_key_prefix": prefix.rstrip(":")})
        loaded = None
        if policy is not None:
            path = tmp_path / f"policy-{len(made)}.yaml"
            path.write_text(policy)
            loaded = Policy.load(path)
        trail = AuditTrail([])
        trail.listeners.append(audit.append)
        governance = Governance(learning_context.warehouse, loaded, trail)
        assistant = Assistant(dataclasses.replace(learning_context, settings=settings, governance=governance))
        made.append(assistant)
        return assistant

    yield make
    for assistant in made:
        assistant.learning.store.close()


async def ask(assistant: Assistant, session: str, text: str, who: ChatContext):
    return await assistant.reply(assistant.ask(session, text, who))


async def choose(assistant: Assistant, session: str, choice: str, who: ChatContext):
    return await assistant.reply(assistant.resume(session, choice, who))


async def answer(assistant: Assistant, session: str, text: str, who: ChatContext):
    """The answered question (a confirmation, when the bot asks one, is answered with Run)."""
    reply = await ask(assistant, session, text, who)
    if reply.ask_human is not None and not reply.rows:
        reply = await choose(assistant, session, "run", who)
    assert reply.ok and reply.sql, reply.text
    return reply
