"""The offline parser on a dbt project with no assistant meta at all (the shop fixture): words
come from names, values from the data, time grains from the vocabulary."""

from __future__ import annotations

import duckdb
import pytest

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from agent.semantic.model.layer import load_layer
from agent.semantic.model.values import ValueIndex
from tests.semantic import shop


@pytest.fixture(scope="module")
def shop_model():
    return load_layer(shop.PROJECT)


@pytest.fixture(scope="module")
def shop_values(shop_model):
    values = {"region": ["east", "north", "south"], "segment": ["business", "retail"], "channel": ["store", "web"],
              "product": ["chair", "desk", "lamp", "mug"]}
    return ValueIndex.build(values, {}, shop_model)


@pytest.fixture(scope="module")
def run(shop_model, shop_values):
    con = duckdb.connect()
    shop.load(lambda sql, params: con.execute(sql, params) if params else con.execute(sql), mark="?")

    def run(question: str):
        extraction = extract_intent(question, shop_model, shop_values)
        assert extraction.intent is not None, extraction.reason
        return con.execute(compile_intent(extraction.intent, shop_model).sql).fetchall()

    yield run
    con.close()


def test_monthly_groups_by_the_measures_own_date(run):
    assert [(str(m), r) for m, r in run("monthly revenue")] == [
        ("2023-11-01", 160.0), ("2023-12-01", 450.0), ("2024-01-01", 225.0), ("2024-02-01", 245.0)]


def test_dimensions_two_joins_away(run):
    assert run("items by segment") == [("business", 6), ("retail", 6)]


def test_values_from_the_data_and_a_year_on_the_time_dimension(run):
    assert run("revenue from the web in 2024") == [(360.0,)]


def test_having_on_a_bare_model(run):
    assert run("regions with more than 5 orders") == [("north", 6)]


def test_years_read_as_numbers_and_compare_with_the_year_before(run):
    rows = run("yearly revenue year over year")
    assert [(int(y), r, prev) for y, r, prev, *_ in rows] == [(2023, 610.0, None), (2024, 470.0, 610.0)]


def test_follow_ups_on_a_model_without_the_demos_grains(shop_model, shop_values):
    from agent.semantic.nlq.follow_ups import suggest_follow_ups

    intent = extract_intent("monthly revenue", shop_model, shop_values).intent
    assert intent is not None
    suggest_follow_ups(intent, shop_model, shop_values)  # no weekday or hour dimension here: none suggested


def test_last_month_on_a_bare_model_counts_back_from_its_latest_date(shop_model, shop_values):
    from dataclasses import replace
    from datetime import date

    # the data runs to 20 February: 'last month' is January, the latest whole month; 'this month' is February
    dated = replace(shop_values, latest={t.name: date(2024, 2, 20) for t in shop_model.tables}, read_latest=None)
    intent = extract_intent("revenue last month", shop_model, dated).intent
    assert intent is not None and (intent.time.start, intent.time.end) == (date(2024, 1, 1), date(2024, 1, 31))
    assert "last month (January 2024, the latest whole month in the data)" in compile_intent(intent, shop_model).reason
    running = extract_intent("revenue this month", shop_model, dated).intent
    assert running is not None and (running.time.start, running.time.end) == (date(2024, 2, 1), date(2024, 2, 29))


def test_a_code_nothing_explains_is_the_word_it_begins(shop_model):
    """Channel codes with no comment ('ONL', 'CAT'): 'online', 'catalogue' are the words they cut short; letters
    taken from further inside a word ('STT' in 'state') fit too many words to be read so."""
    coded = ValueIndex.build({"channel": ["CAT", "ONL", "STT"]}, {}, shop_model)

    def filters(question):
        extraction = extract_intent(question, shop_model, coded)
        return extraction.intent.filters if extraction.intent is not None else None

    assert [(f.field, f.values) for f in filters("revenue from online orders")] == [("channel", ["ONL"])]
    assert [(f.field, f.values) for f in filters("revenue from catalogue orders")] == [("channel", ["CAT"])]
    assert filters("revenue from orders in the state") is None  # asked back, never 'STT'
