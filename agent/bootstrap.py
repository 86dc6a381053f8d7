"""The composition root: what the agent runs on, built once at start from the settings, in two stages.

`build_groundwork`: what the agent reads before its graph exists, the warehouse, the semantic model and its
values. It needs no LangGraph, LangChain, chart library or worker pool, so a command line can open the
warehouse and show how it reads a question within a second of starting, while the heavier machinery is
still to be imported. `build_context` builds the run context on that groundwork (catalog, chat model, CPU
workers, governance), so nothing is read twice; `build_checkpointer` says where sessions live.

Importing this module costs what the first stage needs and no more: what only the second stage uses is
imported when it is built (`agent.api` imports this module at once, and must stay light).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from agent import groundwork_cache
from agent.budget.ahead import StepAhead
from agent.budget.inputs import check_question
from agent.errors import AssistantError, InputTooLargeError, QueryTimeoutError
from agent.llm.routing import person_message, split_sql
from agent.semantic.model.runtime import SemanticModel, SemanticModelError
from agent.text import words
from agent.semantic.model.values import ValueIndex
from agent.settings import Settings
from agent.warehouse import Warehouse, WarehouseUnavailableError, open_warehouse

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from agent.catalog import Catalog
    from agent.context import AgentContext
    from agent.policy.scope import Governance
    from agent.session.memory import BoundedInMemorySaver

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reading:
    """How the offline model will read a question, before the supervisor runs."""

    text: str  # "Number of flights by origin airport."
    grouped: bool  # a row per group: the answer most likely has a chart (agent/chatbi/choose_chart.py)


@dataclass
class Groundwork:
    settings: Settings
    warehouse: Warehouse
    semantic: SemanticModel
    values: ValueIndex

    def reading(self, question: str) -> Reading | None:
        """How the offline model will read a new question ("Number of flights by origin airport"), or
        None when that is not settled before the supervisor runs: an LLM reads it, an access policy
        decides what this person may see, it holds SQL, or it is no confident data question."""
        if self.settings.has_llm or self.settings.policy_path is not None:
            return None
        message = person_message(question)
        try:
            check_question(message, self.settings.max_question_chars)
        except InputTooLargeError:
            return None
        if not message or split_sql(message)[0]:
            return None
        # The reader and its compiler: imported by the first reading, not by a server's start (its graph
        # imports them once it is built, after /readyz has said 200).
        from agent.semantic.compile.reading import describe
        from agent.semantic.nlq.extract import extract_intent
        from agent.llm.reader import DATA_INTENT_CONFIDENCE

        extraction = extract_intent(message, self.semantic, self.values)
        if (extraction.intent is None or extraction.unsupported or extraction.unknown_values
                or extraction.confidence < DATA_INTENT_CONFIDENCE):
            return None
        intent = extraction.intent
        return Reading(describe(intent, self.semantic), grouped=bool(intent.dimensions) and not intent.count_groups)

    def read_ahead(self, *, dates: bool) -> None:
        """Read on a thread from now what a command's first steps wait for, while this thread goes on (a
        command line imports the graph machinery meanwhile): the warehouse's schema (scoping a run to its
        person reads it) and, with `dates`, the data's latest and earliest dates (a question's reading
        counts periods from them; a SQL text to run, fix or explain is read without them). Both are
        queries the engine runs in its own code, letting go of the GIL. A first use waits for what is
        being read; a read that fails is made again there, and says why there."""

        def read() -> None:
            try:
                self.warehouse.schema()
                if dates:
                    self.values.read_all_latest(self.semantic)
            except AssistantError:
                pass

        threading.Thread(target=read, name="read-ahead", daemon=True).start()


def build_groundwork(settings: Settings, warehouse: Warehouse | None = None) -> Groundwork:
    warehouse = warehouse or open_warehouse(settings)
    words.use_disk_cache(Path(settings.data_dir) / "cache")  # the model's words, without the libraries' tables
    kept_at = groundwork_cache.cache_path(settings, warehouse)
    kept = groundwork_cache.load(kept_at) if kept_at is not None else None
    if kept is not None:
        _log_diagnostics(kept[0])
        return Groundwork(settings, warehouse, kept[0], ValueIndex.kept(kept[1], warehouse, kept[0]))
    semantic = _semantic_model(settings, warehouse)
    if not warehouse.is_demo and semantic.tables:
        # People call the data by the schema it lives in ('movies in the catalog', 'the sales data').
        semantic = semantic.model_copy(update={"data_names": [warehouse.schema().default_schema]})
    values = _values(warehouse, semantic)
    if kept_at is not None and values is not None:  # values cut short by their budget are not kept
        groundwork_cache.save(kept_at, semantic, values)
    groundwork = Groundwork(settings, warehouse, semantic, values or ValueIndex())
    words.save_disk_cache()
    return groundwork


def _values(warehouse: Warehouse, semantic: SemanticModel) -> ValueIndex | None:
    """The warehouse's values for the semantic model; None when a read runs past its budget (start-up
    goes on without them: words naming values are not recognised until a restart)."""
    try:
        return ValueIndex.from_warehouse(warehouse, semantic)
    except QueryTimeoutError as exc:
        log.warning("starting without the warehouse's values: %s", exc.user_message)
        return None


def _semantic_model(settings: Settings, warehouse: Warehouse) -> SemanticModel:
    """SEMANTIC_MODEL_PATH's dbt project, else the demo's; for another warehouse with no model, a dbt
    model is bootstrapped from its schema and written under DATA_DIR for a person to edit."""
    from agent.semantic.model.layer import load_layer  # the YAML's reader: not when the data folder kept the model
    from agent.semantic.spec.dbt_spec import Project

    path = settings.semantic_model_path
    if path is None and not warehouse.is_demo:
        from agent.catalog.bootstrap_dbt import write_project  # the catalog: not on the demo's first step
        from agent.catalog.commands import bootstrap_document, semantic_dir_for

        folder = semantic_dir_for(settings, warehouse)
        try:
            schema = warehouse.schema()
            if not schema.tables:  # say which schemas were seen and the setting, not "no metric"
                from agent.catalog.introspected import no_tables_sentence

                raise SemanticModelError(no_tables_sentence(schema))
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
    _log_diagnostics(semantic)
    if not warehouse.is_demo:  # the demo's model is checked by the tests, not at every start
        _check_compiles(semantic, warehouse, path)
    return semantic


def _log_diagnostics(semantic: SemanticModel) -> None:
    for problem in semantic.project.diagnostics:
        log.warning("semantic model: %s", problem)


def _check_compiles(semantic: SemanticModel, warehouse: Warehouse, path: Path | None) -> None:
    """Each metric compiled and dry-run now, so a model the warehouse cannot run is found before anyone
    asks: failures are logged with file and line; a model none of whose metrics runs stops the start."""
    from agent.catalog.compile_check import STARTUP_BUDGET_S, check_metrics

    report = check_metrics(semantic, warehouse, budget_s=STARTUP_BUDGET_S, root=path)
    for failure in report.failures:
        log.warning("semantic model: %s", failure)
    log.info("semantic model: %s", report.summary())
    if report.checked and not report.compiled:
        raise SemanticModelError(
            f"No metric of the semantic model runs on {warehouse.engine}; the first: {report.failures[0]}"
        )


# -- the run context --------------------------------------------------------------------------------



def chart_ahead() -> StepAhead:
    """A process that imports the chart library now, on another core, and then draws the chart of a
    command line's answer (agent/budget/ahead.py); what it runs is what `steps.draw_chart` calls."""
    return StepAhead("agent.charts.render:render_png")


def build_context(
    settings: Settings, *, chat_model: BaseChatModel | None = None, warehouse: Warehouse | None = None,
    groundwork: Groundwork | None = None, in_process: bool = False, warm: bool = True,
    drawing: StepAhead | None = None,
) -> AgentContext:
    """The run context; on `groundwork` already read (warehouse, semantic model, values) when given.
    `in_process`: CPU steps run in this process under their budget (one question, then exit: a
    worker pool would cost more than it saves). `warm`: the CPU workers start now, in the background
    (else when `context.cpu.warm()` is called or the first step needs them). `drawing` (with
    `in_process`): the process started for the chart (`chart_ahead`), which then draws it."""
    from agent.budget.cpu import CpuPool  # a worker pool: not for a command line's first step
    from agent.budget.in_process import InProcessCpu
    from agent.context import AgentContext
    from agent.llm import build_chat_model
    from agent.tools import steps
    from agent.llm.reader import RunReader

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
        cpu=InProcessCpu(settings.cpu_step_budget_s, preload=steps.PRELOAD, own_process=steps.NEEDS_OWN_PROCESS,
                         ahead={steps.draw_chart: drawing} if drawing is not None else None)
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
    from agent.audit import AuditTrail
    from agent.policy import Policy
    from agent.policy.scope import Governance

    policy = Policy.load(settings.policy_path) if settings.policy_path else None
    governance = Governance(context.warehouse, policy, AuditTrail.from_settings(settings))
    if policy is not None:
        log.info("access policy %s: default %s, rules: %d", settings.policy_path, policy.data.default,
                 len(policy.data.rules))
    return governance


def _catalog(settings: Settings, warehouse: Warehouse) -> Catalog:
    """The demo's hand-written catalog, or the live warehouse's (CATALOG_PATH laid on top)."""
    from agent.catalog import default_catalog
    from agent.catalog.introspected import LiveCatalog

    if warehouse.is_demo and settings.catalog_path is None:
        return default_catalog()
    try:
        return cast("Catalog", LiveCatalog(warehouse, settings.catalog_path))
    except WarehouseUnavailableError as exc:
        log.warning("starting without the catalog until the warehouse answers: %s", exc.user_message)
        return cast("Catalog", LiveCatalog(warehouse, settings.catalog_path, eager=False))


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
    from agent.session.memory import BoundedInMemorySaver

    return BoundedInMemorySaver(max_sessions=settings.memory_sessions_max, idle_ttl_s=settings.session_idle_ttl_s)
