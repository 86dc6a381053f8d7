"""The free Text-to-SQL path (seed 003) as a LangGraph subgraph.

    preprocess ─┬─► plan_and_reflect ───┬─► judge ─► validate ─► placeholders ─► finish
                └─► divide_and_conquer ─┘
    (no usable tables: preprocess ─► finish)

Both strategies run in the same step (fan-out edges). The judge orders their queries,
validation walks that order with minimal repair (seed 004's multi-candidate fallback), and
`[PLACEHOLDER]` values of the final query become questions for the person.

The graph is compiled once per process (`build_free_path`); what a question's run works with (the
model, the warehouse, the catalog, the dialect) is its run context, as the supervisor's graph is run.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass, field

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from sqlglot import exp

from agent.errors import AssistantError
from agent.sql.parse import parse_one_statement
from agent.text2sql.context import CatalogLike, build_context
from agent.text2sql.draft import STRATEGIES, SqlDraft
from agent.text2sql.judge import rank_candidates
from agent.text2sql.placeholders import describe_placeholders, mask_placeholders
from agent.text2sql.state import FreePathState
from agent.text2sql.strategies import divide_and_conquer, plan_and_reflect
from agent.text2sql.validation import SqlValidator, Validated
from agent.warehouse import Warehouse


@dataclass(frozen=True)
class FreePath:
    """What one run of the free path works with: its run context."""

    model: BaseChatModel
    warehouse: Warehouse
    catalog: CatalogLike | None
    dialect: str = "duckdb"
    validator: SqlValidator = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "validator", SqlValidator(self.warehouse, self.dialect))


@functools.cache
def build_free_path() -> CompiledStateGraph[FreePathState, FreePath, FreePathState, FreePathState]:
    """The compiled subgraph, built once: input {question, requested_tables}, output state with `draft`;
    run with a `FreePath` as its context."""

    async def preprocess(state: FreePathState, runtime: Runtime[FreePath]) -> FreePathState:
        warehouse, catalog = runtime.context.warehouse, runtime.context.catalog
        # Sample rows are read on a warehouse slot under a query's budget, like every warehouse call.
        context = await warehouse.slots.call(
            build_context,
            state["question"],
            warehouse=warehouse,
            catalog=catalog,
            tables=state.get("requested_tables"),
            budget_s=warehouse.budget_s(),
        )
        if not context.tables:
            known = ", ".join(warehouse.schema().tables)
            return {
                "tables": [],
                "error": f"I could not find tables for this question; the warehouse has: {known}.",
            }
        return {"tables": context.tables, "context": context.text}

    def fan_out(state: FreePathState) -> list[str] | str:
        return list(STRATEGIES) if state.get("tables") else "finish"

    async def plan_node(state: FreePathState, runtime: Runtime[FreePath]) -> FreePathState:
        run = runtime.context
        candidate = await plan_and_reflect(state["question"], state["context"], model=run.model, dialect=run.dialect)
        return {"candidates": [candidate], "llm_calls": candidate.llm_calls}

    async def divide_node(state: FreePathState, runtime: Runtime[FreePath]) -> FreePathState:
        run = runtime.context
        candidate = await divide_and_conquer(state["question"], state["context"], model=run.model, dialect=run.dialect)
        return {"candidates": [candidate], "llm_calls": candidate.llm_calls}

    async def judge(state: FreePathState, runtime: Runtime[FreePath]) -> FreePathState:
        run = runtime.context
        written = sorted(
            (c for c in state["candidates"] if c.sql),
            key=lambda c: STRATEGIES.index(c.strategy),
        )
        if not written:
            failures = "; ".join(sorted({c.error for c in state["candidates"] if c.error}))
            return {"ranked": [], "error": f"I could not write SQL for this question: {failures}"}
        checks = await asyncio.gather(*(run.validator.acheck(c.sql) for c in written if c.sql))
        ranking = await rank_candidates(
            state["question"],
            state["context"],
            written,
            dict(zip((c.strategy for c in written), checks)),
            model=run.model,
            dialect=run.dialect,
        )
        return {
            "ranked": ranking.ranked,
            "checks": {c.strategy: check for c, check in zip(written, checks)},
            "choice_reason": ranking.reason,
            "llm_calls": ranking.llm_calls,
        }

    async def validate(state: FreePathState, runtime: Runtime[FreePath]) -> FreePathState:
        """Walk the ranking: the first candidate that runs, as written or after repair, wins."""
        run = runtime.context
        calls = 0
        first_failure: FreePathState | None = None
        for candidate in state.get("ranked") or []:
            if candidate.sql is None:  # the judge ranks written queries only
                continue
            outcome = Validated(sql=candidate.sql, check=state["checks"][candidate.strategy])
            if not outcome.check.ok:
                outcome = await run.validator.repair(
                    candidate.sql, outcome.check, question=state["question"], context=state["context"], model=run.model
                )
                calls += outcome.llm_calls
            result: FreePathState = {
                "sql": outcome.sql,
                "strategy": candidate.strategy,
                "reason": candidate.reason,
                "repairs": outcome.repairs,
                "valid": outcome.check.ok,
            }
            if outcome.check.ok:
                return {**result, "llm_calls": calls}
            first_failure = first_failure or {
                **result,
                "error": f"I could not write SQL that runs: {outcome.check.error}",
            }
        # Nothing runs: report the best-ranked query and why it fails.
        return {**(first_failure or {"valid": False, "sql": None}), "llm_calls": calls}

    async def placeholders(state: FreePathState, runtime: Runtime[FreePath]) -> FreePathState:
        if not state.get("valid"):
            return {"placeholders": []}
        warehouse = runtime.context.warehouse
        found = await warehouse.slots.call(
            describe_placeholders, state["sql"], warehouse=warehouse, dialect=runtime.context.dialect,
            budget_s=warehouse.budget_s(),
        )
        return {"placeholders": found}

    def finish(state: FreePathState, runtime: Runtime[FreePath]) -> FreePathState:
        sql = state.get("sql")
        reason = state.get("reason", "")
        if state.get("choice_reason") and sql:
            reason = f"{reason} (Chosen: {state['choice_reason']})".strip()
        return {
            "draft": SqlDraft(
                sql=sql,
                reason=reason,
                tables=_tables_read(sql, runtime.context.dialect) if sql else state.get("tables", []),
                placeholders=state.get("placeholders", []),
                strategy=state.get("strategy"),
                valid=bool(state.get("valid")),
                error=state.get("error"),
                llm_calls=state.get("llm_calls", 0),
                repairs=state.get("repairs", []),
            )
        }

    graph = StateGraph(FreePathState, context_schema=FreePath)
    graph.add_node("preprocess", preprocess)
    graph.add_node("plan_and_reflect", plan_node)
    graph.add_node("divide_and_conquer", divide_node)
    graph.add_node("judge", judge)
    graph.add_node("validate", validate)
    graph.add_node("placeholders", placeholders)
    graph.add_node("finish", finish)
    graph.add_edge(START, "preprocess")
    graph.add_conditional_edges("preprocess", fan_out, [*STRATEGIES, "finish"])
    graph.add_edge(list(STRATEGIES), "judge")
    graph.add_edge("judge", "validate")
    graph.add_edge("validate", "placeholders")
    graph.add_edge("placeholders", "finish")
    graph.add_edge("finish", END)
    return graph.compile()


def _tables_read(sql: str, dialect: str) -> list[str]:
    """Warehouse tables the query reads (names of its own CTEs left out)."""
    try:
        tree = parse_one_statement(mask_placeholders(sql), dialect)
    except AssistantError:
        return []
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    names = (t.name.lower() for t in tree.find_all(exp.Table))
    return [n for n in dict.fromkeys(names) if n and n not in ctes]


async def draft_sql(
    question: str,
    *,
    model: BaseChatModel,
    warehouse: Warehouse,
    catalog: CatalogLike | None,
    tables: list[str] | None = None,
    dialect: str = "duckdb",
) -> SqlDraft:
    """Write SQL for a question by the free path; never raises for a question it cannot answer."""
    run = FreePath(model=model, warehouse=warehouse, catalog=catalog, dialect=dialect)
    final = await build_free_path().ainvoke(
        {"question": question, "requested_tables": tables, "llm_calls": 0}, context=run
    )
    draft: SqlDraft = final["draft"]  # `finish` always writes it
    return draft
