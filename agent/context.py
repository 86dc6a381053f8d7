"""What a run knows: who is asking (`ChatContext`) and the agent's parts as that run sees them
(`AgentContext`). A leaf: tools, the policy and the graph import it, it imports none of them, so
the composition root (`agent.runtime`) can import them all without a cycle.

The context lives outside the graph state on purpose: state is checkpointed (and so
serialised), while a warehouse connection or a chat model must never be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
