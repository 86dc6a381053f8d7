"""The agent's run context and how it is built once: warehouse, catalog, semantic model, values, chat model.

The context lives outside the graph state on purpose: state is checkpointed (and so
serialised), while a warehouse connection or a chat model must never be.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from agent.catalog import Catalog, default_catalog
from agent.errors import AssistantError
from agent.llm import build_chat_model
from agent.llm.routing import FOLLOW_UP_MARK, Recognisers
from agent.semantic.extract import extract_intent
from agent.semantic.layer import load_layer
from agent.semantic.model import SemanticModel
from agent.semantic.values import ValueIndex
from agent.settings import Settings
from agent.sql.parse import transpile
from agent.warehouse import Warehouse

log = logging.getLogger(__name__)

# A catalog match this strong makes a message a data question even when the semantic
# model cannot express it (the free path or a clear "I can't" answers it then).
DATA_MATCH_SCORE = 1.0
# Below this share of recognised words an intent is a guess (a season word in a poem request).
DATA_INTENT_CONFIDENCE = 0.75


@dataclass
class AgentContext:
    """What every node and tool needs at run time, passed as LangGraph's run context."""

    settings: Settings
    warehouse: Warehouse
    catalog: Catalog
    semantic: SemanticModel
    values: ValueIndex
    model: BaseChatModel
    # Extra per-run knobs (tests and benches flip them without rebuilding the context).
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def confirm_before_run(self) -> bool:
        return bool(self.options.get("confirm_before_run", self.settings.confirm_before_run))

    @property
    def has_llm(self) -> bool:
        """False for the offline model: tools then use their deterministic engines for prose."""
        return not getattr(self.model, "is_offline", False)


def build_context(settings: Settings, *, chat_model=None, warehouse: Warehouse | None = None) -> AgentContext:
    # Tools type their run context with AgentContext, so they are imported once it exists.
    from agent.tools.semantic import SemanticParse, offline_parse

    warehouse = warehouse or Warehouse.from_settings(settings)
    semantic = load_layer(settings.semantic_model_path)
    for problem in semantic.project.diagnostics:
        log.warning("semantic model: %s", problem)
    context = AgentContext(
        settings=settings,
        warehouse=warehouse,
        catalog=default_catalog(),
        semantic=semantic,
        values=ValueIndex.from_warehouse(warehouse, semantic),
        model=None,  # set below: the offline model needs the rest of the context
    )
    context.model = chat_model or build_chat_model(
        settings,
        recognisers=_recognisers(context),
        structured={SemanticParse.__name__: lambda question: offline_parse(context, question)},
    )
    log.info("agent ready: model=%s warehouse=%s", type(context.model).__name__, warehouse.path)
    return context


def build_checkpointer(settings: Settings):
    """Sessions live in Redis when REDIS_URL is set (several replicas share them), else in-process."""
    if settings.redis_url:
        from checkpoint_redis import AsyncRedisSaver

        return AsyncRedisSaver.from_url(settings.redis_url, ttl_seconds=settings.session_idle_ttl_s)
    from langgraph.checkpoint.memory import InMemorySaver

    log.info("REDIS_URL is not set: sessions are kept in this process only (one replica)")
    return InMemorySaver()


def _recognisers(ctx: AgentContext) -> Recognisers:
    def is_data_question(question: str) -> bool:
        extraction = extract_intent(question, ctx.semantic, ctx.values)
        if extraction.unsupported or extraction.unknown_values:
            return True
        if extraction.intent is not None and extraction.confidence >= DATA_INTENT_CONFIDENCE:
            return True
        latest = question.split(FOLLOW_UP_MARK)[-1]
        matches = ctx.catalog.search(latest, limit=1)
        return bool(matches) and matches[0].score >= DATA_MATCH_SCORE

    def knows_term(text: str) -> bool:
        if ctx.catalog.lookup_terms(text):
            return True
        docs = ctx.catalog.search_docs(text, limit=1)
        return bool(docs) and docs[0].score >= 0.5

    def sql_runs(sql: str) -> bool:
        try:
            ctx.warehouse.dry_run(transpile(sql, read="presto", write="duckdb"))
        except AssistantError:
            return False
        return True

    return Recognisers(is_data_question=is_data_question, knows_term=knows_term, sql_runs=sql_runs)
