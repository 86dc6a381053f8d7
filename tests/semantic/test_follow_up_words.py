"""Follow-ups read against the previous reading on the demo model: periods the data does not hold, pointers at
the previous answer, a month said alone, the old grouping named after 'not', a ranking by the measure."""

from __future__ import annotations

import pytest

from agent.semantic.nlq.follow_up import read_follow_up
from agent.semantic.compile.intent import StructuredIntent


def test_a_year_the_data_does_not_hold_is_declined_with_the_span(model, values):
    previous = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"])
    for message in ("compare with 2012", "what about 2015"):
        follow = read_follow_up(previous, message, model, values)
        assert follow.edited is None and follow.problem is not None, message
        assert "2013-01-01 to 2013-12-31" in follow.problem and message[-4:] in follow.problem
    held = read_follow_up(previous, "what about march", model, values)
    assert held.problem is None and held.edited is not None and held.edited.intent.time.months == [3]


def test_there_and_that_thing_after_a_one_row_answer_point_at_its_value(model, values):
    top_origin = StructuredIntent(metrics=["cancelled_flights"], dimensions=["origin"], limit=1,
                                  order_by=[{"field": "cancelled_flights", "descending": True}])
    for message in ("avg dep delay there", "how many flights left that airport in february"):
        follow = read_follow_up(top_origin, message, model, values)
        assert follow.edited is not None and follow.over_rows, message
        assert follow.edited.intent.limit is None and follow.edited.intent.order_by == [], message
    several = top_origin.model_copy(update={"limit": 3})
    assert not read_follow_up(several, "avg dep delay there", model, values).over_rows


def test_a_month_said_alone_is_the_month_even_a_verb_like_may(model, values):
    april = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"], time={"months": [4]})
    for message, month in (("no i meant may", 5), ("sorry, march", 3), ("what about jun", 6)):
        follow = read_follow_up(april, message, model, values)
        assert follow.edited is not None and follow.edited.intent.time.months == [month], message


def test_not_with_the_old_groupings_name_replaces_it_and_nothing_else(model, values):
    by_carrier = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"])
    follow = read_follow_up(by_carrier, "by origin not carrier", model, values)
    assert follow.edited is not None and follow.edited.intent.dimensions == ["origin"]
    rather = read_follow_up(by_carrier, "by month rather than by airline", model, values)
    assert rather.edited is not None and rather.edited.intent.dimensions == ["month"]


def test_top_n_by_the_measured_column_ranks_by_the_measure(model, values):
    by_carrier = StructuredIntent(metrics=["total_distance"], dimensions=["carrier"])
    follow = read_follow_up(by_carrier, "top 3 by distance then", model, values)
    assert follow.edited is not None and follow.edited.intent.dimensions == ["carrier"]
    assert follow.edited.intent.limit == 3 and follow.edited.intent.order_by[0].field == "total_distance"


def test_an_everyday_word_code_alone_takes_the_old_conditions_cue(model, values):
    to_sfo = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"],
                              filters=[{"field": "dest", "values": ["SFO"]}])
    follow = read_follow_up(to_sfo, "what about sea", model, values)
    assert follow.edited is not None and follow.edited.changes == ["SEA instead of SFO"]
    by_carrier = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"])
    assert read_follow_up(by_carrier, "what about sea", model, values).edited is None  # no condition to stand for


def test_naming_the_value_already_asked_keeps_the_reading_as_it_is(model, values):
    to_sfo = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"],
                              filters=[{"field": "dest", "values": ["SFO"]}])
    follow = read_follow_up(to_sfo, "sfo", model, values)
    assert follow.edited is not None and follow.edited.intent == to_sfo and follow.edited.changes == []


def test_codes_after_a_drop_word_are_values_even_those_needing_a_cue(model, values):
    to_ord = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"], filters=[{"field": "dest", "values": ["ORD"]}])
    follow = read_follow_up(to_ord, "exclude ua and aa", model, values)
    assert follow.edited is not None
    assert {(f.field, f.op, tuple(f.values)) for f in follow.edited.intent.filters} == {
        ("dest", "=", ("ORD",)), ("carrier", "!=", ("UA",)), ("carrier", "!=", ("AA",))}


def test_a_ranking_word_alone_keeps_the_first_row(model, values):
    by_dest = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["dest"], limit=1,
                               order_by=[{"field": "avg_arr_delay", "descending": True}])
    best = read_follow_up(by_dest, "and the best?", model, values)
    assert best.edited is not None and best.edited.intent.limit == 1
    assert best.edited.intent.order_by[0].descending is False  # less delay is better
    by_carrier = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"])
    worst = read_follow_up(by_carrier, "the bottom one", model, values)
    assert worst.edited is not None and worst.edited.intent.limit == 1 and not worst.edited.intent.order_by[0].descending


def test_a_place_of_the_same_kind_the_measures_table_lacks_is_declined(model, values):
    jfk_temp = StructuredIntent(metrics=["avg_temp"], filters=[{"field": "origin", "values": ["JFK"]}],
                                time={"months": [1]})
    follow = read_follow_up(jfk_temp, "and in boston?", model, values)
    assert follow.edited is None and "BOS" in follow.problem and "EWR, JFK, LGA" in follow.problem
    from_jfk = StructuredIntent(metrics=["flight_count"], filters=[{"field": "origin", "values": ["JFK"]}])
    to_bos = read_follow_up(from_jfk, "and to boston?", model, values)  # flights have destinations: added
    assert to_bos.edited is not None and {f.field for f in to_bos.edited.intent.filters} == {"origin", "dest"}


def test_months_left_out_and_which_is_worst(model, values):
    by_month = StructuredIntent(metrics=["flight_count"], dimensions=["month"])
    follow = read_follow_up(by_month, "without december", model, values)
    assert follow.edited is not None and follow.edited.intent.time.months == list(range(1, 12))
    by_origin = StructuredIntent(metrics=["cancelled_flights"], dimensions=["origin"])
    worst = read_follow_up(by_origin, "which is worst", model, values)
    assert worst.edited is not None and worst.edited.intent.limit == 1


def test_how_many_with_no_noun_counts_the_previous_answers_rows(model, values):
    rate = StructuredIntent(metrics=["cancellation_rate"], dimensions=["origin"], time={"months": [2]})
    follow = read_follow_up(rate, "and how many were delayed", model, values)
    assert follow.edited is not None and follow.edited.intent.metrics == ["delayed_flights"]
    assert follow.edited.intent.dimensions == ["origin"] and follow.edited.intent.time.months == [2]


def test_what_percent_is_that_shows_the_previous_count_as_its_rate(model, values):
    cancelled = StructuredIntent(metrics=["cancelled_flights"], time={"months": [1]})
    follow = read_follow_up(cancelled, "what % is that", model, values)
    assert follow.edited is not None and follow.edited.intent.metrics == ["cancellation_rate"]


def test_the_mean_said_alone_is_an_edit_not_an_empty_message(model, values):
    from agent.semantic.nlq.dialogue_cues import says_nothing_else

    assert not says_nothing_else("mean pls") and says_nothing_else("i meant it pls")
    median = StructuredIntent(metrics=["median_dep_delay"], dimensions=["origin"])
    follow = read_follow_up(median, "mean pls", model, values)
    assert follow.edited is not None and follow.edited.intent.metrics == ["avg_dep_delay"]


def test_all_of_a_year_drops_the_months_and_keeps_the_rest(model, values):
    half = StructuredIntent(metrics=["total_distance"], filters=[{"field": "carrier", "values": ["AA"]}],
                            time={"months": [1, 2, 3, 4, 5, 6]})
    for message in ("all of 2013", "the whole of 2013"):
        follow = read_follow_up(half, message, model, values)
        assert follow.edited is not None, message
        intent = follow.edited.intent
        assert (intent.time is None or not intent.time.months) and intent.filters == half.filters, message


def test_their_keeps_the_previous_answers_rows(model, values):
    top3 = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"], limit=3,
                            order_by=[{"field": "flight_count", "descending": True}])
    follow = read_follow_up(top3, "and their avg dep delay?", model, values)
    assert follow.edited is not None and follow.over_rows
    assert follow.edited.intent.metrics == ["avg_dep_delay"]


def test_a_value_said_with_its_roles_word_filters_without_regrouping(model, values):
    worst = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["dest"], limit=5,
                             order_by=[{"field": "avg_arr_delay", "descending": True}])
    follow = read_follow_up(worst, "jfk departures only", model, values)
    assert follow.edited is not None and follow.edited.intent.dimensions == ["dest"]
    assert [(f.field, f.values) for f in follow.edited.intent.filters] == [("origin", ["JFK"])]


def test_the_other_side_of_a_role_regroups_and_nothing_is_dropped_in_silence(model, values):
    by_origin = StructuredIntent(metrics=["flight_count"], dimensions=["origin"], time={"months": [9]})
    follow = read_follow_up(by_origin, "ok and the arrival side, top 3", model, values)
    assert follow.edited is not None and follow.edited.intent.dimensions == ["dest"]
    assert follow.edited.intent.limit == 3 and follow.unread == []
    # a word no reading places is named and nothing is run: 'top 3' alone would answer another question
    unknown = read_follow_up(by_origin, "top 3 and the glorp", model, values)
    assert unknown.edited is None and unknown.problem is not None and "“glorp”" in unknown.problem


@pytest.mark.parametrize("message", ["swap jetblue for southwest", "replace B6 with WN", "change jetblue to southwest"])
def test_swap_one_value_for_another(model, values, message):
    jetblue = StructuredIntent(metrics=["median_dep_delay"], dimensions=["origin"],
                               filters=[{"field": "carrier", "values": ["B6"]}])
    follow = read_follow_up(jetblue, message, model, values)
    assert follow.edited is not None, message
    assert [(f.field, f.values) for f in follow.edited.intent.filters] == [("carrier", ["WN"])], message


def test_a_span_of_months_with_a_dash(model, values):
    by_month = StructuredIntent(metrics=["avg_humid"], dimensions=["month"])
    follow = read_follow_up(by_month, "only jan-jun", model, values)
    assert follow.edited is not None and follow.edited.intent.time.months == [1, 2, 3, 4, 5, 6]


def test_a_groupings_last_word_alone_is_that_grouping(model, values):
    by_type = StructuredIntent(metrics=["plane_count"], dimensions=["plane_type"])
    follow = read_follow_up(by_type, "avg # seats per type then", model, values)
    assert follow.fresh and follow.extraction is not None and follow.extraction.intent is not None
    assert follow.extraction.intent.dimensions == ["plane_type"]


def test_a_condition_added_says_its_comparison(model, values):
    by_type = StructuredIntent(metrics=["plane_count"], dimensions=["plane_type"])
    follow = read_follow_up(by_type, "only the ones built before 2000", model, values)
    assert follow.edited is not None and any("< 2000" in change for change in follow.edited.changes)


@pytest.mark.parametrize("message", ["without the cancelled ones", "exclude cancelled flights"])
def test_without_a_yes_no_condition_keeps_the_other_rows(model, values, message):
    top3 = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"], filters=[{"field": "origin", "values": ["JFK"]}])
    follow = read_follow_up(top3, message, model, values)
    assert follow.edited is not None, message
    assert [(f.field, f.op, f.values) for f in follow.edited.intent.filters] == [
        ("origin", "=", ["JFK"]), ("took_off", "=", [True])], message
    assert follow.edited.changes == ["also took off"], message


def test_the_other_word_of_the_measure_swaps_the_measure(model, values):
    departures = StructuredIntent(metrics=["avg_dep_delay"], dimensions=["carrier"],
                                  filters=[{"field": "origin", "values": ["EWR"]}])
    follow = read_follow_up(departures, "no, i meant arrivals", model, values)
    assert follow.edited is not None and follow.edited.intent.metrics == ["avg_arr_delay"]


def test_which_of_those_with_their_number_is_those(model, values):
    from agent.semantic.nlq.dialogue_cues import find_cues

    cues = find_cues("which of those 3 was worst")
    assert cues.things and "3" not in cues.text
    cues = find_cues("avg arr delay for those two on that route")  # the number in words too
    assert cues.things and "two" not in cues.text


def test_a_number_left_open_on_one_side_is_a_bound(model, values):
    """'from 2010 on', '200 seats and up': at least that number, on its own or as the new bound of a thread's one
    comparison ('what about planes from 2010 on' after planes built before 2000)."""
    from agent.semantic.nlq.extract import extract_intent

    built = extract_intent("flights on planes built from 2010 on", model, values).intent
    assert built is not None and [(f.field, f.op, f.values) for f in built.filters] == [("plane_year", ">=", [2010])]
    seats = extract_intent("planes with 200 seats and up", model, values).intent
    assert seats is not None and [(f.field, f.op, f.values) for f in seats.filters] == [("seats", ">=", [200])]
    old = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"],
                           filters=[{"field": "plane_year", "op": "<", "values": [2000]}])
    newer = read_follow_up(old, "what about planes from 2010 on", model, values).edited
    assert newer is not None and [(f.field, f.op, f.values) for f in newer.intent.filters] == [("plane_year", ">=", [2010])]


def test_a_number_alone_moves_the_one_bound_on_a_total(model, values):
    late = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"],
                            having=[{"metric": "avg_arr_delay", "op": ">", "value": 15}])
    moved = read_follow_up(late, "bump it to 20", model, values).edited
    assert moved is not None and [(h.op, h.value) for h in moved.intent.having] == [(">", 20.0)]
    assert "instead of > 15" in moved.changes[0]
    ranked = read_follow_up(late, "top 3", model, values).edited
    assert ranked is not None and ranked.intent.having == late.having and ranked.intent.limit == 3


def test_the_other_ones_are_every_other_value_of_the_one_filtered_thing(model, values):
    jfk = StructuredIntent(metrics=["flight_count"], filters=[{"field": "origin", "values": ["JFK"]}])
    others = read_follow_up(jfk, "what about the other two airports", model, values).edited
    assert others is not None and others.intent.dimensions == ["origin"]
    assert [(f.field, sorted(f.values)) for f in others.intent.filters] == [("origin", ["EWR", "LGA"])]
    assert "instead of JFK" in others.changes[0]
    wrong_count = read_follow_up(jfk, "what about the other five airports", model, values)
    assert wrong_count.edited is None and "There are 2 other" in (wrong_count.problem or "")


def test_a_place_of_several_things_split_by_them_takes_each(model, values):
    """'flights to chicago, split by airport': O'Hare and Midway apart; 'flights to chicago' alone asks which."""
    from agent.semantic.nlq.extract import extract_intent

    split = extract_intent("flights to chicago, split by airport", model, values).intent
    assert split is not None and split.dimensions == ["dest"]
    assert [(f.field, sorted(f.values)) for f in split.filters] == [("dest", ["MDW", "ORD"])]
    assert extract_intent("flights to chicago", model, values).ambiguous


@pytest.mark.parametrize("message", ["what are those airports actually called", "what are they called",
                                     "full airport names?", "full names?"])
def test_asking_what_the_things_are_called_names_the_answers_things(model, values, message):
    bottom = StructuredIntent(metrics=["flight_count"], dimensions=["dest"], limit=5,
                              filters=[{"field": "origin", "values": ["JFK"]}],
                              order_by=[{"field": "flight_count", "descending": False}])
    named = read_follow_up(bottom, message, model, values)
    assert named.edited is not None and named.over_rows, named.problem
    assert named.edited.intent.dimensions == ["dest", "dest_name"] and named.edited.intent.filters == bottom.filters


def test_the_verbs_own_noun_names_a_count_of_what_happened(model, values):
    """'cancels' for cancelled flights: the noun of the verb the count is named by; 'delays' stays the delay."""
    from agent.semantic.nlq.extract import extract_intent

    cancels = extract_intent("how many cancels at jfk", model, values).intent
    assert cancels is not None and cancels.metrics == ["cancelled_flights"]
    delays = extract_intent("avg delays by carrier", model, values).intent
    assert delays is not None and delays.metrics != ["delayed_flights"]


def test_those_with_a_number_says_how_many_things_are_pointed_at():
    from agent.semantic.nlq.dialogue_cues import find_cues

    assert find_cues("just those 3 carriers").things_count == 3
    assert find_cues("which of those two was worse").things_count == 2
    assert find_cues("which of them was worst").things_count is None


def test_it_after_did_is_one_thing_pointed_at_and_make_it_is_not(model, values):
    from agent.semantic.nlq.dialogue_cues import find_cues

    doing = find_cues("which routes did it fly most")
    assert doing.pointer and doing.one_thing and " it " not in f" {doing.text} "
    assert not find_cues("make it top 3").one_thing and not find_cues("chart it").one_thing
    busiest = StructuredIntent(metrics=["flight_count"], dimensions=["tailnum"], limit=1,
                               order_by=[{"field": "flight_count", "descending": True}])
    routes = read_follow_up(busiest, "which routes did it fly, top 3", model, values)
    assert routes.edited is not None and routes.over_rows and routes.edited.intent.dimensions == ["route"]
    several = busiest.model_copy(update={"limit": 5})
    assert "stands for one thing" in (read_follow_up(several, "which routes did it fly", model, values).problem or "")


def test_a_ranking_word_of_the_answers_own_measure_and_a_number_rank_it(model, values):
    """'fastest 5' after average speed by route (in no order): 'fast' is said of speed itself, not of the wind's
    speed, and ranks the answer's own measure."""
    assert "speed_mph" in model.ranking.said_of["fastest"].measures and "fastest" not in model.ranking.implies_measure
    speeds = StructuredIntent(metrics=["avg_speed_mph"], dimensions=["route"])
    fastest = read_follow_up(speeds, "fastest 5", model, values).edited
    assert fastest is not None and fastest.intent.limit == 5 and fastest.intent.order_by[0].descending
    from agent.semantic.nlq.extract import extract_intent
    alone = extract_intent("which airline is the fastest?", model, values)  # of no answer: which speed is asked
    assert alone.intent is None and "could rank by speed or wind speed" in (alone.reason or "")
    flights = StructuredIntent(metrics=["flight_count"], dimensions=["route"])
    assert read_follow_up(flights, "fastest 5", model, values).edited is None or \
        read_follow_up(flights, "fastest 5", model, values).edited.intent.metrics != ["flight_count"]


@pytest.mark.parametrize(("message", "fresh"), [
    ("actually forget that. flights to mia per airline", "flights to mia per airline"),
    ("nvm, how many flights to bos", "how many flights to bos"),
    ("scrap that. how many aircraft did southwest fly", "how many aircraft did southwest fly"),
    ("never mind the month, by carrier", None),  # an edit: the month goes
    ("diff question - how many planes were built before 1980", "how many planes were built before 1980"),
    ("unrelated but what was the windiest day at lga", "what was the windiest day at lga"),
])
def test_forget_that_starts_a_question_of_its_own(message, fresh):
    from agent.semantic.nlq.dialogue_cues import restarted

    assert restarted(message) == fresh


def test_every_one_of_what_a_ranking_is_by_is_the_whole_ranking(model, values):
    worst = StructuredIntent(metrics=["avg_dep_delay"], dimensions=["hour"], limit=1,
                             order_by=[{"field": "avg_dep_delay", "descending": True}],
                             filters=[{"field": "origin", "op": "=", "values": ["LGA"]}])
    follow = read_follow_up(worst, "show every hour", model, values)
    assert follow.edited is not None and follow.edited.intent.limit is None
    assert follow.edited.intent.dimensions == ["hour"] and follow.edited.intent.filters == worst.filters


def test_the_period_before_is_the_month_before_the_one_read(model, values):
    october = StructuredIntent(metrics=["flight_count"], filters=[{"field": "origin", "op": "=", "values": ["JFK"]}],
                               time={"months": [10]})
    for message in ("vs the month before?", "compare with the previous month"):
        follow = read_follow_up(october, message, model, values)
        assert follow.edited is not None and sorted(follow.edited.intent.time.months) == [9, 10], message
        assert follow.edited.intent.dimensions, message  # a row each


def test_a_chart_of_no_kind_keeps_the_reading(model, values):
    by_month = StructuredIntent(metrics=["flight_count"], dimensions=["month"],
                                filters=[{"field": "dest", "op": "=", "values": ["DFW"]}])
    follow = read_follow_up(by_month, "can u make that a chart", model, values)
    assert follow.edited is not None and follow.edited.chart == "any"
    assert follow.edited.intent == by_month


def test_the_aggregation_said_as_replaced_goes(model, values):
    gusts = StructuredIntent(metrics=["avg_wind_gust"], dimensions=["month"],
                             filters=[{"field": "origin", "op": "=", "values": ["JFK"]}])
    for message in ("max not avg", "the maximum rather than the average", "max, not the mean"):
        follow = read_follow_up(gusts, message, model, values)
        assert follow.edited is not None and follow.edited.intent.metrics == ["max_wind_gust"], message


def test_listing_them_after_a_count_lists_the_things_counted(model, values):
    old = StructuredIntent(metrics=["plane_count"], filters=[{"field": "plane_year", "op": "<", "values": [1980]}])
    follow = read_follow_up(old, "list them with the manufacturer", model, values)
    assert follow.edited is not None and follow.edited.intent.filters == old.filters
    assert {"plane", "manufacturer"} <= set(follow.edited.intent.dimensions)


def test_a_count_instead_of_an_average(model, values):
    delays = StructuredIntent(metrics=["avg_dep_delay"], dimensions=["hour"],
                              filters=[{"field": "origin", "op": "=", "values": ["JFK"]}])
    follow = read_follow_up(delays, "count instead of avg", model, values)
    assert follow.edited is not None and follow.edited.intent.metrics == ["flight_count"]
    assert follow.edited.intent.dimensions == ["hour"] and follow.edited.intent.filters == delays.filters


def test_flip_turns_the_ranking_round_and_keeps_how_many(model, values):
    top5 = StructuredIntent(metrics=["flight_count"], dimensions=["dest"], limit=5,
                            order_by=[{"field": "flight_count", "descending": True}])
    for message in ("flip it", "reverse the order", "the other way round"):
        follow = read_follow_up(top5, message, model, values)
        assert follow.edited is not None, message
        assert follow.edited.intent.limit == 5 and not follow.edited.intent.order_by[0].descending, message
    both = read_follow_up(top5, "flip it, bottom 3", model, values)
    assert both.edited is not None and both.edited.intent.limit == 3 and not both.edited.intent.order_by[0].descending


@pytest.mark.parametrize("message, metrics, origin", [
    ("sorry, arrivals not departures", ["avg_arr_delay"], "EWR"),
    ("no wait, jfk not ewr", ["avg_dep_delay"], "JFK"),
])
def test_not_names_what_the_rest_replaces(model, values, message, metrics, origin):
    ewr = StructuredIntent(metrics=["avg_dep_delay"], dimensions=["carrier"],
                           filters=[{"field": "origin", "values": ["EWR"]}])
    follow = read_follow_up(ewr, message, model, values)
    assert follow.edited is not None and follow.edited.intent.metrics == metrics
    assert [(f.field, f.op, f.values) for f in follow.edited.intent.filters] == [("origin", "=", [origin])]


def test_last_quarter_set_beside_a_quarter_is_the_one_before_it(model, values):
    q3 = StructuredIntent(metrics=["flight_count"], filters=[{"field": "origin", "values": ["LGA"]}],
                          time={"months": [7, 8, 9]})
    follow = read_follow_up(q3, "compared to last quarter", model, values)
    assert follow.edited is not None and follow.edited.intent.time.months == [4, 5, 6, 7, 8, 9]


def test_the_same_period_keeps_the_period(model, values):
    summer = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"],
                              filters=[{"field": "origin", "values": ["LGA"]}], time={"months": [6, 7, 8]})
    for message in ("same period for ewr", "ewr in that stretch"):
        follow = read_follow_up(summer, message, model, values)
        assert follow.edited is not None, message
        intent = follow.edited.intent
        assert intent.time.months == [6, 7, 8] and intent.dimensions == ["carrier"], message
        assert [(f.field, f.values) for f in intent.filters] == [("origin", ["EWR"])], message


def test_a_ranking_word_and_a_number_rank_the_same_measure(model, values):
    longest = StructuredIntent(metrics=["avg_air_time"], dimensions=["dest"], limit=5,
                               order_by=[{"field": "avg_air_time", "descending": True}])
    follow = read_follow_up(longest, "shortest 5 now", model, values)
    assert follow.edited is not None and follow.edited.intent.metrics == ["avg_air_time"]
    assert follow.edited.intent.limit == 5 and not follow.edited.intent.order_by[0].descending


def test_dropping_a_grouping_nothing_filters_on_gives_one_total(model, values):
    by_month = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["month"],
                                filters=[{"field": "dest", "op": "=", "values": ["ATL"]}])
    follow = read_follow_up(by_month, "drop the month", model, values)
    assert follow.edited is not None, follow
    assert follow.edited.intent.dimensions == [] and follow.edited.intent.filters == by_month.filters
    # a month that filters is a window, not a grouping: dropping it keeps the grouping
    in_march = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"], time={"months": [3]})
    follow = read_follow_up(in_march, "drop the month", model, values)
    assert follow.edited is not None and follow.edited.intent.dimensions == ["carrier"]
    assert follow.edited.intent.time is None or not follow.edited.intent.time.months


def test_all_of_a_kept_things_word_drops_its_condition_and_keeps_the_ranking(model, values):
    """'all airports' after the top destinations from one origin airport: every origin, still the top 5."""
    top = StructuredIntent(metrics=["flight_count"], dimensions=["dest"], limit=5,
                           order_by=[{"field": "flight_count", "descending": True}],
                           filters=[{"field": "origin", "op": "=", "values": ["LGA"]},
                                    {"field": "carrier", "op": "=", "values": ["UA"]}])
    follow = read_follow_up(top, "all airports", model, values)
    assert follow.edited is not None, follow
    assert [f.field for f in follow.edited.intent.filters] == ["carrier"] and follow.edited.intent.limit == 5
    # with no condition on what 'all' names, it is every row of the ranking
    unfiltered = top.model_copy(update={"filters": []})
    follow = read_follow_up(unfiltered, "all destinations", model, values)
    assert follow.edited is not None and follow.edited.intent.limit is None


@pytest.mark.parametrize(("first", "message"), [
    (StructuredIntent(metrics=["flight_count"], filters=[{"field": "dest", "op": "=", "values": ["MCO"]}],
                      time={"months": [6, 7, 8]}), "compare with last summer"),
    (StructuredIntent(metrics=["flight_count"], dimensions=["dest"], limit=4), "and the year before?"),
])
def test_the_period_before_a_reading_of_the_datas_one_year_is_declined_with_the_span(model, values, first, message):
    """No year said: the reading is about the data's one year (2013), so the one before is 2012, which it lacks."""
    follow = read_follow_up(first, message, model, values)
    assert follow.edited is None and follow.problem is not None, follow
    assert "2012" in follow.problem and "2013-01-01 to 2013-12-31" in follow.problem


def test_as_a_percent_of_all_after_a_filtered_count_is_their_share_of_all(model, values):
    old = StructuredIntent(metrics=["plane_count"], filters=[{"field": "plane_year", "op": "<", "values": [1990]}])
    follow = read_follow_up(old, "as a % of all planes", model, values)
    assert follow.edited is not None, follow
    contrast = follow.edited.intent.contrast
    assert contrast is not None and contrast.kind == "share" and contrast.percent
    assert [f.field for f in contrast.first.filters] == ["plane_year"] and follow.edited.intent.filters == []


def test_a_reason_after_a_comma_asks_nothing(model, values):
    by_carrier = StructuredIntent(metrics=["avg_distance"], dimensions=["carrier"],
                                  filters=[{"field": "origin", "op": "=", "values": ["JFK"]}])
    follow = read_follow_up(by_carrier, "exclude hawaiian, it skews everything", model, values)
    assert follow.edited is not None, follow
    assert {(f.field, f.op, tuple(f.values)) for f in follow.edited.intent.filters} == {
        ("origin", "=", ("JFK",)), ("carrier", "!=", ("HA",))}


def test_the_month_before_january_of_the_datas_one_year_is_declined(model, values):
    january = StructuredIntent(metrics=["flight_count"], time={"months": [1]},
                               filters=[{"field": "origin", "op": "=", "values": ["EWR"]}])
    follow = read_follow_up(january, "vs last month", model, values)
    assert follow.edited is None and follow.problem is not None and "2012" in follow.problem, follow
    december = StructuredIntent(metrics=["flight_count"], time={"months": [12]},
                                filters=[{"field": "origin", "op": "=", "values": ["EWR"]}])
    follow = read_follow_up(december, "vs last month?", model, values)
    assert follow.edited is not None and follow.edited.intent.time.months == [11, 12], follow


def test_as_a_percent_of_all_after_one_groups_count_is_its_share_of_all(model, values):
    """After 'how many flights did they have' for the one carrier picked: F9's share of all flights, not 100%."""
    one = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"], limit=1,
                           filters=[{"field": "carrier", "op": "=", "values": ["F9"]}],
                           order_by=[{"field": "flight_count", "descending": True}])
    follow = read_follow_up(one, "and as a % of all flights", model, values)
    assert follow.edited is not None, follow
    intent = follow.edited.intent
    assert intent.contrast is not None and intent.contrast.first.filters[0].values == ["F9"] and intent.dimensions == []


@pytest.mark.parametrize("message, kept, months", [
    ("q4 by month, all airlines not just united", ["origin"], [10, 11, 12]),
    ("whole year, not just march", ["carrier", "origin"], None),
])
def test_not_just_a_value_says_which_condition_goes(model, values, message, kept, months):
    """'not just united' names the condition that goes; it never leaves united out."""
    previous = StructuredIntent(metrics=["flight_count"], time={"months": [3]}, filters=[
        {"field": "carrier", "op": "=", "values": ["UA"]}, {"field": "origin", "op": "=", "values": ["EWR"]}])
    follow = read_follow_up(previous, message, model, values)
    assert follow.edited is not None, follow
    intent = follow.edited.intent
    assert [f.field for f in intent.filters] == kept and all(f.op != "!=" for f in intent.filters), intent.filters
    assert (intent.time.months if intent.time else None) == months, intent.time


@pytest.mark.parametrize(("message", "pointer"), [
    ("which airlines fly it", True),
    ("which airlines fly it and how many flights each", True),  # 'it' ends a clause, not only the message
    ("make it top 3 and as a bar chart", False),  # 'make it' is an edit's words, not the answer pointed at
    ("is it and lga close", False),
])
def test_it_ending_a_clause_points_at_the_previous_answer(message, pointer):
    from agent.semantic.nlq.dialogue_cues import find_cues

    assert find_cues(message).pointer is pointer


def test_what_percent_of_them_after_a_count_is_the_share_that_meets_the_new_condition(model, values):
    """'what % of them left late' after flights by carrier: each carrier's share of late departures over the
    flights that departed, never the count narrowed to the known delays."""
    counted = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"],
                               filters=[{"field": "origin", "op": "=", "values": ["LGA"]}])
    follow = read_follow_up(counted, "what % of them left late", model, values)
    assert follow.edited is not None, follow
    intent = follow.edited.intent
    assert intent.metrics == [] and intent.contrast is not None and intent.contrast.kind == "share"
    assert [(f.field, f.op) for f in intent.contrast.first.filters] == [("dep_delay", ">")]
    assert ("dep_delay", "not_null") in {(f.field, f.op) for f in intent.filters}
    again = read_follow_up(intent, "how many per month", model, values)
    assert again.edited is not None, again
    assert again.edited.intent.metrics == ["flight_count"] and again.edited.intent.contrast is None
    assert [f.field for f in again.edited.intent.filters] == ["origin"]


def test_a_share_of_rows_that_all_meet_its_condition_is_no_edit(model, values):
    # 'the highest %, how many flights at ewr' after EWR's cancellation rates: 'at ewr' is no share (100%)
    rates = StructuredIntent(metrics=["cancellation_rate"], dimensions=["carrier"],
                             filters=[{"field": "origin", "op": "=", "values": ["EWR"]}])
    follow = read_follow_up(rates, "that airline with the highest %, how many flights did it have at ewr in total",
                            model, values)
    assert follow.edited is None or follow.edited.intent.contrast is None, follow


def test_a_figure_for_each_goes_beside_what_each_row_shows(model, values):
    """'avg arr delay for each' after a count by carrier: 'for each' ending the message is each row shown, so
    the new figure is added to them; it is never read as one number over all flights."""
    by_carrier = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"])
    for message in ("avg arr delay for each", "avg arr delay for each of them"):
        follow = read_follow_up(by_carrier, message, model, values)
        assert follow.edited is not None, message
        assert follow.edited.intent.metrics == ["flight_count", "avg_arr_delay"], message
        assert follow.edited.intent.dimensions == ["carrier"], message


def test_a_movement_after_two_periods_side_by_side_is_their_change_ranked(model, values):
    """'which one grew the most' after January and July side by side: July minus January, highest first, one
    row; 'which fell the most' the other way round, so the biggest fall ranks first."""
    beside = StructuredIntent(dimensions=["carrier"], contrast={
        "kind": "side_by_side", "metric": "flight_count", "first": {"time": {"months": [1]}},
        "second": {"time": {"months": [7]}}})
    grew = read_follow_up(beside, "which one grew the most", model, values)
    assert grew.edited is not None, grew
    intent = grew.edited.intent
    assert intent.contrast is not None and intent.contrast.kind == "difference"
    assert (intent.contrast.first.time.months, intent.contrast.second.time.months) == ([7], [1])
    assert intent.limit == 1 and [(o.field, o.descending) for o in intent.order_by] == [
        ("flight_count__difference", True)]
    fell = read_follow_up(intent, "which one fell the most", model, values)
    assert fell.edited is not None and fell.edited.intent.contrast is not None
    assert (fell.edited.intent.contrast.first.time.months, fell.edited.intent.contrast.second.time.months) == ([1], [7])
    places = StructuredIntent(dimensions=["carrier"], contrast={
        "kind": "side_by_side", "metric": "flight_count", "first": {"filters": [{"field": "origin", "values": ["JFK"]}]},
        "second": {"filters": [{"field": "origin", "values": ["LGA"]}]}})
    kept = read_follow_up(places, "which one grew the most", model, values)  # two places: no movement between them
    assert kept.edited is None or kept.edited.intent.contrast == places.contrast


def test_which_one_had_the_most_keeps_the_one_row_it_ranks_first(model, values):
    by_carrier = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"])
    follow = read_follow_up(by_carrier, "which one had the most", model, values)
    assert follow.edited is not None and follow.edited.intent.limit == 1, follow
