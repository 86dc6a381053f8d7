"""Numbers a person can quote: shares only of totals that add up, of the right total, rates in points.

The first tests replay what people saw; the property tests check the same rules over random
result shapes (group counts, signs, limits, measures of every aggregate).
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.chatbi.analyze import analyze
from agent.chatbi.facts import Scope, compute_facts
from agent.chatbi.meaning import ColumnMeaning, describe_columns
from agent.chatbi.sentences import answer_sentence, insight_sentences
from agent.warehouse import QueryResult
from tests.support.meanings import meanings_for

SHARE = re.compile(r"\d+(\.\d+)?% of")


async def _analyze(warehouse, question: str, sql: str):
    result = warehouse.run(sql)
    meanings = meanings_for(warehouse, sql, result.columns)
    return await analyze(question, result, sql=sql, meanings=meanings, warehouse=warehouse)


# -- what people saw ---------------------------------------------------------------------------


async def test_an_average_named_like_a_plain_column_is_never_added_up_into_a_share(warehouse):
    # The column name says nothing about averaging; the SQL does.
    analysis = await _analyze(
        warehouse, "average arrival delay per origin",
        "SELECT origin, avg(arr_delay) AS arr_delay FROM flights GROUP BY origin",
    )
    assert "total" not in analysis.facts and "share_pct" not in analysis.facts["top"]
    assert not SHARE.search(analysis.answer + " ".join(analysis.insights))
    assert "minutes" in analysis.answer


async def test_a_top_ten_share_is_of_the_full_total_not_of_the_ten(warehouse):
    sql = "SELECT dest, count(*) AS flights FROM flights GROUP BY dest ORDER BY flights DESC LIMIT 10"
    analysis = await _analyze(warehouse, "top 10 destinations by flights", sql)
    everything = warehouse.run("SELECT count(*) FROM flights").rows[0][0]
    assert analysis.facts["total"] == everything
    top = analysis.facts["top"]
    assert abs(top["share_pct"] - top["value"] / everything * 100) < 1e-9
    assert "across 105 destinations" in analysis.answer


async def test_a_top_ten_without_the_full_total_says_of_these_10(warehouse):
    sql = "SELECT dest, count(*) AS flights FROM flights GROUP BY dest ORDER BY flights DESC LIMIT 10"
    result = warehouse.run(sql)
    analysis = await analyze("top 10", result, sql=sql, meanings=meanings_for(warehouse, sql, result.columns))
    assert "of these 10" in analysis.answer


def test_no_percent_change_across_zero():
    rows = [(1, -0.22), (2, 1.0), (3, 3.58)]
    facts = compute_facts(["month", "avg_wait"], ["BIGINT", "DOUBLE"], rows,
                          meanings={"avg_wait": ColumnMeaning(unit="minutes", aggregate="avg")})
    assert "change_pct" not in facts
    answer = answer_sentence(facts, ["month", "avg_wait"],
                             {"avg_wait": ColumnMeaning(unit="minutes", aggregate="avg")})
    assert "%" not in answer and "+3.80 minutes" in answer


def test_a_difference_of_rates_is_in_percentage_points():
    rows = [("a", 0.733), ("b", 0.403), ("c", 0.55)]
    meanings = {"on_time_share": ColumnMeaning(aggregate="avg", fraction=True)}
    facts = compute_facts(["group_name", "on_time_share"], ["VARCHAR", "DOUBLE"], rows, meanings=meanings)
    text = " ".join(insight_sentences(facts, meanings))
    assert "33.0 percentage points below" in text and "33.0% below" not in text
    series = compute_facts(["month", "on_time_share"], ["BIGINT", "DOUBLE"], [(1, 0.5), (2, 0.6), (3, 0.62)],
                           meanings=meanings)
    assert "change_pct" not in series
    assert "+12.0 percentage points" in answer_sentence(series, ["month", "on_time_share"], meanings)


async def test_a_share_column_reads_as_a_percentage_everywhere(warehouse):
    sql = ("SELECT origin, avg(CASE WHEN arr_delay <= 0 THEN 1.0 ELSE 0.0 END) AS on_time "
           "FROM flights WHERE arr_delay IS NOT NULL GROUP BY origin")
    analysis = await _analyze(warehouse, "on-time share by origin", sql)
    assert re.search(r"\d\d\.\d%", analysis.answer)
    assert not re.search(r"\b0\.\d", analysis.answer) and "arrival delay" not in analysis.answer
    assert analysis.column_formats == [None, "fraction"]  # and so in the reply's table


def test_a_metric_its_label_calls_a_share_is_a_fraction():
    from agent.semantic.model.layer import load_layer

    sql = "SELECT count(*) FILTER (WHERE dep_time IS NULL) / count(*) AS cancellation_rate FROM flights"
    meaning = describe_columns(sql, ["cancellation_rate"], semantic=load_layer())["cancellation_rate"]
    assert meaning.fraction and meaning.unit is None


def test_a_sum_of_ones_for_rows_meeting_a_condition_is_a_count_without_the_columns_unit():
    from agent.semantic.model.layer import load_layer

    # dep_time is in HHMM local time; the cancelled flights counted by testing it are not
    sql = ("SELECT carrier, SUM(CASE WHEN dep_time IS NULL THEN 1 ELSE 0 END) AS cancelled_flights "
           "FROM flights GROUP BY carrier")
    meaning = describe_columns(sql, ["carrier", "cancelled_flights"], semantic=load_layer())["cancelled_flights"]
    assert meaning.aggregate == "count" and meaning.unit is None


def test_an_average_of_arithmetic_is_neither_a_share_nor_in_the_columns_unit():
    from agent.semantic.model.layer import load_layer

    # air_time is in minutes; divided by 60 it is in hours, and an average of it is no share of rows
    sql = "SELECT carrier, AVG((air_time) / 60.0) AS avg_air_time__in_hours FROM flights GROUP BY carrier"
    meaning = describe_columns(sql, ["carrier", "avg_air_time__in_hours"],
                               semantic=load_layer())["avg_air_time__in_hours"]
    assert not meaning.fraction and meaning.unit != "minutes"


def test_each_side_of_a_contrast_is_labelled_with_its_side():
    from agent.semantic.model.layer import load_layer

    # 'put april next to it': two averages of one measure, told apart by the period each is of
    sql = ("SELECT carrier, AVG(arr_delay) FILTER (WHERE month = 3) AS avg_arr_delay__mar, "
           "AVG(arr_delay) FILTER (WHERE month = 4) AS avg_arr_delay__apr FROM flights GROUP BY carrier")
    columns = ["carrier", "avg_arr_delay__mar", "avg_arr_delay__apr"]
    meanings = describe_columns(sql, columns, semantic=load_layer())
    assert meanings["avg_arr_delay__mar"].label.endswith("(mar)") and meanings["avg_arr_delay__apr"].label.endswith("(apr)")
    assert meanings["avg_arr_delay__mar"].unit == "minutes"
    hours = describe_columns("SELECT AVG(air_time / 60.0) AS avg_air_time__in_hours FROM flights",
                             ["avg_air_time__in_hours"], semantic=load_layer())["avg_air_time__in_hours"]
    assert "(" not in (hours.label or "")  # a unit asked for is no side


def test_a_contrasts_ratio_is_a_multiple_not_a_share():
    from agent.chatbi.meaning import is_fraction, is_rate

    assert not is_fraction("attrition_rate__ratio") and not is_rate("attrition_rate__ratio")
    assert is_fraction("attrition_rate__share") and is_fraction("flights_ratio")


async def test_distinct_counts_per_group_are_not_added_up(warehouse):
    analysis = await _analyze(
        warehouse, "planes per origin",
        "SELECT origin, count(DISTINCT tailnum) AS planes FROM flights GROUP BY origin",
    )
    assert "total" not in analysis.facts


def test_units_come_from_the_catalog_for_free_sql(warehouse):
    meanings = meanings_for(warehouse, "SELECT f.carrier, max(f.distance) AS longest FROM flights f GROUP BY 1",
                            ["carrier", "longest"])
    assert meanings["longest"] == ColumnMeaning(label="maximum distance", unit="miles", aggregate="max")


# -- properties over random result shapes ---------------------------------------------------------

AGGREGATES = st.sampled_from(["sum", "count", "avg", "median", "min", "max", "ratio", "count_distinct", None])
VALUES = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@st.composite
def category_results(draw):
    size = draw(st.integers(min_value=2, max_value=30))
    values = draw(st.lists(VALUES, min_size=size, max_size=size))
    rows = [(f"g{i}", v) for i, v in enumerate(values)]
    meaning = ColumnMeaning(aggregate=draw(AGGREGATES), unit=draw(st.sampled_from([None, "minutes", "%"])))
    limit = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=size + 2)))
    whole = draw(st.one_of(st.none(), st.floats(min_value=1, max_value=1e9)))
    return rows, meaning, limit, whole


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(category_results())
def test_shares_appear_only_for_additive_nonnegative_totals(case):
    rows, meaning, limit, whole = case
    rows = rows[:limit] if limit else rows
    if len(rows) < 2:
        return
    scope = Scope(limit=limit, whole_total=whole, whole_count=None)
    facts = compute_facts(["group_name", "m"], ["VARCHAR", "DOUBLE"], rows, meanings={"m": meaning}, scope=scope)
    text = answer_sentence(facts, ["group_name", "m"], {"m": meaning}) + " ".join(
        insight_sentences(facts, {"m": meaning})
    )
    # With no known aggregate the column's name decides, and "m" names nothing non-additive.
    known_additive = meaning.aggregate in ("sum", "count") if meaning.aggregate is not None else True
    additive = known_additive and meaning.unit != "%"
    if not additive or min(v for _, v in rows) < 0:
        assert "share_pct" not in facts.get("top", {}) and "total" not in facts
        assert " of the " not in text or "total" not in text
    if "share_pct" in facts.get("top", {}):
        assert 0 <= facts["top"]["share_pct"] <= 100 + 1e-9 or facts.get("total_scope") == "all"
        cut = limit is not None and len(rows) >= limit
        if cut and not whole:
            assert f"of these {len(rows)}" in text


@settings(max_examples=200)
@given(st.lists(VALUES, min_size=2, max_size=24), st.booleans())
def test_no_percent_change_when_the_sign_changes_or_for_rates(values, rate):
    meaning = ColumnMeaning(aggregate="avg", unit="%" if rate else "minutes")
    rows = [(i + 1, v) for i, v in enumerate(values[:12])]
    if len(rows) < 2:
        return
    facts = compute_facts(["month", "m"], ["BIGINT", "DOUBLE"], rows, meanings={"m": meaning})
    first, last = rows[0][1], rows[-1][1]
    if rate or first * last <= 0:
        assert "change_pct" not in facts
    text = answer_sentence(facts, ["month", "m"], {"m": meaning})
    if rate and facts.get("change"):
        assert "percentage points" in text


@settings(max_examples=100)
@given(st.sampled_from(["sum", "avg", "min", "max", "median", "count"]), st.sampled_from(["total", "value", "x"]))
def test_the_sql_aggregate_decides_additivity_whatever_the_name(aggregate, alias):
    sql = f"SELECT grp, {aggregate}(amount) AS {alias} FROM t GROUP BY grp"
    meaning = describe_columns(sql, ["grp", alias])[alias]
    assert meaning.aggregate == aggregate
    rows = [("a", 5.0), ("b", 3.0), ("c", 1.0)]
    facts = compute_facts(["grp", alias], ["VARCHAR", "DOUBLE"], rows, meanings={alias: meaning})
    assert ("total" in facts) == (aggregate in ("sum", "count"))


def test_quoted_numbers_in_a_category_answer_are_checkable():
    result = QueryResult(columns=["team", "orders"], types=["VARCHAR", "BIGINT"],
                         rows=[("a", 9705), ("b", 17283), ("c", 1200)])
    facts = compute_facts(result.columns, result.types, result.rows, meanings={"orders": ColumnMeaning(aggregate="count")})
    assert "17,283" in answer_sentence(facts, result.columns, {"orders": ColumnMeaning(aggregate="count")})
