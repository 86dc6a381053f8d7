"""A short narrative from the LLM, grounded in the computed facts, and the guard that checks it.

The model sees only the facts (numbers already computed) and the question. Every number in
what it writes must be one of those numbers, as written or rounded; one that is not was
invented, and the caller falls back to the sentences built from the facts.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from agent.text2sql.steps import ask

MAX_INSIGHTS = 3

SYSTEM = """You summarise the result of a data query for a person in a chat.
Write one answer sentence with the key number(s), then up to three short insights.
Use only the facts given: every number you write must appear in the facts (you may round
it, and write percentages and thousands separators as people read them). Do not compute
new numbers, do not guess causes, do not mention SQL."""

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?")


class Narrative(BaseModel):
    answer: str = Field(description="One sentence answering the question with the key number(s).")
    insights: list[str] = Field(default_factory=list, description="Up to three short sentences.")


async def narrate(model: BaseChatModel, question: str, facts: dict[str, Any], readable: dict[str, str]) -> Narrative:
    """Raises LLMError when the model gives nothing usable."""
    user = (
        f"Question: {question}\n\n"
        f"Facts (raw):\n{json.dumps(facts, default=str, indent=1)}\n\n"
        f"The same, as people read them:\n" + "\n".join(f"- {k}: {v}" for k, v in readable.items())
    )
    narrative = await ask(model, Narrative, SYSTEM, user)
    return narrative.model_copy(update={"insights": narrative.insights[:MAX_INSIGHTS]})


def numbers_in(text: str) -> list[float]:
    return [float(token.replace(",", "")) for token in _NUMBER.findall(text)]


def _fact_numbers(value: Any) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, str):
        return numbers_in(value)
    if isinstance(value, dict):
        return [n for key, item in value.items() for n in _fact_numbers(key) + _fact_numbers(item)]
    if isinstance(value, (list, tuple)):
        return [n for item in value for n in _fact_numbers(item)]
    return []


def invented_numbers(text: str, facts: dict[str, Any], *, allowed_text: str = "") -> list[str]:
    """Numbers in `text` that are neither a fact (as written or rounded) nor in `allowed_text`."""
    known = [abs(n) for n in _fact_numbers(facts) + numbers_in(allowed_text)]
    invented = []
    for token in _NUMBER.findall(text):
        written = abs(float(token.replace(",", "")))
        decimals = len(token.split(".")[1]) if "." in token else 0
        tolerance = 0.5 * 10**-decimals + 1e-9
        if not any(abs(written - fact) <= tolerance for fact in known):
            invented.append(token)
    return invented
