"""What a run knows: who is asking (`ChatContext`) and the agent's parts as that run sees them
(`AgentContext`). A leaf: tools, the policy and the graph import it, it imports none of them, so
the composition root (`agent.runtime`) can import them all without a cycle.

The context lives outside the graph state on purpose: state is checkpointed (and so
serialised), while a warehouse connection or a chat model must never be.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, Field, GetCoreSchemaHandler
from pydantic_core import core_schema

if TYPE_CHECKING:  # annotations only: the public API imports ChatContext and must stay light
    from langchain_core.language_models.chat_models import BaseChatModel

    from agent.budget.cpu import CpuPool
    from agent.catalog import Catalog
    from agent.semantic.model import SemanticModel
    from agent.semantic.values import ValueIndex
    from agent.settings import Settings
    from agent.warehouse import Warehouse


T = TypeVar("T")


class Readings:
    """What the reader made of this turn's messages, by what it was given: a question is read once per
    turn and that reading passed on (the router's check, discovery, the SQL), never read again.

    One per run (`Governance.context_for` makes it): a reading is the person's view's, and the next
    turn reads afresh. Callers treat a reading as read-only.
    """

    def __init__(self) -> None:
        self._made: dict[Hashable, asyncio.Task[Any]] = {}
        self.reads = 0  # readings made (not reused) in this run, for tests and benches

    async def once(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        """`read()`'s result for `key`, made on first ask; a failed read is not kept (the next ask reads)."""
        task = self._made.get(key)
        if task is None:
            self.reads += 1
            task = asyncio.ensure_future(read())
            self._made[key] = task
        try:
            return await asyncio.shield(task)
        except BaseException:
            if task.done() and (task.cancelled() or task.exception() is not None):
                self._made.pop(key, None)
            raise


class ChatContext(BaseModel):
    """Who is asking and where; the agent uses it for access, tone and logs, never for Slack calls."""

    user: str | None = None
    channel: str | None = None
    groups: list[str] = Field(default_factory=list)  # the person's user groups, for the access policy
    workspace: str | None = None  # the Slack team: learned words and verified queries are kept per workspace
    locale: str = "en-US"
    request_id: str | None = None


@dataclass
class AgentContext:
    """What every node and tool needs at run time, passed as LangGraph's run context."""

    settings: Settings
    warehouse: Warehouse
    catalog: Catalog
    semantic: SemanticModel
    values: ValueIndex
    model: BaseChatModel
    cpu: CpuPool  # where CPU-heavy SQL steps run, each under a budget
    governance: Any = None  # agent.policy.scope.Governance: the access policy and the audit trail
    readings: Readings = field(default_factory=Readings)  # this run's readings of its messages
    # Extra per-run knobs (tests and benches flip them without rebuilding the context).
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        """Tools receive the context in their input, which langchain-core validates and then dumps on
        every call only to learn the field names. It is checked by type and dumped as nothing: walking
        (or, typed wrongly, repr-ing for a warning) connections, models and catalogs costs ~20 ms a call."""
        return core_schema.is_instance_schema(cls, serialization=core_schema.plain_serializer_function_ser_schema(_nothing))

    @property
    def confirm_before_run(self) -> bool:
        return bool(self.options.get("confirm_before_run", self.settings.confirm_before_run))

    @property
    def has_llm(self) -> bool:
        """False for the offline model: tools then use their deterministic engines for prose."""
        return not getattr(self.model, "is_offline", False)


def _nothing(_: AgentContext) -> None:
    return None
