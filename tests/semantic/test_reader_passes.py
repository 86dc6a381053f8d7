"""The reader's passes on a domain nothing else uses (a lending library), each with its own fixtures:
the grounding of words (descriptions, thesaurus, distinctive words, measure words), the list and
superlative shapes, rankings that rank nothing, the unit an answer is wanted in, and the coverage rule.
The model is hand-written dbt YAML over a DuckDB file, so these test the reader, not the bootstrap."""

from __future__ import annotations

import textwrap

import pytest

from agent.semantic.nlq.extract import PASSES, extract_intent
from agent.semantic.model.layer import load_layer
from agent.semantic.nlq.meanings import word_meanings
from agent.semantic.model.values import ValueIndex
from agent.settings import load_settings
from agent.warehouse import open_warehouse
from tests.support.duck_files import duckdb_file

SCHEMA = """
CREATE TABLE members (member_id INTEGER PRIMARY KEY, member_name VARCHAR, city VARCHAR, age INTEGER,
                      lapsed VARCHAR);
CREATE TABLE books (book_id INTEGER PRIMARY KEY, title VARCHAR, genre VARCHAR, price DECIMAL(6,2), pages INTEGER);
CREATE TABLE loans (loan_id INTEGER PRIMARY KEY, member_id INTEGER, book_id INTEGER, loaned_on DATE,
                    loan_days INTEGER, late_fee DECIMAL(6,2), branch_id INTEGER);
INSERT INTO members VALUES (1, 'Ada Lovelace', 'London', 36, 'No'), (2, 'Alan Turing', 'Wilmslow', 41, 'Yes'),
    (3, 'Grace Hopper', 'New York', 85, 'No');
INSERT INTO books VALUES (10, 'Dune', 'Science Fiction', 12.50, 600), (11, 'Emma', 'Romance', 8.00, 400),
    (12, 'Ulysses', 'Literary', 15.00, 730), (13, 'Neuromancer', 'Science Fiction', 9.99, 270);
INSERT INTO loans VALUES (100, 1, 10, DATE '2024-01-05', 14, 0, 1), (101, 1, 12, DATE '2024-02-01', 30, 2.5, 1),
    (102, 2, 13, DATE '2024-02-10', 7, 0, 2), (103, 3, 11, DATE '2024-03-03', 21, 1.0, 1),
    (104, 3, 10, DATE '2024-03-20', 10, 0, 2);
"""

MODELS = """
semantic_models:
  - name: members
    description: One row per library member (card holder)
    model: ref('members')
    entities: [{name: member, type: primary, expr: member_id}]
    dimensions:
      - {name: member_name, type: categorical}
      - {name: city, type: categorical, description: "home city (town) of the member"}
      - {name: lapsed, type: categorical, expr: "lapsed = 'Yes'", config: {meta: {kind: flag}},
         description: "'Yes' = the member left the library, 'No' = still a member"}
    measures:
      - {name: member_count, agg: count, expr: member_id}
      - {name: member_age, agg: average, expr: age}
  - name: books
    description: One row per book in the catalogue
    model: ref('books')
    entities: [{name: book, type: primary, expr: book_id}]
    dimensions:
      - {name: title, type: categorical}
      - {name: genre, type: categorical}
    measures:
      - {name: book_count, agg: count, expr: book_id}
      - {name: book_price, agg: average, expr: price}
      - {name: book_pages, agg: average, expr: pages}
  - name: loans
    description: One row per loan of a book to a member
    model: ref('loans')
    defaults: {agg_time_dimension: loaned_on}
    entities:
      - {name: loan, type: primary, expr: loan_id}
      - {name: member, type: foreign, expr: member_id}
      - {name: book, type: foreign, expr: book_id}
    dimensions:
      - {name: loaned_on, type: time, type_params: {time_granularity: day}}
      - {name: branch_id, type: categorical}
    measures:
      - {name: loan_count, agg: count, expr: loan_id}
      - {name: loan_length, agg: sum, expr: loan_days, description: "days the book was out (loan duration)"}
      - {name: late_fee_total, agg: sum, expr: late_fee}
metrics:
  - {name: members, type: simple, type_params: {measure: member_count}}
  - {name: average_age, type: simple, type_params: {measure: member_age}}
  - {name: books, type: simple, type_params: {measure: book_count}}
  - {name: average_price, type: simple, type_params: {measure: book_price}}
  - {name: average_pages, type: simple, type_params: {measure: book_pages}}
  - {name: loans, type: simple, type_params: {measure: loan_count}}
  - {name: total_loan_days, type: simple, type_params: {measure: loan_length}}
  - {name: total_late_fees, type: simple, type_params: {measure: late_fee_total}}
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("library")
    path = duckdb_file(folder, "library", SCHEMA)
    (folder / "model").mkdir()
    (folder / "model" / "library.yml").write_text(textwrap.dedent(MODELS), encoding="utf-8")
    settings = load_settings(_env_file=None, warehouse_url=f"duckdb://{path}", data_dir=str(folder / "data"))
    warehouse = open_warehouse(settings)
    model = load_layer(folder / "model", dialect="duckdb")
    values = ValueIndex.from_warehouse(warehouse, model)
    yield model, values
    warehouse.close()


@pytest.fixture
def read(library):
    model, values = library
    return lambda question: extract_intent(question, model, values)


def test_the_passes_are_one_list_ending_with_the_coverage_rule():
    names = [p.__name__ for p in PASSES]
    assert names[0] == "definitions_pass" and names[-1] == "coverage_pass"
    assert len(names) == len(set(names))


# -- grounding --------------------------------------------------------------------------------------


def test_a_description_aside_names_its_column(library):
    model, values = library
    assert "town" in model.dimension_by_name["city"].related
    assert any("town" in line and "city" in line for line in word_meanings("town", model, values))


def test_thesaurus_words_name_a_table_only_where_the_warehouse_uses_one_of_them(library):
    model, _ = library
    members = model.table_by_name["members"]
    assert "users" not in members.entity_words and "user" in members.related  # [user, member, …]
    assert not any("customer" in t.related for t in model.tables)  # no table is called so


def test_measure_adjectives_rank_by_the_measure_they_name(read):
    priciest = read("what is the priciest book?").intent
    assert priciest.dimensions == ["title"] and priciest.limit == 1
    assert priciest.order_by[0].descending and priciest.metrics == ["average_price"]
    cheapest = read("the cheapest books").intent
    assert not cheapest.order_by[0].descending and cheapest.dimensions == ["title"]


def test_which_of_the_things_with_a_singular_verb_asks_for_one(read):
    one = read("which of the genres has the most loans").intent
    assert one.dimensions == ["genre"] and one.limit == 1 and one.order_by[0].descending
    several = read("which of our genres have the most loans").intent
    assert several.dimensions == ["genre"] and several.limit is None


def test_a_value_word_typed_apart_is_the_value(read):
    assert read("how many loans of neuro mancer").intent.filters[0].values == ["Neuromancer"]
    assert read("how many loans of em ma").intent is None  # a short word glued from two is no name


def test_a_name_with_its_trailing_word_cut_short_is_one_of_its_names():
    from agent.semantic.model.values import _suffix_shortened

    suffixes = frozenset({"inc", "airways", "air", "lines"})
    assert ("us", "air") in _suffix_shortened("US Airways Inc.", suffixes)
    assert _suffix_shortened("Ulysses", suffixes) == set()


# -- lists ------------------------------------------------------------------------------------------


def test_a_list_asks_for_the_things_by_their_name(read):
    listed = read("list the members in London").intent
    assert listed.dimensions == ["member_name"]
    assert [(f.field, f.values) for f in listed.filters] == [("city", ["London"])]


def test_what_plural_did_someone_do_is_a_list(read):
    titles = read("which books did Ada Lovelace borrow?").intent
    assert titles is not None and titles.dimensions == ["title"]


def test_a_count_is_not_a_list(read):
    assert read("how many books are there?").intent.dimensions == []


# -- rankings and units ----------------------------------------------------------------------------


def test_a_ranking_word_with_nothing_to_rank_is_asked_back(read):
    best = read("who are our best members?")
    assert best.intent is None and "best" in best.reason


def test_an_answer_wanted_in_another_unit_is_not_given_in_this_one(read):
    said = read("total loan days in hours")
    assert said.intent is None and "hours" in said.reason


# -- coverage ---------------------------------------------------------------------------------------


def test_a_word_nobody_read_ends_the_reading_with_the_word_named(read):
    said = read("how many loans were returned damaged?")
    assert said.intent is None and "damaged" in said.reason


def test_grammar_fillers_and_the_verbs_rows_are_told_with_are_fine(read):
    assert read("pls just give me the number of loans made in march").intent is not None


def test_the_data_set_said_as_a_place_is_fine(read):
    assert read("how many books are in the catalogue?").intent is not None


def test_a_misspelt_name_offers_the_nearest_one(read):
    said = read("average agee of members")
    assert said.intent is None and said.ambiguous and said.ambiguous[0].text == "agee"


def test_a_participle_before_by_and_a_value_is_read_with_the_value(ask):
    # 'made by Airbus': 'made' says how the maker relates to the planes, not a measure (the plane's year)
    extraction = ask("list the planes made by Airbus with more than 300 seats")
    assert extraction.intent is not None and extraction.intent.dimensions
    assert {f.field for f in extraction.intent.filters} == {"manufacturer", "seats"}


def test_a_code_before_a_noun_for_the_data_names_the_data(read):
    # "the LMS data": the name of the data, not a code of a value nobody has
    extraction = read("how many loans are in the LMS data?")
    assert extraction.intent is not None and not extraction.unknown_values


def test_a_number_said_of_a_measure_after_is_or_of_is_that_value(read):
    # 'books that are 400 pages', 'a book of 400 pages': the measure equals the number
    for question in ("how many books are 400 pages?", "how many books of 400 pages are there?"):
        extraction = read(question)
        assert extraction.intent is not None, extraction.reason
        assert [(f.field, f.op, f.values) for f in extraction.intent.filters] == [("pages", "=", [400])]


def test_a_flag_comment_names_its_rows_and_included_keeps_them(read):
    # "'Yes' = the member left the library": 'leavers' are the flagged rows, counted where the flag is
    extraction = read("how many leavers are there?")
    assert extraction.intent is not None, extraction.reason
    assert extraction.intent.metrics == ["members"]
    assert [(f.field, f.values) for f in extraction.intent.filters] == [("lapsed", [True])]
    assert read("how many members have left the library?").intent.filters[0].field == "lapsed"
    # 'leavers included' asks for everyone: no condition at all
    included = read("how many members are there, leavers included?")
    assert included.intent is not None and included.intent.filters == []


def test_an_id_column_names_its_things_and_an_average_per_thing_divides(read):
    # 'branch id' with no branches table: 'branches' are its values
    assert read("how many different branches are there?").intent.metrics == ["branch_id__count_distinct"]
    per = read("average number of loans per branch")
    assert per.intent is not None, per.reason
    (definition,) = per.intent.definitions
    assert (definition.kind, definition.numerator, definition.denominator) == ("ratio", "loans", "branch_id__count_distinct")
    # 'per head' of a measure over people's own rows is that measure's average
    head = read("average age per head")
    assert head.intent is not None and head.intent.metrics == ["average_age"] and not head.intent.definitions


# -- counted periods --------------------------------------------------------------------------------


def test_how_many_days_counts_the_days_that_have_rows(read):
    for question in ("on how many different days were loans made?", "how many days had loans?"):
        counted = read(question).intent
        assert counted is not None and counted.count_groups and counted.dimensions == ["metric_time__day"], question
    busy = read("how many months had more than 1 loan?").intent
    assert busy.count_groups and busy.dimensions == ["metric_time__month"] and busy.having


def test_an_average_number_with_a_condition_on_a_total_is_no_count_of_groups(ask):
    averaged = ask("avg number of seats per plane by manufacturer, only manufacturers with at least 50 planes").intent
    assert averaged is not None and not averaged.count_groups and averaged.metrics == ["avg_seats"]
    assert averaged.dimensions == ["manufacturer"] and averaged.having
    counted = ask("how many manufacturers have at least 50 planes").intent
    assert counted is not None and counted.count_groups
    total = ask("total number of manufacturers with at least 50 planes").intent
    assert total is not None and total.count_groups


def test_how_many_days_of_a_measure_in_days_is_not_a_count_of_days(read):
    said = read("how many days were books out on loan in total?").intent
    assert said is None or not said.count_groups


def test_the_models_fixed_word_lists_are_phrased_once_not_per_question(ask):
    from agent.semantic.nlq.parse.state import _phrased

    ask("what share of flights to denver were cancelled on christmas eve, by carrier?")  # every list phrased once
    before = _phrased.cache_info().misses
    for question in ("which carrier had the most flights to denver?", "flights that never left jfk in march",
                     "average arrival delay by month for united"):
        ask(question)
    assert _phrased.cache_info().misses == before  # the passes read them again, never phrase them again


def test_a_form_of_a_dictionary_word_is_no_slip_for_a_column_name(ask):
    # 'windiest' is windy's superlative, not a misspelt 'windgust': never all days' average gust, unranked
    read = ask("what was the windiest day at lga")
    assert read.intent is None or read.intent.limit == 1
    assert ask("avg dep dealy by carrier").intent.metrics == ["avg_dep_delay"]  # a real slip still reads


def test_which_thing_with_nothing_to_name_it_by_is_said_not_totalled(ask):
    # flights have no name or key of their own: the longest delay alone would answer 'how long', not 'which'
    said = ask("which flight out of lga had the longest departure delay")
    assert said.intent is None and "single flights" in said.reason
    assert ask("which carrier had the most flights").intent is not None  # carriers are named


def test_a_number_to_keep_with_nothing_to_rank_is_said_not_dropped(ask):
    said = ask("longest 3?")  # three of what: no grouping to keep three of
    assert said.intent is None and "keep 3" in said.reason


def test_things_listed_with_a_measure_are_counted_beside_it(read, ask):
    # 'loans and avg late fee': the loans are a second figure, never only the rows the fee is averaged over
    for question in ("loans and average late fee by genre", "average late fee + loans by genre"):
        said = read(question).intent
        assert said is not None and sorted(said.metrics) == ["late_fee_average", "loans"], (question, said.metrics)
    assert ask("flights & avg dep delay per day").intent.metrics == ["flight_count", "avg_dep_delay"]
    assert ask("avg dep delay for flights by carrier").intent.metrics == ["avg_dep_delay"]  # the rows, not a count


def test_values_listed_before_their_owner_are_one_condition(ask):
    # 'jfk and lga flights': the flights' origin is one of both; two conditions on one column hold for no row
    said = ask("avg dep delay for jfk and lga flights").intent
    assert said is not None and len(said.filters) == 1 and sorted(said.filters[0].values) == ["JFK", "LGA"]


def test_a_number_joined_to_a_measures_noun_describes_the_things(ask):
    # '4 engine planes': planes whose number of engines is 4, never a question about engine types
    said = ask("which carriers fly 4 engine planes").intent
    assert said is not None and [(f.field, f.values) for f in said.filters] == [("engines", [4])]
    assert [(f.field, f.values) for f in ask("how many flights on 2 seat planes").intent.filters] == [("seats", [2])]


def test_another_form_of_a_measures_word_before_its_last_words_names_it(ask):
    # 'depart delay' is the departure delay, 'arrive delay' the arrival delay: 'avg' then averages it
    assert ask("avg depart delay at ewr").intent.metrics == ["avg_dep_delay"]
    assert ask("avg arrive delay by carrier").intent.metrics == ["avg_arr_delay"]
    assert ask("avg weird delay by carrier").intent is None  # no measure's word: still asked about


def test_a_number_with_its_unit_then_plus_is_that_much_or_more(ask):
    said = ask("share of departures leaving 1h+ late, per airport").intent
    assert said is not None and said.contrast is not None
    assert [(f.field, f.op, f.values) for f in said.contrast.first.filters] == [("dep_delay", ">=", [60])]
