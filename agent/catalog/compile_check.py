"""Every metric of the semantic model compiled and dry-run on the warehouse before anyone asks.

A model that names a column the warehouse spells differently, or an expression the engine
cannot run, is found at start-up and by `python -m agent catalog check`, each failure one
sentence with the YAML file, its line and the database's own error, instead of in a reply.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from dataclasses import dataclass, field

from agent.errors import AssistantError, QueryTimeoutError
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.runtime import SemanticModel
from agent.warehouse import Warehouse, WarehouseUnavailableError

log = logging.getLogger(__name__)

# How long start-up and `catalog check` spend dry-running metrics (an EXPLAIN each, a few ms on most
# engines); past it the rest are counted as not checked.
STARTUP_BUDGET_S = 30.0


@dataclass
class CompileReport:
    checked: int = 0
    compiled: int = 0
    failures: list[str] = field(default_factory=list)
    unchecked: int = 0  # left when the budget ran out

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary(self) -> str:
        rest = f"; {self.unchecked} not checked within the start-up budget" if self.unchecked else ""
        return f"{self.compiled} of {self.checked} metrics compile and run{rest}."


def check_metrics(model: SemanticModel, warehouse: Warehouse, *, budget_s: float, root: Path | None = None) -> CompileReport:
    """Compile each metric alone and dry-run it (the engine's EXPLAIN), within `budget_s` in all.
    A warehouse that stops answering ends the check: what was not reached is counted, not failed."""
    report = CompileReport()
    deadline = time.monotonic() + budget_s
    metrics = [m.name for m in model.metrics]
    for position, name in enumerate(metrics):
        if time.monotonic() > deadline:
            report.unchecked = len(metrics) - position
            break
        report.checked += 1
        failure = _check_one(name, model, warehouse, root)
        if failure is None:
            report.compiled += 1
        elif failure is _STOP:
            report.checked -= 1
            report.unchecked = len(metrics) - position
            break
        else:
            report.failures.append(failure)
    return report


_STOP = "stop"


def _check_one(name: str, model: SemanticModel, warehouse: Warehouse, root: Path | None) -> str | None:
    where = _where(name, model, root)
    try:
        compiled = compile_intent(StructuredIntent(metrics=[name]), model, warehouse.dialect)
    except AssistantError as exc:
        return f"{where}: metric '{name}' does not compile: {exc.user_message}"
    except Exception as exc:  # noqa: BLE001 - a compiler bug on one metric must name that metric
        log.exception("metric %s: compiling failed", name)
        return f"{where}: metric '{name}' does not compile: {exc}"
    try:
        warehouse.slots.call_blocking(warehouse.dry_run, compiled.sql, budget_s=warehouse.budget_s())
    except (WarehouseUnavailableError, QueryTimeoutError) as exc:
        log.warning("stopped checking metrics at '%s': %s", name, exc.user_message)
        return _STOP
    except AssistantError as exc:
        error = (exc.detail or exc.user_message).strip().splitlines()[0]
        return f"{where}: metric '{name}' compiles but {warehouse.engine} refuses it: {error}"
    return None


def _where(name: str, model: SemanticModel, root: Path | None) -> str:
    """`file:line` of the metric in the YAML, else of the semantic model it measures."""

    def at(file: str, line: int) -> str:
        path = root / file if root is not None and root.is_dir() else Path(file)
        return f"{path}:{line}"

    project = model.project
    metric = project.metric_by_name.get(name)
    if metric is not None and metric.file:
        return at(metric.file, metric.line)
    table = next((m.table for m in model.metrics if m.name == name), None)
    owner = project.model_by_name.get(table or "")
    return at(owner.file, owner.line) if owner is not None and owner.file else "the semantic model"
