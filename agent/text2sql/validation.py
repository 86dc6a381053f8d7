"""Validate a candidate (parse, read-only guard, the engine's dry run) and repair it minimally.

Repair (seed 004, ResultEvaluator): at most MAX_REPAIRS rounds; each round first tries the
SQL layer's deterministic `fix_sql` (no LLM; minimal edits it proves with a dry run), then,
only if that did not make the SQL valid, one LLM step given the engine's own error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel

from agent.errors import AssistantError, LLMError
from agent.sql.fix import fix_sql
from agent.sql.checked import CheckedQuery, SqlInput, sql_text
from agent.sql.guard import ensure_read_only
from agent.sql.parse import sqlglot_dialect, transpile
from agent.text2sql import prompts
from agent.text2sql.placeholders import mask_placeholders
from agent.text2sql.steps import SqlRepair, ask
from agent.text2sql.strategies import tidy_sql
from agent.warehouse import Warehouse

MAX_REPAIRS = 2


class Check(BaseModel):
    ok: bool
    error: str | None = None  # for people
    detail: str | None = None  # the engine's words, for the repair step


@dataclass
class Validated:
    sql: str
    check: Check
    repairs: list[str] = field(default_factory=list)
    llm_calls: int = 0


class SqlValidator:
    def __init__(self, warehouse: Warehouse, dialect: str):
        self.warehouse = warehouse
        self.dialect = dialect

    def dry_run(self, sql: str) -> None:
        """Raise a typed SqlError unless the SQL (placeholders masked) would run on the warehouse."""
        masked = mask_placeholders(sql)
        ensure_read_only(masked, dialect=self.dialect)
        if not self._writes_native:
            masked = transpile(masked, read=self.dialect, write=self.warehouse.dialect)
        self.warehouse.dry_run(masked)

    def dry_run_native(self, sql: SqlInput) -> None:
        """In the warehouse's own dialect (the fix's rounds): a query the guard has read is dry-run as read."""
        if isinstance(sql, CheckedQuery) and mask_placeholders(sql.sql) == sql.sql:
            self.warehouse.dry_run(sql)
        else:
            self.warehouse.dry_run(mask_placeholders(sql_text(sql)))

    @property
    def _writes_native(self) -> bool:
        return sqlglot_dialect(self.dialect) == self.warehouse.dialect

    def check(self, sql: str) -> Check:
        try:
            self.dry_run(sql)
        except AssistantError as exc:
            return Check(ok=False, error=exc.user_message, detail=exc.detail or exc.user_message)
        return Check(ok=True)

    async def acheck(self, sql: str) -> Check:
        # On a warehouse slot, not the default executor: a dry run that never returns is abandoned.
        try:
            return await self.warehouse.slots.call(self.check, sql, budget_s=self.warehouse.budget_s())
        except AssistantError as exc:
            return Check(ok=False, error=exc.user_message, detail=exc.detail or exc.user_message)

    async def repair(
        self,
        sql: str,
        failed: Check,
        *,
        question: str,
        context: str,
        model: BaseChatModel,
    ) -> Validated:
        """Up to MAX_REPAIRS rounds of minimal repair; returns the last SQL and its check."""
        state = Validated(sql=sql, check=failed)
        for _ in range(MAX_REPAIRS):
            if await self._deterministic_fix(state):
                return state
            state.llm_calls += 1
            try:
                repaired = await ask(
                    model,
                    SqlRepair,
                    prompts.system(prompts.REPAIR, self.dialect),
                    prompts.task(
                        question, context, f"SQL:\n{state.sql}", f"Engine error:\n{state.check.detail}"
                    ),
                )
            except LLMError:
                return state
            candidate = tidy_sql(repaired.sql)
            state.check = await self.acheck(candidate)
            state.sql = candidate
            state.repairs.append(repaired.diagnosis)
            if state.check.ok:
                return state
        return state

    async def _deterministic_fix(self, state: Validated) -> bool:
        """The SQL layer's fix_sql; it works in the warehouse's dialect, so its result is written back in ours."""
        try:
            # Its dry runs go to the warehouse: on a slot, abandoned at the budget of a CPU step.
            outcome = await self.warehouse.slots.call(
                fix_sql,
                state.sql,
                error=state.check.detail,
                dialect=self.dialect,
                schema=self.warehouse.schema(),
                dry_run=self.dry_run_native,
                target=self.warehouse.dialect,
                budget_s=self.warehouse.settings.cpu_step_budget_s,
            )
            fixed = outcome.fixed_sql
            if outcome.valid and fixed is not None and not self._writes_native:
                fixed = transpile(fixed, read=self.warehouse.dialect, write=self.dialect)
        except AssistantError:
            return False
        if not (outcome.valid and outcome.changes) or fixed is None:
            return False
        check = await self.acheck(fixed)
        if not check.ok:
            return False
        state.sql, state.check = fixed, check
        state.repairs.extend(f"{change.what} ({change.why})" for change in outcome.changes)
        return True
