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
    ("how many reps on each team atm", "how many reps on each team at the moment"),
    ("just delta n american", "just delta and american"),
    ("flights by # of engines", "flights by number of engines"),
    ("# flights by carrier", "number of flights by carrier"),
    ("avg dep delay by sched hour", "avg dep delay by scheduled hour"),
    # a grammar word with two letters swapped: nothing else would read it
    ("whcih airlines fly the 2nd one", "which airlines fly the 2nd one"),
    ("Waht was the busiest day", "What was the busiest day"),
    # so is a calendar word: the lexicon knows the warehouse's words, not the calendar's
    ("top 5 tags on tickets this yaer?", "top 5 tags on tickets this year?"),
    ("flights in Febraury by mnoth", "flights in February by month"),
    ("how did u calc the speed", "how did you calculate the speed"),
    ("monthly for those 2 as a line chrat", "monthly for those 2 as a line chart"),  # a request word's slip
    ("how r u getting per day", "how are you getting per day"),  # 'r' only before 'u': an R rating stays
])
def test_shorthand_is_spelled_out(typed, read):
    assert spell_out(typed) == read


@pytest.mark.parametrize("typed", ["top 100k", "user u1", "AT&T customers", "flights to W99", "price+tax",
                                   "bookings with status N last week", "n flights", "r rated movies",
                                   "the #1 carrier", "ticket #42",
                                   # English words, capitals (codes) and words with digits are no slips
                                   "the form of it", "status WHCIH", "user whcih3", "YAER 2"])
def test_words_codes_and_numbers_stay_as_typed(typed):
    assert spell_out(typed) == typed


def test_a_message_with_sql_is_kept_exactly():
    sql = "fix this: SELECT u.name FROM users u WHERE u.id = 1"
    assert person_message(f"  {sql} ") == sql
    assert person_message(" gimme the top 5 w the most flights ") == "give me the top 5 with the most flights"


@pytest.mark.parametrize("said", ["cool, run it", "great, run it", "alright go ahead"])
def test_everyday_agreement_runs(said):
    assert AFFIRMATIVE.match(said)


@pytest.mark.parametrize("said", ["just give me the sql for avg delay by origin, don't run it",
                                  "sql for flights per carrier, do not execute it"])
def test_asking_not_to_run_it_asks_for_the_sql(said):
    from agent.llm.routing import _SQL_ONLY
    from agent.marks import ASKING_FOR_SQL

    assert _SQL_ONLY.search(said)
    assert "run" not in ASKING_FOR_SQL.sub(" ", said) and "execute" not in ASKING_FOR_SQL.sub(" ", said)


def test_why_followed_by_its_question_explains():
    from agent.llm.routing import _FOLLOW_UP, _WHY

    assert _WHY.match("why? how do you know they were cancelled") and _WHY.match("how do you know")
    assert not _WHY.match("why is jfk so delayed in the summer compared to the winter months overall")
    assert _FOLLOW_UP.search("avg # seats per type then") and not _FOLLOW_UP.search("flights then and now by year")


def test_asking_how_an_answer_was_counted_or_its_unit_is_a_why():
    from agent.llm.routing import _WHY

    for said in ("is that miles or km", "what units is that in", "wait how are you counting hours there",
                 "hmm, why?", "ok how did you compute that"):
        assert _WHY.match(said), said
    assert not _WHY.match("is that route busier or the other one in july of 2013 at jfk for united")


def test_asking_how_a_part_of_the_answer_was_made_is_a_why():
    from agent.llm.routing import _WHY

    for said in ("how did you match the weather to the flights", "how were the bands assigned",
                 "how is the distance band calculated", "how are you figuring out 'next day'"):
        assert _WHY.match(said), said
    assert not _WHY.match("how were the flights split by carrier in march")  # a question of its own
