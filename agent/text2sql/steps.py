"""The structured answers each LLM step must give, and the one way a step is asked.

Every step is `with_structured_output(Schema)`: the model fills fields, nothing is parsed
out of free text (`structured`, which every structured call of the agent goes through). A failure (transport, refusal, a reply that does not fit the schema)
becomes an LLMError so a strategy can fail alone without sinking the whole draft.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field

from agent.errors import LLMError


class QueryPlan(BaseModel):
    """Plan & reflect, step 1: how the query will be built, before any SQL."""

    tables: list[str] = Field(description="Tables the query reads, from the context only.")
    steps: list[str] = Field(
        description="Ordered plan: joins and their keys, filters, grouping, aggregates, ordering, limit."
    )


class WrittenSql(BaseModel):
    sql: str = Field(description="One read-only SELECT statement.")
    reason: str = Field(description="One or two sentences: which tables, filters and aggregates, and why.")


class Reflection(BaseModel):
    """Plan & reflect, step 3: the SQL checked against the question and the plan."""

    issues: list[str] = Field(default_factory=list, description="Problems found; empty when none.")
    revised_sql: str | None = Field(
        default=None, description="The corrected SQL when there were issues, else null."
    )


class SubQuestions(BaseModel):
    """Divide & conquer, step 1."""

    sub_questions: list[str] = Field(description="Small questions whose answers compose the whole answer.")


class PartialSql(BaseModel):
    sub_question: str
    sql: str


class PartialSqls(BaseModel):
    """Divide & conquer, step 2: one SQL fragment per sub-question."""

    parts: list[PartialSql]


class JudgeVerdict(BaseModel):
    choice: Literal["A", "B"] = Field(description="The candidate that answers the question better.")
    reason: str


class SqlRepair(BaseModel):
    """Minimal repair: diagnose the engine error and change only what it points at."""

    diagnosis: str
    sql: str


Answer = TypeVar("Answer", bound=BaseModel)


# A pydantic schema handed to `with_structured_output` is turned into JSON schema again on every call
# (LangChain's tracing metadata), on the event loop: ~15 ms for the question reader's SemanticParse,
# which every question asks for. Its OpenAI tool form is worked out once per schema instead, and the
# model's arguments are validated here. The forms are handed out as they are: LangChain only reads them.
_TOOL_FORMS: dict[type[BaseModel], dict[str, Any]] = {}


def tool_form(schema: type[BaseModel], model: BaseChatModel) -> dict[str, Any]:
    if getattr(model, "is_offline", False):
        # The offline model answers by the schema's name alone (agent/llm/offline.py): working out the JSON
        # schema it never reads was a command line's first question's ~20 ms for SemanticParse.
        return {"type": "function", "function": {"name": schema.__name__}}
    form = _TOOL_FORMS.get(schema)
    if form is None:
        form = _TOOL_FORMS[schema] = convert_to_openai_tool(schema)
    return form


async def structured(model: BaseChatModel, schema: type[Answer], prompt: LanguageModelInput) -> Answer:
    """The model's answer to `prompt` as `schema`; a reply that does not fit raises pydantic's ValidationError."""
    answer = await model.with_structured_output(tool_form(schema, model), method="function_calling").ainvoke(prompt)
    return answer if isinstance(answer, schema) else schema.model_validate(answer)


async def ask(model: BaseChatModel, schema: type[Answer], system: str, user: str) -> Answer:
    """One structured LLM step; raises LLMError with a sentence when it gives no usable answer."""
    try:
        answer = await structured(model, schema, [SystemMessage(system), HumanMessage(user)])
    except Exception as exc:  # any provider or validation failure is the same to the caller
        raise LLMError("The language model did not give a usable answer.", detail=repr(exc)) from exc
    return answer
