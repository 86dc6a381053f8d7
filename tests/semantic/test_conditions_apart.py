"""A condition set against the rest of the rows ('when humidity was over 90% vs the rest', 'rainy hours vs dry
ones'): one row where it holds and one where it does not, grouped by it, over the rows the condition can be read
on; the words of a condition ('below freezing', 'at or below', 'raining') read as the comparison they say."""

from __future__ import annotations

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.nlq.why import explain_reading

WEATHER = "FROM flights f JOIN weather w ON f.origin = w.origin AND f.time_hour = w.time_hour"


def _rows(warehouse, sql):
    return sorted((tuple(r[:-1]), round(r[-1], 6)) for r in warehouse.run(sql).rows)


def _intent(ask, question: str) -> StructuredIntent:
    intent = ask(question).intent
    assert intent is not None, question
    return intent


def test_a_comparison_vs_the_rest_is_one_row_each(ask, model, warehouse):
    intent = _intent(ask, "avg dep delay when humidity was over 90% vs the rest")
    assert _rows(warehouse, compile_intent(intent, model).sql) == _rows(
        warehouse, f"SELECT w.humid > 90, avg(f.dep_delay) {WEATHER} WHERE w.humid IS NOT NULL GROUP BY 1")


def test_vs_not_and_a_named_amount_with_the_place_it_is_read_at(ask, model, warehouse):
    intent = _intent(ask, "ok then avg dep delay when it was below freezing at the origin vs not")
    assert "origin" not in intent.dimensions  # 'at the origin' says where the weather is read, not a grouping
    assert _rows(warehouse, compile_intent(intent, model).sql) == _rows(
        warehouse, f"SELECT w.temp < 32, avg(f.dep_delay) {WEATHER} WHERE w.temp IS NOT NULL GROUP BY 1")


def test_at_or_below_keeps_the_amount_itself(ask):
    intent = _intent(ask, "how many hours was it at or below freezing at each nyc airport in 2013")
    assert [(f.field, f.op, f.values) for f in intent.filters] == [("temp", "<=", [32])]
    assert [(f.op, f.values) for f in _intent(ask, "flights with a departure delay at or above 60 minutes").filters
            ] == [(">=", [60])]


def test_a_named_amount_the_question_spells_out_is_read_once(ask):
    intent = _intent(ask, "avg dep delay per origin when it was below freezing (temp < 32F)")
    assert [(f.field, f.op, f.values) for f in intent.filters] == [("temp", "<", [32])]


def test_rainy_hours_vs_dry_ones(ask, model, warehouse):
    intent = _intent(ask, "avg dep delay at lga in rainy hours vs dry ones")
    assert intent.dimensions == ["rainy"]  # the hours the rain fell in are the rows read, not a grouping by hour
    assert _rows(warehouse, compile_intent(intent, model).sql) == _rows(
        warehouse, f"SELECT w.precip > 0, avg(f.dep_delay) {WEATHER} WHERE f.origin = 'LGA' GROUP BY 1")


def test_how_many_hours_it_rained(ask, model, warehouse):
    intent = _intent(ask, "how many hours did it rain at ewr in april")
    got = warehouse.run(compile_intent(intent, model).sql).rows
    assert got == warehouse.run("SELECT count(*) FROM weather WHERE origin = 'EWR' AND month = 4 AND precip > 0").rows


def test_a_share_in_percent_is_how_it_is_shown_not_a_change(ask):
    intent = _intent(ask, "cancellation rate when it was raining at the origin vs dry, in % pls")
    assert intent.contrast is None and intent.dimensions == ["rainy"]


def test_the_rest_of_two_conditions_is_asked_about(ask):
    # 'rainy' is the model's condition and the aside's comparison another: which one 'dry' is the rest of is not said
    assert ask("avg dep delay in rainy vs dry hours per airport (rainy = precip > 0 at the origin that hour)"
               ).intent is None


def test_why_says_the_split_and_the_match_in_words(ask, model):
    said = explain_reading(_intent(ask, "avg dep delay when humidity was over 90% vs the rest"), model)
    assert "‘humidity > 90 percent’ splits them in two" in said
    assert "matched on origin and time_hour" in said and "CAST(" not in said


def test_the_measure_of_a_comparison_is_found_past_where_it_was_read(ask, model, warehouse):
    intent = _intent(ask, "avg dep delay when the wind at the origin was over 20 mph vs under")
    assert _rows(warehouse, compile_intent(intent, model).sql) == _rows(
        warehouse, f"SELECT w.wind_speed > 20, avg(f.dep_delay) {WEATHER} WHERE w.wind_speed IS NOT NULL GROUP BY 1")


def test_a_comparative_after_or_names_the_measure_of_the_unit(ask):
    intent = _intent(ask, "avg dep delay when it was 90F or hotter at the origin")
    assert [(f.field, f.op, f.values) for f in intent.filters] == [("temp", ">=", [90])]


def test_bands_of_a_number_read_at_a_place(ask):
    intent = _intent(ask, "avg dep delay by wind speed at the origin: under 10 mph, 10-20, 20-30, 30+")
    (band,) = [d for d in intent.definitions if d.kind == "bands"]
    assert band.bands == ["under 10", "10-20", "20-30", "30+"] and band.column == "wind_speed"
    assert intent.dimensions == [band.name]


def test_how_and_a_measures_adjective_asks_for_the_measure_read(ask):
    said = ask("how warm does lga get, avg temp by month")
    assert said.intent is not None and said.intent.metrics == ["avg_temp"] and said.ignored_words == []


def test_weather_adjectives_rank_by_their_measure(ask):
    wettest = _intent(ask, "which month was the wettest at jfk")
    assert wettest.metrics == ["total_precip"] and wettest.limit == 1 and wettest.order_by[0].descending
    windiest = _intent(ask, "what was the windiest day at lga")
    assert windiest.metrics == ["avg_wind_speed"] and windiest.limit == 1



def test_a_short_form_is_read_as_its_word_where_that_makes_a_phrase(ask):
    intent = _intent(ask, "which scheduled dep hour has the most cancellations")
    assert intent.dimensions == ["hour"] and intent.metrics == ["cancelled_flights"] and intent.limit == 1


def test_late_on_arrival_and_averaging_over_a_number(ask):
    share = _intent(ask, "% of flights more than 15 min tardy on arrival, per nyc airport")
    assert share.contrast is not None and share.contrast.first.filters[0].field == "arr_delay"
    averaging = _intent(ask, "which carriers are averaging over 15 min late on arrival")
    assert averaging.dimensions == ["carrier"] and [(h.metric, h.op, h.value) for h in averaging.having] == [
        ("avg_arr_delay", ">", 15)]


def test_names_of_the_codes_go_beside_them(ask, model, values):
    from agent.semantic.nlq.follow_up import read_follow_up

    previous = _intent(ask, "avg arr delay by carrier")
    for said in ("with full airline names", "with airline names"):
        edited = read_follow_up(previous, said, model, values).edited
        assert edited is not None and edited.intent.dimensions == ["carrier", "airline_name"], said


def test_values_joined_by_and_in_a_split_answer_are_split_too(ask, model, values):
    from agent.semantic.compile.filters import Filter
    from agent.semantic.nlq.follow_up import read_follow_up

    monthly = _intent(ask, "southwest flights per month out of ewr and lga")
    assert "origin" in monthly.dimensions and len(monthly.dimensions) == 2
    assert _intent(ask, "how many flights out of ewr and lga").dimensions == []  # no split asked: one total
    where = read_follow_up(monthly, "where do they fly from ewr", model, values).edited
    assert where is not None and where.intent.dimensions == ["dest"]
    # the answer's rows kept ('among the 9 destinations') are no value 'same for lga' could replace
    kept = where.intent.model_copy(update={"filters": [*where.intent.filters, Filter(
        field="dest", op="in", values=["AUS", "BNA", "BWI", "DEN", "HOU", "MDW", "MSY", "PHX", "STL"])]})
    lga = read_follow_up(kept, "same for lga", model, values).edited
    assert lga is not None and Filter(field="origin", values=["LGA"]) in lga.intent.filters
