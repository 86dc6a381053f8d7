"""The dialogue state's small parts: a typed answer to 'Which data?', the keys an answer leaves for
'which of them', 'go ahead and run it', and a driver's numeric type code (no type name)."""

from __future__ import annotations

import pytest

from agent.api import AskHuman, HumanOption, interpret_reply
from agent.llm.routing import AFFIRMATIVE, _ONLY_YES
from agent.semantic.compile.intent import OrderBy, StructuredIntent
from agent.semantic.model.layer import load_layer
from agent.semantic.nlq.answer_keys import MAX_KEYS, answer_keys
from agent.warehouse.sql_engine import _type_name


@pytest.fixture(scope="module")
def model():
    return load_layer()  # the shipped demo model


def _which_table() -> AskHuman:
    options = [HumanOption(label=t, value=t) for t in ("movie_genres", "movies", "ratings")]
    return AskHuman(kind="choose_table", question="Which data should I use for this?", options=options)


def test_a_table_named_alone_answers_which_data():
    assert interpret_reply("movies", _which_table()) == {"choice": "movies"}
    assert interpret_reply("use the ratings table", _which_table()) == {"choice": "ratings"}


def test_a_sentence_with_a_table_word_in_it_is_a_new_message():
    assert interpret_reply("only movies released after 2000 with a rating above 4", _which_table()) is None


def test_an_answer_keeps_its_first_groupings_values(model):
    intent = StructuredIntent(metrics=["flight_count"], dimensions=["dest"])
    rows = [["ORD", 10], ["BOS", 8], ["ATL", 5]]
    assert answer_keys(intent, ["dest", "flight_count"], rows, 3, model) == {"field": "dest", "values": ["ORD", "BOS", "ATL"]}


def test_no_keys_when_rows_were_cut_are_many_or_are_dates(model):
    intent = StructuredIntent(metrics=["flight_count"], dimensions=["dest"])
    assert answer_keys(intent, ["dest", "flight_count"], [["ORD", 10]], 90, model) is None  # the rest not held
    many = [[f"X{i}", i] for i in range(MAX_KEYS + 1)]
    assert answer_keys(intent, ["dest", "flight_count"], many, len(many), model) is None
    # ranked, the first rows are a ranking's places ('the 2nd busiest'), never a list of 'them'
    ranked = intent.model_copy(update={"order_by": [OrderBy(field="flight_count", descending=True)]})
    assert answer_keys(ranked, ["dest", "flight_count"], many, len(many), model) == \
        {"field": "dest", "leading": [f"X{i}" for i in range(MAX_KEYS)]}
    assert answer_keys(ranked, ["dest", "flight_count"], [["ORD", 10]], 90, model) == {"field": "dest", "leading": ["ORD"]}
    by_month = StructuredIntent(metrics=["flight_count"], dimensions=["metric_time__month"])
    assert answer_keys(by_month, ["metric_time__month", "flight_count"], [["2013-01-01", 3]], 1, model) is None
    # 'how many routes had more than 1000 flights' answers a number: no route of it ('97' is none)
    counted = StructuredIntent(metrics=["flight_count"], dimensions=["route"], count_groups=True)
    assert answer_keys(counted, ["routes"], [[97]], 1, model) is None


def test_yes_words_joined_by_and_still_mean_run():
    for said in ("go ahead and run it", "ok then run it", "yes, run it", "run that", "ok run the query", "go for it"):
        assert _ONLY_YES.match(said) and AFFIRMATIVE.match(said), said
    assert not _ONLY_YES.match("go ahead and show me the flights")


def test_a_numeric_type_code_is_no_type_name():
    assert _type_name(("revenue", 1700)) == ""  # PostgreSQL's OID for numeric
    assert _type_name(("revenue", "DECIMAL(18,2)")) == "DECIMAL(18,2)"
    assert _type_name(("revenue", None)) == ""


def _which_airport() -> AskHuman:
    options = [HumanOption(label="origin airport", value="origin airport"),
               HumanOption(label="destination", value="destination")]
    return AskHuman(kind="clarify", question="What do you mean by “airport”?", options=options)


WORDS = {"origin airport": ["origin airport", "origin", "departure airport", "airport"],
         "destination": ["destination", "dest", "arrival airport", "airport"]}


def test_a_word_of_one_options_names_alone_answers_it():
    assert interpret_reply("departures", _which_airport(), WORDS) == {"choice": "origin airport"}
    assert interpret_reply("the arrivals", _which_airport(), WORDS) == {"choice": "destination"}


def test_a_word_both_options_share_or_a_question_of_its_own_answers_nothing():
    assert interpret_reply("airports", _which_airport(), WORDS) is None
    assert interpret_reply("departures by carrier in june", _which_airport(), WORDS) is None


CUES = {"origin airport": ["from", "departing from", "leaving"], "destination": ["to", "arriving at", "bound for"]}


def test_an_answer_in_other_words_with_the_options_cues_is_taken():
    assert interpret_reply("where they depart from", _which_airport(), WORDS, CUES) == {"choice": "origin airport"}
    assert interpret_reply("the one they arrive at", _which_airport(), WORDS, CUES) == {"choice": "destination"}
    assert interpret_reply("where they depart from in june", _which_airport(), WORDS, CUES) is None  # words of a question
    assert interpret_reply("from jfk", _which_airport(), WORDS, CUES) is None


def test_dropping_a_time_window_in_a_thread_is_no_write():
    from agent.semantic.nlq.dialogue_cues import drops_a_condition

    assert drops_a_condition("drop the month") and drops_a_condition("remove the dates")
    assert drops_a_condition("drop the JFK filter")
    assert not drops_a_condition("drop the flights table") and not drops_a_condition("drop table flights")


def test_saying_it_looks_right_and_to_go_ahead_means_run():
    for said in ("looks right, go ahead and run it", "lgtm run it", "perfect, go ahead"):
        assert _ONLY_YES.match(said), said


def test_dropping_a_value_the_question_before_said_is_no_write():
    from agent.semantic.nlq.dialogue_cues import drops_a_condition

    assert drops_a_condition("drop jfk", "avg temp at jfk by month")
    assert not drops_a_condition("drop table flights", "number of flights by month")


def test_dropping_what_a_thread_filtered_on_by_its_name_is_no_write():
    """'drop the carrier' after 'avg dep delay united to ord': the question said 'united', not 'carrier'; in a
    thread, what is dropped is a condition unless it names what data is kept in (a table, a column)."""
    from agent.semantic.nlq.dialogue_cues import drops_a_condition

    assert drops_a_condition("drop the carrier", "avg dep delay united to ord in feb")
    assert drops_a_condition("remove the airline", "flights by month for delta")
    # a condition said with a comma and a number is still a condition
    assert drops_a_condition("drop the tiny ones, anything under 1000 flights", "avg distance by engine type")
    assert not drops_a_condition("drop the flights table, now", "avg distance by engine type")
    for write in ("drop the flights table", "drop the weather data", "remove the rows", "drop the database"):
        assert not drops_a_condition(write, "avg dep delay united to ord in feb"), write
    assert not drops_a_condition("drop the carrier")  # no thread: nothing to take a condition from


def test_a_word_both_options_share_is_passed_over_when_another_decides():
    cues = {"origin airport": ["from", "at", "departing from"], "destination": ["to", "landing at", "arriving at"]}
    assert interpret_reply("the ones they land at", _which_airport(), WORDS, cues) == {"choice": "destination"}
    assert interpret_reply("the ones at", _which_airport(), WORDS, cues) is None  # only a shared word: nothing decided


def _which_washington() -> AskHuman:
    names = ["Ronald Reagan Washington Natl", "Washington Dulles Intl", "Baltimore Washington Intl"]
    return AskHuman(kind="clarify", question="What do you mean by “washington”?",
                    options=[HumanOption(label=n, value=n) for n in names])


def test_options_named_by_their_own_words_and_all_of_them():
    ask = _which_washington()
    assert interpret_reply("dulles", ask) == {"choice": "Washington Dulles Intl"}
    assert interpret_reply("reagan + dulles, both", ask) == {
        "choice": "Ronald Reagan Washington Natl and Washington Dulles Intl"}
    assert interpret_reply("all three", ask) == {
        "choice": "Ronald Reagan Washington Natl and Washington Dulles Intl and Baltimore Washington Intl"}
    assert interpret_reply("washington", ask) is None  # a word every option has names none of them
