"""Pass: the question's words as tokens (a number glued to its unit split apart), and every phrase of
the lexicon found in them, longest first."""

from __future__ import annotations

from agent.semantic.nlq.parse.comparisons import split_units
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.lexicon import lexicon_for
from agent.semantic.nlq.parse.state import State
from agent.text.phrases import STOPWORDS, tokenize


def tokens_pass(draft: Draft) -> Draft:
    draft.tokens = split_units(tokenize(draft.question), draft.model.unit_words)
    draft.state = State(draft.tokens, lexicon_for(draft.model, draft.values).match(draft.tokens),
                        function_words=STOPWORDS | draft.model.function_words)
    return draft
