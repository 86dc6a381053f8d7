"""Chat shorthand is spelled out before any reader sees a message ('w/' -> with, 'k' -> ok, 'gimme' -> give me),
never inside a word, a code or a number, and never in a message that holds SQL; 'cool, run it' runs."""

from __future__ import annotations

import pytest

from agent.llm.routing import AFFIRMATIVE, person_message
from agent.text.shorthand import spell_out


@pytest.mark.parametrize(("typed", "read"), [
    ("5 dests w the worst avg arrival delay", "5 dests with the worst avg arrival delay"),
    ("flights w/o a delay", "flights without a delay"),
    ("k run it", "ok run it"),
    ("gimme just the sql for that", "give me just the sql for that"),
    ("how did u get those numbers", "how did you get those numbers"),
    ("B6 & AA", "B6 and AA"),
])
def test_shorthand_is_spelled_out(typed, read):
    assert spell_out(typed) == read


@pytest.mark.parametrize("typed", ["top 100k", "user u1", "AT&T customers", "flights to W99", "price+tax"])
def test_words_codes_and_numbers_stay_as_typed(typed):
    assert spell_out(typed) == typed


def test_a_message_with_sql_is_kept_exactly():
    sql = "fix this: SELECT u.name FROM users u WHERE u.id = 1"
    assert person_message(f"  {sql} ") == sql
    assert person_message(" gimme the top 5 w the most flights ") == "give me the top 5 with the most flights"


@pytest.mark.parametrize("said", ["cool, run it", "great, run it", "alright go ahead"])
def test_everyday_agreement_runs(said):
    assert AFFIRMATIVE.match(said)
