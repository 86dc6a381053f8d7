"""Pass: the question's words as tokens (a number glued to its unit split apart), and every phrase of
the lexicon found in them, longest first."""

from __future__ import annotations

import re

from agent.semantic.nlq.parse.comparisons import split_units
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.lexicon import Entry, lexicon_for
from agent.semantic.nlq.parse.state import COMPARATORS, State
from agent.text.phrases import STOPWORDS, tokenize
from agent.text.vocabulary import english

# 'below freezing': words that stand for an amount in a unit (vocabulary.yaml `named_amounts`)
_NAMED_AMOUNTS: dict[str, dict[str, object]] = english()["named_amounts"]
_COMPARING = "|".join(sorted((re.escape(" ".join(cue)) for cue, _ in COMPARATORS), key=len, reverse=True))


def tokens_pass(draft: Draft) -> Draft:
    defined = {d.label.lower() for d in draft.definitions}  # 'below freezing (temp < 32F)': the question's own
    question = _amounts_named(draft.question, draft.model, defined)
    draft.tokens = split_units(tokenize(question), draft.model.unit_words)
    draft.state = State(draft.tokens, lexicon_for(draft.model, draft.values).match(draft.tokens),
                        function_words=STOPWORDS | draft.model.function_words)
    _verb_form_before_a_measure(draft.state, draft.model)
    return draft


def _amounts_named(question: str, model: SemanticModel, defined: set[str]) -> str:
    """'below freezing' -> 'below 32 degrees' where the model keeps a measure in degrees; a word of an
    amount said without a comparison before it ('when it was freezing') takes its own ('at or below')."""
    units = {unit for unit, _ in model.unit_words.values()}
    for word, amount in _NAMED_AMOUNTS.items():
        if amount["unit"] not in units or word in defined \
                or re.search(rf"(?:{_COMPARING})\s*{amount['amount']}(?!\d)", question, flags=re.I):
            continue  # the question says the number itself ('below freezing (temp < 32F)')
        said = f"{amount['amount']} {amount['unit']}"
        question = re.sub(rf"\b({_COMPARING})\s+{word}\b", rf"\1 {said}", question, flags=re.I)
        question = re.sub(rf"\b{word}\b", f"{amount['alone']} {said}", question, flags=re.I)
    return question


def _verb_form_before_a_measure(state: State, model: SemanticModel) -> None:
    """'avg depart delay', 'arrive delay': a word said right before a measure's last words, in another form
    of the word its label has there (the same first five letters: 'depart' for 'departure'), names that
    measure; the mention takes the word in. Only where one measure fits."""
    for mention in list(state.mentions):
        if mention.start == 0 or not mention.has("dimension"):
            continue
        word = state.tokens[mention.start - 1].low
        if len(word) < 5 or not word.isalpha() or word in STOPWORDS \
                or any(m.start <= mention.start - 1 < m.end for m in state.mentions):
            continue
        said = [t.low for t in state.tokens[mention.start:mention.end]]
        fits = {d.name for d in model.dimensions if d.kind == "numeric"
                for text in (d.label, *d.synonyms) if (label := text.lower().split())[-len(said):] == said
                and len(label) == len(said) + 1 and label[0] != word and label[0][:5] == word[:5]}
        if len(fits) == 1:
            name = fits.pop()
            words = (word, *said)
            mention.start -= 1
            mention.entries = [Entry(words=words, kind="dimension", payload=name)]
