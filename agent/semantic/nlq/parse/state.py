"""The parse state the passes share: the tokens, the mentions, which tokens are understood, and
where each filter was said; plus the cue words and small look-ups every pass uses."""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Sequence
from functools import lru_cache
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from agent.semantic.nlq.parse.lexicon import Mention
from agent.text.phrases import STOPWORDS, Token, phrase
from agent.text.vocabulary import english

@lru_cache(maxsize=1024)
def _phrased(texts: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(phrase(text) for text in texts)


def phrased(texts: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    """The model's fixed word lists as phrases, made once per list (a question's passes ask for them again and again)."""
    return _phrased(tuple(texts))


GROUP_CUES = [("by",), ("per",), ("each",), ("every",), ("across",), ("for", "each"), ("for", "every"),
               ("in", "each"), ("broken", "down", "by"), ("split", "by"), ("grouped", "by"), ("vs",),
               ("versus",), ("by", "each"), ("breakdown", "by"), ("for", "all")]


WHICH = {"which", "what"}


# The words of a comparison before a number ('at least 6', 'at or below 32'): vocabulary.yaml `comparisons`,
# longest first so 'at or below' is not read as 'below'.
COMPARATORS: list[tuple[tuple[str, ...], str]] = sorted(
    [(phrase(text), op) for op, texts in english()["comparisons"].items() for text in texts],
    key=lambda item: -len(item[0]),
)


NEGATIONS = [("excluding",), ("except",), ("not",), ("without",), ("other", "than"), ("apart", "from"),
              ("besides",), ("except", "for")]


RANGE_WORDS = {"through", "thru", "to", "until", "till"}




CODE_LIKE = re.compile(r"[A-Z][A-Z0-9]{1,3}|[0-9][A-Z][A-Z0-9]{0,2}")


# a filter as `positions` knows it: (dimension, value) for a named value, (dimension, op, values) for a
# comparison
FilterKey = tuple[str, str] | tuple[str, str, tuple[object, ...]]
# what a grouping is on: a dimension, or the dimensions a word could mean until the metric's table says which
GroupKey = str | tuple[str, ...]


@dataclass
class State:
    tokens: list[Token]
    mentions: list[Mention]
    used_tokens: set[int] = field(default_factory=set)
    positions: dict[FilterKey, int] = field(default_factory=dict)  # where each filter was said, for shapes
    function_words: frozenset[str] = STOPWORDS  # the model's own list (grammar words and its rows' verbs)

    def consume(self, *indexes: int) -> None:
        self.used_tokens.update(indexes)

    def words_before(self, start: int, n: int) -> tuple[str, ...]:
        return tuple(t.low for t in self.tokens[max(0, start - n):start])

    def cue_before(self, start: int, cues: Iterable[Sequence[str]],
                   skip: Container[str] = ("the", "a", "an", "all")) -> tuple[str, ...] | None:
        """The cue phrase that ends right before `start` (skipping articles), if any."""
        end = start
        while end > 0 and self.tokens[end - 1].low in skip:
            end -= 1
        for cue in sorted(cues, key=len, reverse=True):
            if self.words_before(end, len(cue)) == tuple(cue):
                return tuple(cue)
        return None


def covered(state: State) -> set[int]:
    covered = set(state.used_tokens)
    for mention in state.mentions:
        if mention.used:
            covered.update(range(mention.start, mention.end))
    return covered


def cue_indexes(state: State, start: int, cues: Iterable[Sequence[str]]) -> list[int]:
    cue = state.cue_before(start, cues)
    return list(range(start - len(cue), start)) if cue else []


def consume_with_mentions(state: State, indexes: list[int]) -> None:
    state.consume(*indexes)
    for mention in state.mentions:
        if any(i in indexes for i in range(mention.start, mention.end)):
            mention.used = True


def mention_at(state: State, index: int) -> Mention | None:
    return next((m for m in state.mentions if m.start <= index < m.end), None)


def words_of(state: State, mention: Mention) -> tuple[str, ...]:
    return tuple(t.low for t in state.tokens[mention.start:mention.end])


def plural(state: State, mention: Mention) -> bool:
    last = state.tokens[mention.end - 1].low
    return last.endswith("s") and not last.endswith("ss")


def is_negated(state: State, start: int) -> bool:
    """'not JFK', 'except Delta', 'not operated by United': a negation, maybe across function words."""
    for gap in range(4):
        if start - gap < 0 or any(t.low not in state.function_words for t in state.tokens[start - gap:start]):
            break
        cue = state.cue_before(start - gap, NEGATIONS, skip=())
        if cue:
            state.consume(*range(start - gap - len(cue), start - gap))
            return True
    return False


def mention_text(state: State, mention: Mention | None) -> str:
    return "" if mention is None else " ".join(t.text for t in state.tokens[mention.start:mention.end])


class UnknownValue(BaseModel):
    text: str
    dimension: str | None
    suggestions: list[str] = Field(default_factory=list)


class Ambiguity(BaseModel):
    text: str
    options: list[str]  # dimension names the word could mean
    of_value: bool = False  # the words are a value of each option: the answer names its column, the value stays
    namesakes: bool = False  # the words name several things (a shared name, a city of three branches): one option each


def names_the_data(state: State, index: int, coverage: dict[str, list[str]]) -> bool:
    """'the HR data', 'the CRM tables': a word right before a noun for the data itself names the data
    (its system or team), not a value in it. Only a name ('HR', 'Salesforce'): 'the complaints data' says
    what data, and that word must be read."""
    if state.tokens[index].text.islower():
        return False
    following = state.tokens[index + 1].low if index + 1 < len(state.tokens) else ""
    return following in coverage.get("data_nouns", [])
