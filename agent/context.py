"""What a run knows: who is asking (`ChatContext`) and the agent's parts as that run sees them
(`AgentContext`), and what the offline model reads through (`Router`, `IntentReader`). A leaf: tools,
the policy, the model and the graph import it, it imports none of them, so the composition root
(`agent.bootstrap`) can import them all without a cycle.

The context lives outside the graph state on purpose: state is checkpointed (and so
serialised), while a warehouse connection or a chat model must never be.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field, GetCoreSchemaHandler
from pydantic_core import core_schema

from agent.errors import NoRunContextError

if TYPE_CHECKING:  # annotations only: the public API imports ChatContext and must stay light
    from langchain_core.language_models.chat_models import BaseChatModel

    from agent.budget.cpu import CpuPool
    from agent.catalog import Catalog
    from agent.semantic.model.runtime import SemanticModel
    from agent.semantic.model.values import ValueIndex
    from agent.settings import Settings
    from agent.warehouse import Warehouse


# What a person is told when their request reached the data with no run's context to scope it by.
NO_RUN_CONTEXT = "I lost track of who is asking, so I stopped. Please ask again."


class Router(Protocol):
    """What the offline router asks of the data, answered on the view of the person asking."""

    async def is_data_question(self, question: str) -> bool: ...

    async def knows_term(self, text: str) -> bool: ...

    async def sql_runs(self, sql: str) -> bool: ...


class IntentReader(Protocol):
    """The offline model's structured reading of a question (a `SemanticParse`), on that same view."""

    async def read_intent(self, question: str) -> BaseModel: ...


class DataReader(Router, IntentReader, Protocol):
    """Both, on one run's context: what the offline model reads the data through."""


@runtime_checkable
class ReadsPerRun(Protocol):
    """A chat model whose answers come from the data as one person may see it (the offline model):
    each run's context holds its own copy, handed that context when the context is made."""

    def for_run(self, context: AgentContext) -> BaseChatModel: ...


class OutsideARun:
    """The data as read outside any run: there is no person to scope it to, so every read is refused
    (fails closed) rather than answered from the unscoped warehouse, catalog or values."""

    def _refuse(self) -> NoRunContextError:
        return NoRunContextError(NO_RUN_CONTEXT)

    async def is_data_question(self, question: str) -> bool:
        raise self._refuse()

    async def knows_term(self, text: str) -> bool:
        raise self._refuse()

    async def sql_runs(self, sql: str) -> bool:
        raise self._refuse()

    async def read_intent(self, question: str) -> BaseModel:
        raise self._refuse()


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
    # This run's readings of its messages, by what the reader was given (`agent.tools.semantic.read_once`:
    # a question is read once per turn and that reading passed on, never read again). Every context made
    # starts with none of its own (a copy too, which `dataclasses.replace` makes afresh), so no run reads
    # another's: a reading is the person's view's, and the next turn reads afresh.
    readings: dict[Hashable, asyncio.Task[Any]] = field(default_factory=dict, init=False)
    # Extra per-run knobs (tests and benches flip them without rebuilding the context).
    options: dict[str, Any] = field(default_factory=dict)
    # One run's context (`Governance.context_for` makes it), not the agent's unscoped one: a model
    # that reads per person (`ReadsPerRun`) is handed this context here, and again on every copy
    # (`dataclasses.replace`), so it always reads the view the run's tools see. The unscoped
    # context's model is never handed one, and refuses to read.
    per_run: bool = False
    # False for the offline model: tools then use their deterministic engines for prose. Said once, as
    # the context is made (and again on every copy): the model is fixed then.
    has_llm: bool = field(init=False)

    def __post_init__(self) -> None:
        if self.per_run and isinstance(self.model, ReadsPerRun):
            self.model = self.model.for_run(self)
        self.has_llm = not getattr(self.model, "is_offline", False)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        """Tools receive the context in their input, which langchain-core validates and then dumps on
        every call only to learn the field names. It is checked by type and dumped as nothing: walking
        (or, typed wrongly, repr-ing for a warning) connections, models and catalogs costs ~20 ms a call."""
        return core_schema.is_instance_schema(cls, serialization=core_schema.plain_serializer_function_ser_schema(_nothing))


def _nothing(_: AgentContext) -> None:
    return None
