"""Three follow-up questions: from the semantic model when the question had an intent, else
from the result's own columns (a time breakdown, the other end of a ranking, a top five)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agent.charts.roles import Role, Row, column_roles, time_part
from agent.chatbi.formatting import label, plural
from agent.chatbi.sentences import Measure
from agent.semantic.nlq.follow_ups import suggest_follow_ups
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.model.values import ValueIndex

COUNT = 3
FollowUpSource = tuple[SemanticModel, ValueIndex]


def follow_ups(
    question: str,
    columns: list[str],
    types: list[str],
    rows: Sequence[Row],
    facts: dict[str, Any],
    *,
    intent: StructuredIntent | None,
    source: FollowUpSource | None,
    roles: Sequence[Role] | None = None,
) -> list[str]:
    suggested = suggest_follow_ups(intent, *source, n=COUNT) if intent is not None and source else []
    generic = generic_follow_ups(question, columns, types, rows, facts, roles)
    return list(dict.fromkeys(suggested + generic))[:COUNT]


def generic_follow_ups(question: str, columns: list[str], types: list[str], rows: Sequence[Row], facts: dict[str, Any],
                       roles: Sequence[Role] | None = None) -> list[str]:
    """Questions one step from this result, worded from its columns (`roles`: theirs, when read already)."""
    asked = question.lower()
    roles = column_roles(columns, types, rows) if roles is None else roles
    has_time = Role.TIME in roles
    measure = Measure(facts["measure"]) if facts.get("measure") else None
    questions: list[str] = []
    if facts.get("shape") == "empty":
        # Nothing matched: offer to show which values exist, so the person can adjust the filter.
        questions += [
            f"Which {plural(label(c))} are in the data?" for c, r in zip(columns, roles) if r is Role.CATEGORY
        ]
    if facts.get("shape") == "category" and measure:
        category = label(facts["category"])
        questions.append(f"Which {category} has {measure.least}?")
        if facts.get("count", 0) > 5:
            questions.append(f"Show only the top 5 {plural(category)} by {measure.name}")
    if facts.get("shape") == "time_series" and measure:
        part = time_part(facts["time"]) or "period"
        questions.append(f"Which {part} had {measure.most}?")
    if not has_time and not re.search(r"\bmonth", asked):
        questions.append("Break this down by month")
    if has_time and not re.search(r"\bday|\bdaily", asked):
        questions.append("Show this by day")
    if measure and facts.get("shape") != "category":
        questions.append(f"Show the top 10 by {measure.name}")
    questions.append("Compare the first and second half of the year")
    return questions
