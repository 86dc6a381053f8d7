"""Search ranks the right tables for varied phrasings; glossary, column, doc and example lookups."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.catalog import CatalogError


@pytest.mark.parametrize(
    "question, best",
    [
        ("How many flights are in the data set?", "flights"),
        ("Average arrival delay by origin airport", "flights"),
        ("How many flights departed from Newark in March?", "flights"),
        ("Which airline is the latest?", "flights"),
        ("Cancelled flights per month", "flights"),
        ("Busiest routes out of JFK", "flights"),
        ("How many flights did each tail number fly?", "flights"),
        ("Daily departures from LaGuardia", "flights"),
        ("What's the on-time rate for Delta?", "flights"),
        ("List the full names of all airlines", "airlines"),
        ("What is the carrier code of Hawaiian?", "airlines"),
        ("Which airports are in the Chicago time zone?", "airports"),
        ("What is the altitude of Denver airport?", "airports"),
        ("Latitude and longitude of airports in Hawaii", "airports"),
        ("Which timezone is LAX in?", "airports"),
        ("Average seats per plane by engine type", "planes"),
        ("Which manufacturer builds the most aircraft?", "planes"),
        ("How many planes have more than 200 seats?", "planes"),
        ("How many seats does N14228 have?", "planes"),
        ("Which aircraft were built by Boeing before 1990?", "planes"),
        ("How many turbo-prop planes are there?", "planes"),
        ("Average humidity by month at LGA", "weather"),
        ("How windy was it at JFK in January?", "weather"),
        ("What was the hottest temperature at Newark?", "weather"),
        ("Did it rain a lot in April?", "weather"),
        ("Visibility at LaGuardia during fog", "weather"),
    ],
)
def test_ranks_the_right_table_first(catalog, question, best):
    matches = catalog.search(question)
    assert matches, question
    assert matches[0].table == best, [(m.table, m.score, m.reasons) for m in matches]


@pytest.mark.parametrize(
    "question, tables",
    [
        ("Number of flights by carrier name", {"flights", "airlines"}),
        ("Total distance flown by JetBlue", {"flights", "airlines"}),
        ("Which airline operates the most Airbus planes?", {"planes", "flights"}),
        ("Departure delays by destination airport name", {"flights", "airports"}),
    ],
)
def test_questions_that_need_a_join_find_both_tables(catalog, question, tables):
    top_two = {m.table for m in catalog.search(question)[:2]}
    assert top_two == tables


@pytest.mark.parametrize(
    "question, column",
    [
        ("average departure delay by carrier", "dep_delay"),
        ("average arrival delay by carrier", "arr_delay"),
        ("what's the on-time rate for Delta?", "arr_delay"),
        ("how many flights were cancelled?", "dep_time"),
        ("longest distance flown", "distance"),
    ],
)
def test_flights_columns_are_ranked_for_the_question(catalog, question, column):
    flights = next(m for m in catalog.search(question) if m.table == "flights")
    assert flights.matched_columns[0] == column


def test_match_explains_itself_and_describes_every_column(catalog):
    match = catalog.search("Average arrival delay by origin airport")[0]
    assert "column 'arr_delay' matches 'delay'" in match.reasons
    assert "glossary: arrival delay" in match.reasons
    columns = {c.name: c for c in match.columns}
    assert len(columns) == 19
    assert columns["arr_delay"].type == "DOUBLE"
    assert columns["arr_delay"].unit == "minutes"
    assert "minutes" in columns["arr_delay"].description


def test_synonyms_and_values_are_given_as_reasons(catalog):
    flights = catalog.search("flights from Newark")[0]
    assert "column 'origin' has the value 'EWR' (said 'newark')" in flights.reasons
    weather = catalog.search("temperature at JFK")[0]
    assert weather.table == "weather"
    assert any("'temp'" in reason and "temperature" in reason for reason in weather.reasons)


def test_value_patterns_point_at_their_column(catalog):
    planes = catalog.search("How many seats does N3ALAA have?")[0]
    assert planes.table == "planes"
    assert "'N3ALAA' looks like a value of column 'tailnum'" in planes.reasons


@pytest.mark.parametrize("question", ["", "   ", "What's the capital of France?", "hello there", "thanks!"])
def test_nothing_relevant_gives_no_tables(catalog, question):
    assert catalog.search(question) == []


def test_search_is_deterministic_and_limited(catalog):
    question = "Number of flights by carrier name"
    first = catalog.search(question, limit=5)
    assert [m.model_dump() for m in first] == [m.model_dump() for m in catalog.search(question, limit=5)]
    assert len(catalog.search(question, limit=1)) == 1
    scores = [m.score for m in first]
    assert scores == sorted(scores, reverse=True)


# -- glossary and columns ----------------------------------------------------------------


def test_lookup_terms_in_question_order(catalog):
    terms = catalog.lookup_terms("Cancelled flights and on-time rate by carrier")
    assert [t.term for t in terms] == ["cancelled flight", "on-time", "carrier"]
    assert terms[0].sql == "dep_time IS NULL"


def test_the_more_specific_term_wins(catalog):
    assert [t.term for t in catalog.lookup_terms("what is a departure delay?")] == ["departure delay"]
    assert [t.term for t in catalog.lookup_terms("why are there delays?")] == ["delay"]


@pytest.mark.parametrize(
    "question, term",
    [
        ("what does tail number mean", "tailnum"),
        ("how many canceled flights", "cancelled flight"),
        ("flights that were on time", "on-time"),
        ("what is a route?", "route"),
        ("which NYC airports are there", "origin airport"),
        ("what does dst mean for an airport", "daylight saving time"),
    ],
)
def test_lookup_terms_by_synonym(catalog, question, term):
    assert term in [t.term for t in catalog.lookup_terms(question)]


def test_unknown_words_have_no_terms(catalog):
    assert catalog.lookup_terms("what is the meaning of life") == []


def test_find_columns_named_in_the_question(catalog):
    found = catalog.find_columns("what do dewp and sched_dep_time mean?")
    assert [(m.table, m.column.name) for m in found] == [("flights", "sched_dep_time"), ("weather", "dewp")]
    assert found[1].column.unit == "°F"


def test_describe_table(catalog):
    planes = catalog.describe_table("Planes")
    assert planes.table == "planes" and "seats" in [c.name for c in planes.columns]
    with pytest.raises(CatalogError) as caught:
        catalog.describe_table("passengers")
    assert "flights" in caught.value.user_message


# -- docs and examples -------------------------------------------------------------------


@pytest.mark.parametrize(
    "question, doc",
    [
        ("How do I use /fixsql?", "fixsql"),
        ("my query has a syntax error, how do I fix it", "fixsql"),
        ("what does /explainsql do?", "explainsql"),
        ("Why does the bot ask me to confirm before running?", "confirmation"),
        ("what does the Edit button do", "confirmation"),
        ("What data is available?", "available-data"),
        ("which tables can I query", "available-data"),
        ("How do I read the chart?", "read-a-chart"),
        ("why does the chart only show the top 20", "read-a-chart"),
        ("Who do I contact for help?", "contact"),
        ("the answer was wrong, where do I report it", "contact"),
        ("why was my query stopped?", "limits"),
        ("can the bot delete data?", "limits"),
        ("can I ask in a direct message?", "ask-a-question"),
    ],
)
def test_search_docs(catalog, question, doc):
    found = catalog.search_docs(question)
    assert found and found[0].id == doc, [(d.id, d.score, d.reasons) for d in found]
    assert found[0].body


@pytest.mark.parametrize("question", ["Average delay by carrier", "how many flights left JFK", "", "banana"])
def test_data_questions_are_not_how_to_questions(catalog, question):
    assert catalog.search_docs(question) == []


def test_related_docs_by_table(catalog):
    assert "available-data" in [d.id for d in catalog.related_docs(["flights", "weather"])]
    assert catalog.related_docs(["passengers"]) == []


def test_search_examples(catalog):
    found = catalog.search_examples("monthly cancellations")
    assert "dep_time IS NULL" in found[0].sql
    joined = catalog.search_examples("average delay by airline name")
    assert joined[0].tables == ["flights", "airlines"]
    only_flights = catalog.search_examples("average delay by airline name", tables=["flights"])
    assert all(e.tables == ["flights"] for e in only_flights)
    assert catalog.search_examples("banana") == []


@given(
    words=st.lists(st.sampled_from(["dep", "delay", "arr", "time", "air"]), max_size=8).map(tuple),
    needle=st.lists(st.sampled_from(["dep", "delay", "arr", "time", "air"]), max_size=4).map(tuple),
    extra=st.integers(min_value=0, max_value=3),
)
def test_a_phrase_is_among_the_questions_spans_exactly_when_it_is_said_in_it(words, needle, extra):
    """Table search looks each multi-word column alias up among the question's runs of words (one set,
    made once per question) instead of searching the question once per alias: the same answer."""
    from agent.catalog.search import spans
    from agent.text.stems import contains_phrase

    assert (needle in spans(words, len(needle) + extra)) == contains_phrase(words, needle)


def test_a_search_puts_the_question_in_phrase_form_once(catalog):
    """The table ranking's aliases and its glossary read the one phrase of the question (issue 23)."""
    import sys

    from agent.text.stems import phrase

    phrased: list[str] = []

    def hook(frame, event, arg):
        if event == "call" and frame.f_code is phrase.__code__:
            phrased.append(frame.f_locals["text"])

    catalog.search("average arrival delay by carrier last month")
    sys.setprofile(hook)
    try:
        catalog.search("average arrival delay by carrier last month")
    finally:
        sys.setprofile(None)
    assert phrased == ["average arrival delay by carrier last month"]
