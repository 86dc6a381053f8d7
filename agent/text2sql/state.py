"""The free path's graph state. Both strategies write to it in the same step, hence the reducers."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from agent.text2sql.draft import Candidate, Placeholder, SqlDraft
from agent.text2sql.validation import Check


class FreePathState(TypedDict, total=False):
    question: str
    requested_tables: list[str] | None
    context: str
    tables: list[str]
    candidates: Annotated[list[Candidate], operator.add]
    ranked: list[Candidate]  # best first: the order in which candidates are validated
    checks: dict[str, Check]  # strategy -> its query's dry run, so validation does not repeat it
    choice_reason: str
    sql: str | None
    strategy: str | None
    reason: str
    valid: bool
    repairs: list[str]
    placeholders: list[Placeholder]
    error: str | None
    llm_calls: Annotated[int, operator.add]
    draft: SqlDraft
