"""What every node and tool needs at run time, built once and passed as LangGraph's run context.

It lives outside the graph state on purpose: state is checkpointed (and so serialised),
while a warehouse connection or a chat model must never be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from agent.budget.cpu import CpuPool
from agent.settings import Settings
from agent.warehouse import Warehouse


@dataclass
class AgentContext:
    settings: Settings
    warehouse: Warehouse
    catalog: Any  # agent.catalog.Catalog
    semantic: Any  # agent.semantic.SemanticModel
    values: Any  # agent.semantic.ValueIndex
    model: BaseChatModel
    cpu: CpuPool  # where CPU-heavy SQL steps run, each under a budget
    # Extra per-run knobs (tests and benches flip them without rebuilding the context).
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def confirm_before_run(self) -> bool:
        return self.options.get("confirm_before_run", self.settings.confirm_before_run)

    @property
    def has_llm(self) -> bool:
        """False for the offline model: tools then use their deterministic engines for prose."""
        return not getattr(self.model, "is_offline", False)
