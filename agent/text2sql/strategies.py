"""The two ways of writing SQL (seed 003): plan & reflect, and divide & conquer.

Each returns a Candidate and never raises: a strategy that fails says why in `error`, so
the other one can still carry the draft.
"""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from agent.errors import LLMError
from agent.sql.parse import clean_sql_text
from agent.text2sql import prompts
from agent.text2sql.draft import Candidate
from agent.text2sql.placeholders import quote_placeholders
from agent.text2sql.steps import (
    Answer,
    PartialSqls,
    QueryPlan,
    Reflection,
    SubQuestions,
    WrittenSql,
    ask,
)


def tidy_sql(sql: str) -> str:
    """The model's SQL without fences or a trailing `;`, placeholders as quoted literals."""
    return quote_placeholders(clean_sql_text(sql))


class _Counter:
    def __init__(self, model: BaseChatModel):
        self.model = model
        self.calls = 0

    async def ask(self, schema: type[Answer], system: str, user: str) -> Answer:
        self.calls += 1  # counted before the call: a failed call still cost one
        return await ask(self.model, schema, system, user)


async def plan_and_reflect(question: str, context: str, *, model: BaseChatModel, dialect: str) -> Candidate:
    llm = _Counter(model)
    try:
        plan = await llm.ask(QueryPlan, prompts.system(prompts.PLAN, dialect), prompts.task(question, context))
        plan_text = "Plan:\n" + "\n".join(f"{i}. {step}" for i, step in enumerate(plan.steps, 1))
        written = await llm.ask(
            WrittenSql,
            prompts.system(prompts.WRITE_FROM_PLAN, dialect),
            prompts.task(question, context, f"Tables: {', '.join(plan.tables)}", plan_text),
        )
        review = await llm.ask(
            Reflection,
            prompts.system(prompts.REFLECT, dialect),
            prompts.task(question, context, plan_text, f"SQL:\n{written.sql}"),
        )
    except LLMError as exc:
        return Candidate(strategy="plan_and_reflect", error=exc.user_message, llm_calls=llm.calls)
    reason = written.reason
    sql = written.sql
    if review.issues and review.revised_sql and review.revised_sql.strip():
        sql = review.revised_sql
        reason = f"{reason} Revised after review: {'; '.join(review.issues)}"
    return Candidate(strategy="plan_and_reflect", sql=tidy_sql(sql), reason=reason, llm_calls=llm.calls)


async def divide_and_conquer(question: str, context: str, *, model: BaseChatModel, dialect: str) -> Candidate:
    llm = _Counter(model)
    try:
        divided = await llm.ask(SubQuestions, prompts.system(prompts.DIVIDE, dialect), prompts.task(question, context))
        asked = "Sub-questions:\n" + "\n".join(f"- {q}" for q in divided.sub_questions)
        partial = await llm.ask(
            PartialSqls, prompts.system(prompts.CONQUER, dialect), prompts.task(question, context, asked)
        )
        fragments = "Partial SQL:\n" + "\n".join(f"-- {p.sub_question}\n{p.sql}" for p in partial.parts)
        assembled = await llm.ask(
            WrittenSql, prompts.system(prompts.ASSEMBLE, dialect), prompts.task(question, context, fragments)
        )
    except LLMError as exc:
        return Candidate(strategy="divide_and_conquer", error=exc.user_message, llm_calls=llm.calls)
    return Candidate(
        strategy="divide_and_conquer", sql=tidy_sql(assembled.sql), reason=assembled.reason, llm_calls=llm.calls
    )
