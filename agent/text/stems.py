"""Words out of text: tokens, light stemming and stop words, the same for questions and docs.

Matching is only as good as its consistency: the catalog and the question go through the
same functions, so "delays", "delayed" and "delay" meet at one stem.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
_VOWEL = re.compile(r"[aeiouy]")

# Question scaffolding: says how a question is asked, never what it is about.
SCAFFOLDING = frozenset(
    """
    a about above after all also am an and any are as at be been before being below between
    both but by can could did do does doing done each either every for from get give had has
    have having he her here him his how i if in into is it its just let me my no nor not now
    of off on once only or our out over please she should show so some such than that the
    their them then there these they this those through to too under until up us very was we
    were what when where which while who whom why will with within would you your tell find
    see want need know like look looking use using ok okay thanks thank hi hello hey
    """.split()
)

# Words about the answer's shape (aggregates, "table", "data"): noise when choosing a table,
# but meaningful in a how-to question ("which tables are there?").
ANSWER_SHAPE = frozenset(
    """
    many number count total sum average avg mean median max min maximum minimum top bottom
    highest lowest largest smallest biggest most least group grouped breakdown split per vs
    versus compare comparison data table tables column columns query sql value values list
    """.split()
)

TABLE_SEARCH_STOP_WORDS = SCAFFOLDING | ANSWER_SHAPE

_SUFFIXES = (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))
_NO_STRIP = re.compile(r".*(ss|us|is|ous)$")
_ES_PLURAL = ("ches", "shes", "xes", "zes")


# Adverbs of time that name a grain: "monthly" is about months.
_IRREGULAR = {
    "daily": "day",
    "hourly": "hour",
    "weekly": "week",
    "monthly": "month",
    "quarterly": "quarter",
    "yearly": "year",
    "annual": "year",
    "annually": "year",
}


def stem(word: str) -> str:
    """A light, predictable stemmer for plural and -ed/-ing endings.

    No dictionary on purpose: both sides of a match use it, so a stem only has to be the
    same for related words, not a real word.
    """
    if word.endswith("'s"):
        word = word[:-2]
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or word.isdigit() or _NO_STRIP.match(word):
        return word
    for suffix, replacement in _SUFFIXES:
        if not word.endswith(suffix):
            continue
        if suffix == "es" and not word.endswith(_ES_PLURAL):
            continue  # "routes" -> "route" by the plain "s" rule
        base = word[: -len(suffix)] + replacement
        if len(base) < 3 or not _VOWEL.search(base) or (suffix == "ed" and base.endswith("e")):
            return word  # "speed", "string", "red" are not inflections
        if suffix in ("ed", "ing") and base[-1] == base[-2] and base[-1] not in "aeiouls":
            base = base[:-1]  # "stopped" -> "stop"
        return base
    return word


def words(text: str) -> list[str]:
    """Lower-case words; identifiers split on underscores, hyphenated words kept whole."""
    return _WORD.findall(text.lower().replace("_", " "))


def terms(text: str, stop_words: frozenset[str] = SCAFFOLDING) -> list[str]:
    """Stemmed words in order; a hyphenated word also yields its parts ("on-time" -> on-time, on, time)."""
    result: list[str] = []
    for word in words(text):
        for piece in [word, *word.split("-")] if "-" in word else [word]:
            if piece not in stop_words:
                result.append(stem(piece))
    return result


def phrase(text: str) -> tuple[str, ...]:
    """A phrase as its stemmed word sequence, stop words kept ("time in the air" stays four words)."""
    return tuple(stem(w) for w in words(text.replace("-", " ")))


def contains_phrase(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    width = len(needle)
    if not width or width > len(haystack):
        return False
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))
