"""Chat shorthand spelled out ('w/' -> with, 'u' -> you, 'gimme' -> give me, 'k' -> ok), so every reader
downstream (the question's passes, a follow-up's edit words, an answer to a question of the bot's, 'run it')
sees plain words. The list is general chat English, in vocabulary.yaml `chat_shorthand`; a message holding
SQL is never changed (an alias may be a single letter)."""

from __future__ import annotations

import re
from functools import cache

from agent.text.vocabulary import english


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


def spell_out(message: str) -> str:
    table, pattern = _shorthand()
    spelled = pattern.sub(lambda m: table[m.group(0).lower()], message) if table else message
    joiners, between = _joiners()
    return between.sub(lambda m: joiners[m.group(0)], spelled) if between is not None else spelled
