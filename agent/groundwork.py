"""What the agent reads before its graph exists: the warehouse, the semantic model and its values.

It imports no LangGraph, LangChain or chart library, so a command line can open the warehouse and
show how it reads a question within a second of starting, while the heavier machinery (graph,
tools, chat model) is still to be imported. `bootstrap.build_context` builds on it, so nothing is
read twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from agent import groundwork_cache
from agent.budget.inputs import check_question
from agent.errors import InputTooLargeError, QueryTimeoutError
from agent.llm.routing import clean_message, split_sql
from agent.semantic.dbt_spec import Project
from agent.semantic.extract import extract_intent
from agent.semantic.layer import load_layer
from agent.semantic.model import SemanticModel, SemanticModelError
from agent.semantic.reading import describe
from agent.semantic import words
from agent.semantic.values import ValueIndex
from agent.settings import Settings
from agent.warehouse import Warehouse, WarehouseUnavailableError, open_warehouse

log = logging.getLogger(__name__)

# Below this share of recognised words an intent is a guess (a season word in a poem request).
DATA_INTENT_CONFIDENCE = 0.75


@dataclass
class Groundwork:
    settings: Settings
    warehouse: Warehouse
    semantic: SemanticModel
    values: ValueIndex

    def reading(self, question: str) -> str | None:
        """How the offline model will read a new question ("Number of flights by origin airport"), or
        None when that is not settled before the supervisor runs: an LLM reads it, an access policy
        decides what this person may see, it holds SQL, or it is no confident data question."""
        if self.settings.has_llm or self.settings.policy_path is not None:
            return None
        message = clean_message(question)
        try:
            check_question(message, self.settings.max_question_chars)
        except InputTooLargeError:
            return None
        if not message or split_sql(message)[0]:
            return None
        extraction = extract_intent(message, self.semantic, self.values)
        if (extraction.intent is None or extraction.unsupported or extraction.unknown_values
                or extraction.confidence < DATA_INTENT_CONFIDENCE):
            return None
        return describe(extraction.intent, self.semantic)


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
