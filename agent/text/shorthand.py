"""Chat shorthand spelled out ('w/' -> with, 'u' -> you, 'gimme' -> give me, 'k' -> ok), and grammar words
and calendar words typed with two letters swapped ('whcih' -> which, 'yaer' -> year), so every reader downstream (the question's passes, a
follow-up's edit words, an answer to a question of the bot's, 'run it') sees plain words. The lists are
general English, in vocabulary.yaml (`chat_shorthand`, `function_words`); a message holding SQL is never
changed (an alias may be a single letter)."""

from __future__ import annotations

import re
from functools import cache

from agent.text.phrases import MONTHS, WEEKDAYS
from agent.text.vocabulary import english
from agent.text.words import is_english


@cache
def _shorthand() -> tuple[dict[str, str], re.Pattern[str]]:
    table = {str(k).lower(): str(v) for k, v in
             (english().get("chat_shorthand") or {}).items()}
    # a whole word, never part of a code ('w/o' before 'w', 'B6', 'user_u'), a path or a number ('100k')
    said = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    return table, re.compile(rf"(?<![\w/.'@#-])(?:{said})(?![\w/'@-])", re.IGNORECASE)


@cache
def _joiners() -> tuple[dict[str, str], re.Pattern[str] | None]:
    """Letters typed for a word only in lower case between two words ('delta n american'); in capitals they
    are codes ('status N'), so they are left alone."""
    table = {str(k): str(v) for k, v in
             (english().get("chat_joiners") or {}).items()}
    said = "|".join(re.escape(k) for k in table)
    return table, re.compile(rf"(?<=[A-Za-z] )(?:{said})(?= [A-Za-z])") if table else None


@cache
def _grammar_words() -> frozenset[str]:
    """The question's own grammar ('which', 'what', 'many', 'where') and the calendar's words ('year', 'month',
    'weekly', 'february', 'monday'): a slip in one of them leaves nothing for the reader to place, where a slip
    in a column's word is read by the lexicon's nearest word."""
    vocabulary = english()
    listed = [*(vocabulary.get("function_words") or []), *(vocabulary.get("request_words") or []),
              *(w for forms in ((vocabulary.get("relative_dates") or {}).get("grains") or {}).values() for w in forms),
              *(w for said in (vocabulary.get("time_grains") or {}).values() for w in said),
              *MONTHS, *WEEKDAYS]
    return frozenset(w for w in (str(x) for x in listed) if w.isalpha() and len(w) >= 4)


# a word of letters only: never part of a code, a path or a name with digits ('Whcih3', 'user_whcih')
_WORD = re.compile(r"(?<![\w/.'@#-])[A-Za-z]{4,}(?![\w/'@-])")


def _unslipped(word: str) -> str:
    """`word` as the grammar word it is two neighbouring letters swapped from, when it is no English word
    and exactly one such grammar word exists ('whcih', 'waht'); else as typed. Only in lower case or with
    a capital first, as such words are typed; a word in capitals is a code."""
    low = word.lower()
    grammar = _grammar_words()
    if low in grammar or word not in (low, low.capitalize()) or is_english(low):
        return word
    found = {low[:i] + low[i + 1] + low[i] + low[i + 2:] for i in range(len(low) - 1)} & grammar
    if len(found) != 1:
        return word
    fixed = found.pop()
    return fixed if word == low else fixed.capitalize()


def spell_out(message: str) -> str:
    table, pattern = _shorthand()
    spelled = pattern.sub(lambda m: table[m.group(0).lower()], message) if table else message
    spelled = _WORD.sub(lambda m: _unslipped(m.group(0)), spelled)
    joiners, between = _joiners()
    return between.sub(lambda m: joiners[m.group(0)], spelled) if between is not None else spelled
