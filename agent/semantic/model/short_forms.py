"""Short forms a warehouse explains itself: a table `rntl` described as 'Rental agreements: ...', a
column `pu_dt` described as 'pickup date/time', `ldw_ind` as '... the loss damage waiver (LDW)'.

A part of a name that is no dictionary word (lemminflect knows no form of it: wordfreq counts 'dmg' and
'cust' as English, they are that common in writing) is read as the comment's word it abbreviates: its letters in
that word's order, the first letter the same ('rntl' in 'rental', 'dmg' in 'damage'), or the initials of
three or more words in a row ('ldw': loss damage waiver). A part of three letters or more may match any word of
its comment; a two-letter part only the comment's word in the same place as the part in the name
('pu_dt': 'pickup date'), since two letters fit too many words. Words the vocabulary already knows
(`abbreviations` in vocabulary.yaml) are not read again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from agent.text.phrases import STOPWORDS
from agent.text.words import is_english, lemma, lemmas, split_name

_WORD = re.compile(r"[a-z]+")


def short_forms_in_comments(described: Iterable[tuple[str, str]], known: dict[str, str]) -> dict[str, str]:
    """{short form: word} read from (name, comment) pairs; the first comment explaining a short form wins."""
    found: dict[str, str] = {}
    for name, comment in described:
        words = _WORD.findall(comment.lower())
        parts = split_name(name).split()
        for place, part in enumerate(parts):
            # a grammar word ('at' of 'closed_at', 'on' of 'paid_on') abbreviates nothing
            if part in known or part in found or len(part) < 2 or not part.isalpha() or lemmas(part) or part in STOPWORDS:
                continue
            meant = _initials(part, words) or _abbreviated(part, words, place if len(part) == 2 else None)
            if meant:
                found[part] = meant
    return found


def _abbreviated(part: str, words: list[str], place: int | None) -> str | None:
    """The comment's word `part` abbreviates, in the singular ('claims' -> claim); with `place`, only
    the word there."""
    candidates = words if place is None else words[place:place + 1]
    for word in candidates:
        # a dictionary word, or one English writes often that the dictionary lacks ('distributors')
        if len(word) > len(part) and word[0] == part[0] and _in_order(part, word) and (lemmas(word) or is_english(word)):
            return (lemma(word, "NOUN") or (word,))[0]
    return None


def _initials(part: str, words: list[str]) -> str | None:
    """'ldw' in '... the loss damage waiver (LDW)': the words whose initials spell it."""
    size = len(part)
    if size < 3:  # two initials fit too many pairs of words ('dt' in 'date/time')
        return None
    for start in range(len(words) - size + 1):
        run = words[start:start + size]
        if "".join(w[0] for w in run) == part and all(len(w) > 2 for w in run):
            return " ".join(run)
    return None


def _in_order(part: str, word: str) -> bool:
    letters = iter(word)
    return all(letter in letters for letter in part)
