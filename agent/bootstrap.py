"""The composition root: the agent's run context built once (warehouse, catalog, semantic model,
values, chat model, governance) from the settings."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast


from agent.audit import AuditTrail
from agent.budget.cpu import CpuPool
from agent.budget.in_process import InProcessCpu
from agent.catalog import Catalog, default_catalog
from agent.catalog.introspected import LiveCatalog
from agent.context import AgentContext
from agent.errors import AssistantError
from agent.groundwork import DATA_INTENT_CONFIDENCE, Groundwork, build_groundwork
from agent.llm import build_chat_model
from agent.marks import FOLLOW_UP_MARK
from agent.policy import Policy
from agent.policy.scope import Governance
from agent.settings import Settings
from agent.sql.dialect import DEFAULT_DIALECT
from agent.sql.parse import transpile
from agent.tools import steps
from agent.tools.semantic import SemanticParse, aoffline_parse, read_question
from agent.warehouse import Warehouse, WarehouseUnavailableError

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from agent.bounded_memory import BoundedInMemorySaver

log = logging.getLogger(__name__)

# A catalog match this strong makes a message a data question even when the semantic
# model cannot express it (the free path or a clear "I can't" answers it then).
DATA_MATCH_SCORE = 1.0


def build_context(
    settings: Settings, *, chat_model: BaseChatModel | None = None, warehouse: Warehouse | None = None,
    groundwork: Groundwork | None = None, in_process: bool = False, warm: bool = True,
) -> AgentContext:
    """The run context; on `groundwork` already read (warehouse, semantic model, values) when given.
    `in_process`: CPU steps run in this process under their budget (one question, then exit: a
    worker pool would cost more than it saves). `warm`: the CPU workers start now, in the background
    (else when `context.cpu.warm()` is called or the first step needs them)."""
    groundwork = groundwork or build_groundwork(settings, warehouse)
    warehouse = groundwork.warehouse
    # The offline model answers per person: each run's context hands its copy a RunReader of itself.
    model = chat_model or build_chat_model(settings, reader_for=RunReader)
    context = AgentContext(
        settings=settings,
        warehouse=warehouse,
        catalog=_catalog(settings, warehouse),
        semantic=groundwork.semantic,
        values=groundwork.values,
        model=model,
        cpu=InProcessCpu(settings.cpu_step_budget_s, preload=steps.PRELOAD, own_process=steps.NEEDS_OWN_PROCESS)
        if in_process
        else CpuPool(settings.cpu_workers, settings.cpu_step_budget_s, preload=steps.PRELOAD),
    )
    # The policy is read before the workers start: a bad file stops start-up with nothing half-started.
    context.governance = build_governance(settings, context)
    if warm:
        context.cpu.warm()
    log.info("agent ready: model=%s warehouse=%s", type(context.model).__name__, warehouse.describe())
    return context


def build_governance(settings: Settings, context: AgentContext) -> Governance:
    """The access policy (when POLICY_PATH is set; a bad file stops start-up) and the audit trail."""
    policy = Policy.load(settings.policy_path) if settings.policy_path else None
    governance = Governance(context.warehouse, policy, AuditTrail.from_settings(settings))
    if policy is not None:
        log.info("access policy %s: default %s, rules: %d", settings.policy_path, policy.data.default,
                 len(policy.data.rules))
    return governance



def _catalog(settings: Settings, warehouse: Warehouse) -> Catalog:
    """The demo's hand-written catalog, or the live warehouse's (CATALOG_PATH laid on top)."""
    if warehouse.is_demo and settings.catalog_path is None:
        return default_catalog()
    try:
        return cast(Catalog, LiveCatalog(warehouse, settings.catalog_path))
    except WarehouseUnavailableError as exc:
        log.warning("starting without the catalog until the warehouse answers: %s", exc.user_message)
        return cast(Catalog, LiveCatalog(warehouse, settings.catalog_path, eager=False))


def build_checkpointer(settings: Settings) -> BaseCheckpointSaver[Any]:
    """Sessions live in Redis when REDIS_URL is set (several replicas share them), else in-process."""
    if settings.redis_url:
        from checkpoint_redis import AsyncRedisSaver

        return AsyncRedisSaver.from_url(settings.redis_url, ttl_seconds=settings.session_idle_ttl_s)
    log.info("REDIS_URL is not set: sessions are kept in this process only (one replica, at most %d)",
             settings.memory_sessions_max)
    return memory_checkpointer(settings)


def memory_checkpointer(settings: Settings) -> BoundedInMemorySaver:
    """Sessions in this process, bounded in number and idle time like Redis's."""
    from agent.bounded_memory import BoundedInMemorySaver

    return BoundedInMemorySaver(max_sessions=settings.memory_sessions_max, idle_ttl_s=settings.session_idle_ttl_s)


class RunReader:
    """The offline model's reads (`agent.context.DataReader`) on one run's context: the router's
    checks and a question's SemanticParse, on the person's own view of the data."""

    def __init__(self, context: AgentContext) -> None:
        self.context = context

    async def is_data_question(self, question: str) -> bool:
        ctx = self.context
        # The turn's one reading (in a CPU worker under its budget), which discovery and the SQL reuse.
        extraction = (await read_question(ctx, question))[0]
        if extraction.unsupported or extraction.unknown_values:
            return True
        if extraction.intent is not None and extraction.confidence >= DATA_INTENT_CONFIDENCE:
            return True
        latest = question.split(FOLLOW_UP_MARK)[-1]
        matches = ctx.catalog.search(latest, limit=1)
        return bool(matches) and matches[0].score >= DATA_MATCH_SCORE

    async def knows_term(self, text: str) -> bool:
        catalog = self.context.catalog
        if catalog.lookup_terms(text):
            return True
        docs = catalog.search_docs(text, limit=1)
        return bool(docs) and docs[0].score >= 0.5

    async def sql_runs(self, sql: str) -> bool:
        warehouse = self.context.warehouse
        try:
            native = transpile(sql, read=DEFAULT_DIALECT, write=warehouse.dialect)
            # On a warehouse slot under its budget, through the person's scoped warehouse.
            await warehouse.adry_run(native)
        except AssistantError:
            return False
        return True

    async def read_intent(self, question: str) -> SemanticParse:
        return await aoffline_parse(self.context, question)
