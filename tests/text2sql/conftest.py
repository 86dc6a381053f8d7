"""A scripted model that answers each free-path step by its prompt, whatever order they run in.

The two strategies run concurrently, so their LLM calls interleave; answering by step
(recognised from the system prompt's first line) keeps the tests deterministic.
"""

from __future__ import annotations

from collections import Counter

import pytest

from agent.catalog import Catalog, default_catalog
from agent.text2sql import prompts
from tests.support.scripted_model import ScriptedChatModel

STEP_PROMPTS = {
    "plan": prompts.PLAN,
    "write": prompts.WRITE_FROM_PLAN,
    "reflect": prompts.REFLECT,
    "divide": prompts.DIVIDE,
    "conquer": prompts.CONQUER,
    "assemble": prompts.ASSEMBLE,
    "judge": prompts.JUDGE,
    "repair": prompts.REPAIR,
}


def step_of(messages) -> str:
    first_line = messages[0].content.splitlines()[0]
    for step, template in STEP_PROMPTS.items():
        if template.splitlines()[0] == first_line:
            return step
    raise AssertionError(f"unknown step: {first_line}")


class StepModel:
    """Holds per-step answer queues; `.model` is the ScriptedChatModel under test."""

    def __init__(self, answers: dict[str, list]):
        self.answers = {step: list(queue) for step, queue in answers.items()}
        total = sum(len(queue) for queue in self.answers.values())
        self.model = ScriptedChatModel([self._answer] * total)

    def _answer(self, messages):
        step = step_of(messages)
        queue = self.answers.get(step)
        if not queue:
            raise AssertionError(f"no scripted answer left for step {step}")
        answer = queue.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    @property
    def steps_called(self) -> Counter:
        return Counter(step_of(call) for call in self.model.calls)


def plan_and_reflect_answers(sql: str, *, revised: str | None = None) -> dict[str, list]:
    return {
        "plan": [{"tables": ["flights"], "steps": ["read flights", "aggregate"]}],
        "write": [{"sql": sql, "reason": "planned query"}],
        "reflect": [{"issues": ["needs a change"] if revised else [], "revised_sql": revised}],
    }


def divide_and_conquer_answers(sql: str) -> dict[str, list]:
    return {
        "divide": [{"sub_questions": ["which rows?", "which aggregate?"]}],
        "conquer": [{"parts": [{"sub_question": "which rows?", "sql": "FROM flights"}]}],
        "assemble": [{"sql": sql, "reason": "assembled query"}],
    }


def script(plan_sql: str | None, divide_sql: str | None, **more: list) -> StepModel:
    answers: dict[str, list] = {}
    if plan_sql is not None:
        answers.update(plan_and_reflect_answers(plan_sql))
    if divide_sql is not None:
        answers.update(divide_and_conquer_answers(divide_sql))
    answers.update(more)
    return StepModel(answers)


@pytest.fixture
def catalog() -> Catalog:
    return default_catalog()
