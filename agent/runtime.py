"""The agent's run context and how it is built once: warehouse, catalog, semantic model, values, chat model.

The context lives outside the graph state on purpose: state is checkpointed (and so
serialised), while a warehouse connection or a chat model must never be.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, cast

from langchain_core.language_models.chat_models import BaseChatModel

from agent.audit import AuditTrail
from agent.budget import steps
from agent.budget.bridge import on_run_loop
from agent.budget.cpu import CpuPool
from agent.catalog import Catalog, default_catalog
from agent.catalog.bootstrap_dbt import write_project
from agent.catalog.commands import bootstrap_document
from agent.catalog.commands import semantic_dir_for
from agent.catalog.introspected import LiveCatalog
from agent.errors import AssistantError, QueryTimeoutError
from agent.llm import build_chat_model
from agent.llm.routing import FOLLOW_UP_MARK, Recognisers
from agent.policy import Policy
from agent.policy.scope import RUN_CONTEXT, Governance
from agent.semantic.dbt_spec import Project
from agent.semantic.layer import load_layer
from agent.semantic.model import SemanticModel
from agent.semantic.values import ValueIndex
from agent.settings import Settings
from agent.sql.parse import transpile
from agent.warehouse import Warehouse, WarehouseUnavailableError

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
    cpu: CpuPool  # where CPU-heavy SQL steps run, each under a budget
    governance: Any = None  # agent.policy.scope.Governance: the access policy and the audit trail
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
    semantic = _semantic_model(settings, warehouse)
    context = AgentContext(
        settings=settings,
        warehouse=warehouse,
        catalog=_catalog(settings, warehouse),
        semantic=semantic,
        values=_values(warehouse, semantic),
        model=None,  # set below: the offline model needs the rest of the context
        cpu=CpuPool(settings.cpu_workers, settings.cpu_step_budget_s),
    )
    context.model = chat_model or build_chat_model(
        settings,
        recognisers=_recognisers(context),
        structured={SemanticParse.__name__: lambda question: offline_parse(RUN_CONTEXT.get() or context, question)},
    )
    context.cpu.warm()
    context.governance = build_governance(settings, context)
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


def _values(warehouse: Warehouse, semantic: SemanticModel) -> ValueIndex:
    """The warehouse's values for the semantic model; none when a read runs past its budget (start-up
    goes on: words naming values are not recognised until a restart)."""
    try:
        return ValueIndex.from_warehouse(warehouse, semantic)
    except QueryTimeoutError as exc:
        log.warning("starting without the warehouse's values: %s", exc.user_message)
        return ValueIndex()


def _catalog(settings: Settings, warehouse: Warehouse):
    """The demo's hand-written catalog, or the live warehouse's (CATALOG_PATH laid on top)."""
    if warehouse.is_demo and settings.catalog_path is None:
        return default_catalog()
    try:
        return cast(Catalog, LiveCatalog(warehouse, settings.catalog_path))
    except WarehouseUnavailableError as exc:
        log.warning("starting without the catalog until the warehouse answers: %s", exc.user_message)
        return cast(Catalog, LiveCatalog(warehouse, settings.catalog_path, eager=False))


def _semantic_model(settings: Settings, warehouse: Warehouse) -> SemanticModel:
    """SEMANTIC_MODEL_PATH's dbt project, else the demo's; for another warehouse with no model, a dbt
    model is bootstrapped from its schema and written under DATA_DIR for a person to edit."""
    path = settings.semantic_model_path
    if path is None and not warehouse.is_demo:
        folder = semantic_dir_for(settings, warehouse)
        try:
            write_project(bootstrap_document(warehouse, warehouse.schema(), settings), folder)
            log.info("bootstrapped a dbt semantic model of %s in %s", warehouse.describe(), folder)
        except WarehouseUnavailableError as exc:
            if not any(folder.glob("*.yml")):
                # Nothing to read the questions with yet: the free path answers until a restart.
                log.warning("no semantic model until the warehouse answers: %s", exc.user_message)
                demo = load_layer()
                return demo.model_copy(update={
                    "tables": [], "joins": [], "dimensions": [], "metrics": [], "default_metric": None,
                    "project": Project([], [], [], warehouse.dialect),
                })
            log.warning("the warehouse does not answer; using the model bootstrapped earlier in %s", folder)
        path = folder
    semantic = load_layer(path, dialect=warehouse.dialect)
    for problem in semantic.project.diagnostics:
        log.warning("semantic model: %s", problem)
    return semantic


def build_checkpointer(settings: Settings):
    """Sessions live in Redis when REDIS_URL is set (several replicas share them), else in-process."""
    if settings.redis_url:
        from checkpoint_redis import AsyncRedisSaver

        return AsyncRedisSaver.from_url(settings.redis_url, ttl_seconds=settings.session_idle_ttl_s)
    from langgraph.checkpoint.memory import InMemorySaver

    log.info("REDIS_URL is not set: sessions are kept in this process only (one replica)")
    return InMemorySaver()


def _recognisers(base: AgentContext) -> Recognisers:
    def is_data_question(question: str) -> bool:
        ctx = RUN_CONTEXT.get() or base
        # In a CPU worker under its budget, like every parse: a pathological question costs its budget.
        ctx.values.read_all_latest(ctx.semantic)  # the worker has no warehouse to read them from
        [extraction] = ctx.cpu.run_sync(
            steps.READING_QUESTION, steps.read_questions, ctx.cpu.share(ctx.semantic, ctx.values), [question]
        )
        if extraction.unsupported or extraction.unknown_values:
            return True
        if extraction.intent is not None and extraction.confidence >= DATA_INTENT_CONFIDENCE:
            return True
        latest = question.split(FOLLOW_UP_MARK)[-1]
        matches = ctx.catalog.search(latest, limit=1)
        return bool(matches) and matches[0].score >= DATA_MATCH_SCORE

    def knows_term(text: str) -> bool:
        ctx = RUN_CONTEXT.get() or base
        if ctx.catalog.lookup_terms(text):
            return True
        docs = ctx.catalog.search_docs(text, limit=1)
        return bool(docs) and docs[0].score >= 0.5

    def sql_runs(sql: str) -> bool:
        ctx = RUN_CONTEXT.get() or base
        try:
            native = transpile(sql, read="presto", write=ctx.warehouse.dialect)
            # On a warehouse slot under its budget, through the person's scoped warehouse.
            on_run_loop(lambda: ctx.warehouse.adry_run(native), lambda: ctx.warehouse.dry_run(native))
        except AssistantError:
            return False
        return True

    return Recognisers(is_data_question=is_data_question, knows_term=knows_term, sql_runs=sql_runs)
