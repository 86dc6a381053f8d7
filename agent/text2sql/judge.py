"""Order the candidates, best first; the LLM judge is asked only when it can make a difference.

No judge call when there is nothing to choose: one candidate, two that are the same query,
or only one that passes the dry run (a query that runs beats one that does not).
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from sqlglot import exp

from agent.errors import AssistantError, LLMError
from agent.sql.parse import parse_one_statement
from agent.text2sql import prompts
from agent.text2sql.draft import Candidate
from agent.text2sql.placeholders import mask_placeholders
from agent.text2sql.steps import JudgeVerdict, ask
from agent.text2sql.validation import Check


@dataclass
class Ranking:
    ranked: list[Candidate]
    reason: str
    llm_calls: int = 0


def same_query(a: str, b: str, dialect: str) -> bool:
    """Equal once parsed and printed the same way (case, spacing, quoting do not count)."""
    try:
        return _canonical(a, dialect) == _canonical(b, dialect)
    except AssistantError:
        return " ".join(a.lower().split()) == " ".join(b.lower().split())


def _canonical(sql: str, dialect: str) -> str:
    tree = parse_one_statement(mask_placeholders(sql), dialect)
    for identifier in tree.find_all(exp.Identifier):
        identifier.set("quoted", False)
        identifier.set("this", identifier.this.lower())
    return tree.sql(normalize=True)


async def rank_candidates(
    question: str,
    context: str,
    candidates: list[Candidate],
    checks: dict[str, Check],
    *,
    model: BaseChatModel,
    dialect: str,
) -> Ranking:
    if len(candidates) == 1:
        return Ranking(candidates, f"Only the {_name(candidates[0])} strategy produced SQL.")
    first, second = candidates
    if first.sql is not None and second.sql is not None and same_query(first.sql, second.sql, dialect):
        return Ranking([first], "Both strategies wrote the same query.")
    passing = [c for c in candidates if checks[c.strategy].ok]
    if len(passing) == 1:
        loser = second if passing[0] is first else first
        return Ranking([passing[0], loser], f"Only the {_name(passing[0])} query passed the dry run.")
    if not passing:
        return Ranking(candidates, "Neither query passed the dry run; repairing in turn.")
    try:
        verdict = await ask(
            model,
            JudgeVerdict,
            prompts.system(prompts.JUDGE, dialect),
            prompts.task(
                question,
                context,
                f"Candidate A ({first.reason}):\n{first.sql}",
                f"Candidate B ({second.reason}):\n{second.sql}",
            ),
        )
    except LLMError:
        return Ranking(candidates, "The judge gave no answer; keeping the planned query first.", llm_calls=1)
    ranked = candidates if verdict.choice == "A" else [second, first]
    return Ranking(ranked, verdict.reason, llm_calls=1)


def _name(candidate: Candidate) -> str:
    return candidate.strategy.replace("_", " ")
