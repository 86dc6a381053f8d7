"""Pass, last: the reading must account for the question. A meaning word, a number, a grouping or a
clause no pass placed ends the reading with the words named (never a different question answered);
the intent must fit the model; how much of the question the reading covers is its confidence."""

from __future__ import annotations

from agent.semantic.intent import validate_intent
from agent.semantic.parse.draft import Draft, Extraction
from agent.semantic.text import STOPWORDS


def coverage_pass(draft: Draft) -> Draft:
    assert draft.intent is not None
    problems = validate_intent(draft.intent, draft.model)
    if problems:
        return draft.stop(" ".join(problems))
    ignored = draft.ignored()
    content = [t for t in draft.tokens if t.low not in STOPWORDS]
    coverage = 1.0 - len(ignored) / max(1, len(content))
    draft.outcome = Extraction(intent=draft.intent, ignored_words=ignored, confidence=round(0.5 + 0.5 * coverage, 2))
    return draft
