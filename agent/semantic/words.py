"""English word forms for the reader, from maintained libraries rather than suffix rules.

- `split_name`: an identifier as the words people say ('pizzaTypeId' -> 'pizza type id',
  'UkAirDate' -> 'uk air date', 'order_details' -> 'order details').
- `inflections`: a phrase with its last word in every noun form (lemminflect: people/person,
  children/child, series/series, showstoppers/showstopper for words it does not know).
- `lemmas`: the dictionary forms of a word, by part of speech ('priciest' -> pricey, 'sold' -> sell).
- `is_common`: how often a word occurs in English (wordfreq), so an everyday word is never taken
  for a value of the data just because some value spells it.

The libraries load their data on first use; results are cached, since a model's words are few.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])")
# Nouns a word may be in the reader's sense: lemminflect's tags for singular and plural.
_NOUN_FORMS = ("NN", "NNS")
# Above this Zipf frequency (occurrences per billion words, log10) a word is everyday English:
# 'chicken' (4.6), 'delta' (4.1), 'menu' (4.3) are; 'nadiya' (2.0), 'ewr' (2.0) are not.
COMMON_ZIPF = 3.5
# At or above this, a word is in English at all (rare ones included): 'leaver' (2.3) is, 'arriver' (1.1) is not.
KNOWN_ZIPF = 2.0


def split_name(name: str) -> str:
    """The words of an identifier, lower case: camelCase, PascalCase, snake_case, digits apart."""
    spaced = _CAMEL.sub(" ", name.strip().strip('"`[]'))
    return " ".join(w for w in re.split(r"[\s_\-.]+", spaced.lower()) if w)


@lru_cache(maxsize=20000)
def noun_forms(word: str) -> frozenset[str]:
    """Every singular and plural form of `word` read as a noun, the word itself included."""
    from lemminflect import getAllInflections, getAllInflectionsOOV, getAllLemmas, getAllLemmasOOV

    if not word.isalpha():
        return frozenset({word})
    lemmas = getAllLemmas(word, upos="NOUN").get("NOUN") or getAllLemmasOOV(word, upos="NOUN").get("NOUN") or (word,)
    forms = {word}
    for lemma in lemmas:
        forms.add(lemma)
        inflected = getAllInflections(lemma, upos="NOUN") or getAllInflectionsOOV(lemma, upos="NOUN")
        for tag in _NOUN_FORMS:
            forms.update(inflected.get(tag, ()))
    return frozenset(f.lower() for f in forms)


@lru_cache(maxsize=2000)
def plural_phrase(text: str) -> str:
    """A label with its last word in the plural, for counted things: 'day' -> 'days', 'job role' ->
    'job roles', 'series' -> 'series'."""
    from lemminflect import getInflection

    *head, last = text.split(" ") if text else ["row"]
    forms = getInflection(last, tag="NNS") if last.isalpha() else ()
    return " ".join([*head, forms[0] if forms else last])


def inflections(words: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The phrase with its last word in each of its noun forms, so 'carrier' also finds 'carriers'."""
    if not words:
        return set()
    *head, last = words
    return {(*head, form) for form in noun_forms(last)}


@lru_cache(maxsize=20000)
def lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Dictionary forms by part of speech ('NOUN', 'VERB', 'ADJ', 'ADV'); {} for an unknown word."""
    from lemminflect import getAllLemmas

    return dict(getAllLemmas(word.lower()))


def load() -> None:
    """Load both libraries' data now (about a second): a process that forks workers does it once for all."""
    noun_forms("warm")
    lemmas("warmed")
    is_common("warm")


@lru_cache(maxsize=50000)
def is_common(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en") >= COMMON_ZIPF


@lru_cache(maxsize=50000)
def frequency(word: str) -> float:
    """How often English uses the word (wordfreq's Zipf scale: 0 unknown, 7 'the')."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en")


@lru_cache(maxsize=50000)
def is_english(word: str) -> bool:
    """A word English uses at all ('leaver' 2.3), not one made up by adding a suffix ('arriver')."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en") >= KNOWN_ZIPF
