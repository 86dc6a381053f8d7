"""Teaching a thing with related rows in a window: "when I say busy plane I mean a plane with a flight in the last
30 days" is read back in plain words, kept once confirmed, and then counts the planes having such a flight, the
rows checked against SQL written by hand (the window counted back from the data's latest flight date)."""

from __future__ import annotations

from datetime import date, timedelta

import yaml

from agent.api import ChatContext, learning_command
from agent.learning.relating import related_definition
from agent.semantic.compile.definitions import Definition, problems_of, with_definitions
from agent.semantic.model.layer import load_layer
from agent.semantic.compile.related import Related
from tests.learning.conftest import answer, ask

TEACHER = ChatContext(user="U1", channel="C1", workspace="T1")


def _rows(warehouse, sql: str) -> list[list[object]]:
    return sorted([list(r) for r in warehouse.run(sql).rows], key=repr)


async def test_a_thing_with_a_related_row_in_the_last_days_is_counted(make_learning_assistant, new_session, warehouse):
    assistant = make_learning_assistant()
    shown = await ask(assistant, new_session(),
                      "when I say busy plane I mean a plane with a flight in the last 30 days", TEACHER)
    assert shown.learn is not None and shown.learn.kind == "definition", shown.text
    assert "planes with at least one flight dated in the 30 days up to the latest flight date" in shown.text
    assert assistant.learning.store.words("T1") == {}
    assert (await assistant.learn_word("s", shown.learn, TEACHER)).ok

    [[latest]] = warehouse.run("SELECT max(make_date(year, month, day)) FROM flights").rows
    start = (latest if isinstance(latest, date) else date.fromisoformat(str(latest))) - timedelta(days=29)
    busy = (f"EXISTS (SELECT 1 FROM flights f WHERE f.tailnum = p.tailnum "
            f"AND make_date(f.year, f.month, f.day) >= DATE '{start.isoformat()}')")
    counted = await answer(assistant, new_session(), "how many busy planes are there?", TEACHER)
    assert counted.rows == _rows(warehouse, f"SELECT count(*) FROM planes p WHERE {busy}"), counted.sql
    assert counted.rows[0][0] < _rows(warehouse, "SELECT count(*) FROM planes")[0][0]  # the window leaves some out
    grouped = await answer(assistant, new_session(), "busy planes by manufacturer", TEACHER)
    hand = _rows(warehouse, f"SELECT manufacturer, count(*) FROM planes p WHERE {busy} GROUP BY manufacturer")
    assert sorted(grouped.rows, key=repr) == hand, grouped.sql

    shown = await ask(assistant, new_session(), "by idle plane we mean a plane with no flights in the last 30 days",
                      TEACHER)
    assert shown.learn is not None and "planes with no flight dated in the 30 days" in shown.text, shown.text
    assert (await assistant.learn_word("s", shown.learn, TEACHER)).ok
    idle = await answer(assistant, new_session(), "how many idle planes?", TEACHER)
    assert idle.rows == _rows(warehouse, f"SELECT count(*) FROM planes p WHERE NOT {busy}") and idle.rows[0][0] > 0


async def test_at_least_n_related_rows_in_a_year_and_the_review_commands(make_learning_assistant, new_session, warehouse):
    assistant = make_learning_assistant()
    shown = await ask(assistant, new_session(), "by workhorse plane we mean an aircraft that made at least 300 "
                      "flights in 2013", TEACHER)
    assert shown.learn is not None and "planes with at least 300 flights dated in 2013" in shown.text, shown.text
    assert (await assistant.learn_word("s", shown.learn, TEACHER)).ok
    counted = await answer(assistant, new_session(), "how many workhorse planes?", TEACHER)
    hand = ("SELECT count(*) FROM planes p WHERE (SELECT count(*) FROM flights f WHERE f.tailnum = p.tailnum "
            "AND f.year = 2013) >= 300")
    assert counted.rows == _rows(warehouse, hand) and 0 < counted.rows[0][0], counted.sql

    settings = assistant.settings
    status, lines = learning_command(settings, "vocabulary", "list", None, "T1")
    assert status == 0 and lines[0].startswith("“workhorse plane” = an aircraft that made at least 300"), lines
    overlay = yaml.safe_load("\n".join(learning_command(settings, "vocabulary", "export", None, "T1")[1]))
    [planes] = overlay["semantic_models"]
    assert planes["name"] == "planes" and "EXISTS" not in planes["dimensions"][0]["expr"]
    assert "flights" in planes["dimensions"][0]["expr"]
    status, _ = learning_command(settings, "vocabulary", "forget", "workhorse plane", "T1")
    assert status == 0 and assistant.learning.store.words("T1") == {}


async def test_a_window_on_the_calendar_or_rows_that_do_not_point_at_the_thing_are_not_learned(
        make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    for word, meaning in (("busy plane", "a plane with a flight this month"),  # a calendar period, not a run of days
                          ("busy flight", "a flight with a plane in the last 30 days"),  # planes point at no flight
                          ("busy plane", "a plane with a flight in the last 30 days and seats > 100")):  # words unread
        reply = await ask(assistant, new_session(), f"when I say {word} I mean {meaning}", TEACHER)
        assert reply.learn is None and f"did not learn “{word}”" in reply.text, meaning
    assert assistant.learning.store.words("T1") == {}


def test_the_wordings_of_a_related_row_condition_read_through_the_vocabulary():
    model = load_layer()
    read = {meaning: related_definition("busy plane", meaning, model) for meaning in (
        "a plane with a flight in the last 30 days",
        "planes that have at least 3 flights during the past 2 weeks",  # 'have': a function word, a verb
        "an aircraft which made more than 2 flights in 2013",  # 'made': an event verb of the vocabulary
        "a plane having one flight over the last 3 months",
    )}
    got = {m: (d.label, d.table, d.related.model_dump(exclude_defaults=True)) for m, d in read.items()
           if d is not None and d.related is not None}
    assert got == {
        "a plane with a flight in the last 30 days": ("busy", "planes", {"table": "flights", "last": 30, "grain": "day"}),
        "planes that have at least 3 flights during the past 2 weeks":
            ("busy", "planes", {"table": "flights", "at_least": 3, "last": 2, "grain": "week"}),
        "an aircraft which made more than 2 flights in 2013":
            ("busy", "planes", {"table": "flights", "at_least": 3, "year": 2013}),
        "a plane having one flight over the last 3 months":
            ("busy", "planes", {"table": "flights", "last": 3, "grain": "month"}),
    }
    for meaning in ("a plane with flights", "a plane with a flight in the last 30", "a plane flight in 2013",
                    "a plane with a flight in the last 3 month", "a plane with not flights"):
        assert related_definition("busy plane", meaning, model) is None, meaning


def test_a_related_condition_from_elsewhere_is_held_to_the_model():
    """An intent's definition (an LLM's) is checked like a taught one: rows that do not point at the thing
    in the one way it names are refused with a sentence, and the model is not extended with it."""
    model = load_layer()
    wrong = Definition(name="d", label="odd", table="planes", kind="condition",
                       related=Related(table="weather", last=3, grain="day"))  # weather rows reach planes via flights
    assert problems_of([wrong], model) == ["'odd' counts weather rows, which do not point at planes rows in one way."]
    assert with_definitions(model, [wrong]) is model
    through = wrong.model_copy(update={"related": Related(table="weather", via="flights", last=3, grain="day")})
    assert problems_of([through], model) == [] and "d" in with_definitions(model, [through]).dimension_by_name
