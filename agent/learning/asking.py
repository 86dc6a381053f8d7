"""Asking back about a word the reader could not place, with the model's things as the choices.

The reader declines a question with a word it cannot place ("flights per hub") and offers choices only
for a word spelt close to a name. A team's own words are seldom spelt like the columns, so the bot asks
"What do you mean by “hub”?" with what the model can read as buttons (measures, fields, the things its
tables hold), nearest spelling first. The answer rewrites the question, and can be remembered."""

from __future__ import annotations

import re

from agent.learning.phrases import NAMES_THE_DATA
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.state import Ambiguity
from agent.text.words import lemmas

_QUOTED = re.compile(r"“([^”]+)”")
MAX_OPTIONS = 8  # buttons a person reads at a glance
CLOSE = 75  # rapidfuzz WRatio from which a name is spelt like the word ('hubs' ~ 'hub name')


def ask_back(reason: str | None, ignored_words: list[str], model: SemanticModel) -> Ambiguity | None:
    """The question to ask about the first word the reader says it could not place (the reason quotes it)
    that can name a thing: a noun typed in lower case ('hub', 'leavers'), not a verb ('came'), a code or a
    number, nor a capitalised name, which may be a value of the data: whether a value exists (or is masked
    from this person) must not change whether the bot asks. A reason that quotes no word ('the movies table
    has no year') is an answer in itself, not a question."""
    quoted = {w.lower() for span in _QUOTED.findall(reason or "") for w in span.split()}
    # the reader's own words ('avg', 'top') mean what they always do: only their place is unknown, so the
    # question is about the words around them ('avg time to close': what 'time' is)
    grammar = {w for words in model.aggregations.values() for w in words} | set(model.ranking.descending) \
        | set(model.ranking.ascending)
    for word in ignored_words:
        if word.lower() in grammar:
            continue
        if word.lower() in quoted and word.isalpha() and word.islower() and len(word) > 2 and _can_name_a_thing(word):
            return Ambiguity(text=word, options=choices(word, model))
    return None


def _can_name_a_thing(word: str) -> bool:
    # a word English does not know ('zorblax', 'gmv') is the team's own word: asked, as a noun would be
    forms = lemmas(word)
    return "NOUN" in forms if forms else True


def choices(word: str, model: SemanticModel) -> list[str]:
    """Names spelt close to the word first, then the fields people group and filter by, the things the
    tables hold and the measures, in the model's own order. A typed answer may name anything else."""
    from rapidfuzz import fuzz

    labels = [d.label for d in model.dimensions if d.kind == "categorical" and not d.identifier]
    labels += [t.entity_words[0] for t in model.tables if t.entity_words]
    labels += [m.label for m in model.metrics]
    unique = list(dict.fromkeys(labels))
    close = [label for label in unique if fuzz.WRatio(word.lower(), label.lower()) >= CLOSE]
    return [NAMES_THE_DATA, *list(dict.fromkeys(close + unique))[:MAX_OPTIONS - 1]]
