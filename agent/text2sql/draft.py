"""What the free Text-to-SQL path hands back: one SQL draft, ready to confirm or to complete."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Strategy = Literal["plan_and_reflect", "divide_and_conquer"]
STRATEGIES: tuple[Strategy, ...] = ("plan_and_reflect", "divide_and_conquer")


class Placeholder(BaseModel):
    """A value the SQL needs but the question did not give (`'[CARRIER]'`): ask the person."""

    name: str  # as written in the SQL, without brackets: CARRIER
    question: str
    options: list[str] = Field(default_factory=list)  # values found in the warehouse, commonest first
    table: str | None = None
    column: str | None = None


class Candidate(BaseModel):
    """One strategy's SQL, or why that strategy produced none."""

    strategy: Strategy
    sql: str | None = None
    reason: str = ""
    error: str | None = None
    llm_calls: int = 0


class SqlDraft(BaseModel):
    sql: str | None
    reason: str = ""
    tables: list[str] = Field(default_factory=list)
    placeholders: list[Placeholder] = Field(default_factory=list)
    strategy: Strategy | None = None
    valid: bool = False
    error: str | None = None  # a sentence for a person when no valid SQL could be written
    llm_calls: int = 0
    repairs: list[str] = Field(default_factory=list)  # what was changed to make the SQL run
