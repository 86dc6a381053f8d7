"""A message in a thread read against the previous reading: which edit it makes, or a fresh start."""

from __future__ import annotations

import dataclasses

import pytest

from agent.semantic.nlq.dialogue_cues import drops_a_condition, refers_back
from agent.semantic.nlq.follow_up import read_follow_up
from agent.semantic.compile.intent import StructuredIntent


@pytest.fixture(scope="module")
def follow(model, values, ask):
    def follow(first: str, message: str):
        previous = ask(first).intent
        assert previous is not None, first
        return read_follow_up(previous, message, model, values)

    return follow


def test_top_n(follow):
    read = follow("average departure delay by carrier for flights from JFK", "make it top 3")
    assert read.edited.intent.limit == 3 and read.edited.intent.order_by[0].descending
    assert read.edited.intent.filters[0].values == ["JFK"]


def test_another_value_of_the_same_dimension_replaces_it(follow):
    read = follow("average departure delay by carrier for flights from JFK", "now for EWR")
    assert [f.values for f in read.edited.intent.filters] == [["EWR"]]
    assert read.edited.changes == ["EWR instead of JFK"]


def test_the_whole_year_drops_the_month(follow):
    read = follow("how many flights left LGA in June", "for the whole year")
    assert read.edited.intent.time is None and read.edited.intent.filters[0].values == ["LGA"]


def test_drop_the_value_filter(follow):
    read = follow("number of flights by carrier from LGA", "drop the LGA filter")
    assert read.edited.intent.filters == [] and read.edited.intent.dimensions == ["carrier"]


def test_grouping_instead(follow):
    read = follow("average arrival delay by origin airport", "by month instead")
    assert read.edited.intent.dimensions == ["month"]


def test_grouping_as_well(follow):
    read = follow("total distance by carrier", "also by origin")
    assert read.edited.intent.dimensions == ["carrier", "origin"]


def test_aggregation(follow):
    read = follow("average air time by carrier", "the maximum instead")
    assert read.edited.intent.metrics == ["max_air_time"]


def test_metric_correction(follow):
    read = follow("average departure delay by month for flights from LGA", "no, I meant arrival delay")
    assert read.edited.intent.metrics == ["avg_arr_delay"] and read.edited.intent.filters[0].values == ["LGA"]


def test_compare_with_another_month(follow):
    read = follow("total distance flown by Delta in April", "compare to march")
    assert read.edited.intent.time.months == [3, 4] and "month" in read.edited.intent.dimensions


def test_chart_kind(follow):
    read = follow("number of flights by month", "as a bar chart")
    assert read.edited.chart == "bar" and read.edited.intent.dimensions == ["month"]


def test_pointers_keep_the_place(follow):
    there = follow("number of flights from JFK to MIA in January", "what was the average departure delay there")
    assert there.edited.intent.metrics == ["avg_dep_delay"] and len(there.edited.intent.filters) == 2
    route = follow("number of flights from JFK to MIA in January", "and on that route in February")
    assert route.edited.intent.dimensions == [] and route.edited.intent.time.months == [2]


def test_which_of_them_ranks_the_previous_groups(follow):
    read = follow("average arrival delay for flights from LGA to ATL by carrier", "which of them had the most flights")
    intent = read.edited.intent
    assert intent.metrics == ["flight_count"] and intent.dimensions == ["carrier"] and intent.limit == 1


def test_the_rows_noun_alone_is_not_a_new_measure(follow):
    read = follow("total air time by origin airport", "now for flights to DEN only")
    assert read.edited.intent.metrics == ["total_air_time"]


def test_a_complete_question_starts_fresh(follow):
    assert follow("number of flights from JFK in May", "average arrival delay by carrier in 2013").fresh
    assert follow("average departure delay at EWR by month", "how many planes have more than 200 seats").fresh


def test_an_aggregation_the_model_lacks_is_said_not_guessed(follow):
    read = follow("number of flights by carrier", "the median instead")
    assert read.edited is None and "no median" in read.problem


def test_cues_for_the_router():
    assert refers_back("make it top 3") and refers_back("as a bar chart") and refers_back("compare to february")
    assert not refers_back("how many flights were there in June")
    assert drops_a_condition("drop the JFK filter") and not drops_a_condition("drop table flights")


def test_which_of_them_is_marked_as_over_the_previous_rows(follow):
    found = follow("top 5 destinations by number of flights from EWR", "which of them has the highest average arrival delay")
    assert found.edited is not None and found.over_rows
    assert found.edited.intent.metrics == ["avg_arr_delay"]
    assert not follow("number of flights by carrier", "top 3").over_rows


def test_a_word_pointing_back_at_the_end_makes_a_follow_up():
    assert refers_back("give me the SQL for that")
    assert refers_back("chart it")
    assert not refers_back("how many flights left JFK in June")


def test_a_grouping_alone_is_read_with_the_previous_measure(follow):
    found = follow("average arrival delay by origin airport", "by month instead")
    assert found.edited is not None and found.edited.intent.metrics == ["avg_arr_delay"]
    assert found.edited.intent.dimensions and "origin" not in found.edited.intent.dimensions


def test_a_value_of_two_dimensions_replaces_the_one_filtered_before(follow):
    # 'LGA' is an origin and a destination: after a question on an origin, it is the origin
    read = follow("average departure delay by carrier for flights from JFK", "now for LGA")
    assert [(f.field, f.values) for f in read.edited.intent.filters] == [("origin", ["LGA"])]


def test_a_value_of_two_dimensions_neither_filtered_before_is_asked(follow):
    read = follow("average departure delay by carrier", "only LGA")
    assert read.edited is None and read.extraction.ambiguous[0].of_value


@pytest.mark.parametrize("message", ["what about 2014", "sorry, I meant 2014", "2014?"])
def test_a_year_said_alone_in_a_thread_is_the_year(model, values, ask, message):
    # on data whose first date is not known, so 2014 is not declined as outside it (the demo's data is 2013
    # only: there it is, see test_follow_up_words.py)
    unspanned = dataclasses.replace(values, earliest={}, read_earliest=None)
    read = read_follow_up(ask("number of flights by month in 2013").intent, message, model, unspanned)
    assert read.edited is not None, (message, read.problem, read.extraction)
    assert read.edited.intent.time.year == 2014 and read.edited.intent.dimensions == ["month"]


def test_a_ranking_question_of_its_own_starts_fresh(follow):
    read = follow("number of flights by month in 2013", "top 3 carriers by average departure delay")
    assert read.fresh and read.extraction.intent.limit == 3 and read.extraction.intent.dimensions == ["carrier"]
    edit = follow("average departure delay by carrier", "make it top 3")
    assert edit.edited is not None and edit.edited.intent.limit == 3


def test_a_value_no_condition_holds_is_left_out(follow):
    read = follow("number of flights by carrier from EWR", "exclude UA")
    flts = read.edited.intent.filters
    assert {(f.field, f.op, tuple(f.values)) for f in flts} == {("origin", "=", ("EWR",)), ("carrier", "!=", ("UA",))}
    assert read.edited.intent.dimensions == ["carrier"]


def test_a_value_a_condition_holds_is_still_dropped(follow):
    read = follow("number of flights by carrier from EWR", "without EWR")
    assert read.edited.intent.filters == []


def test_a_condition_on_a_total_keeps_the_groups_that_pass_and_the_measure(follow):
    kept = follow("average number of seats by manufacturer", "only the ones with at least 50 planes").edited.intent
    assert kept.metrics == ["avg_seats"] and kept.dimensions == ["manufacturer"]
    assert [(h.metric, h.op, h.value) for h in kept.having] == [("plane_count", ">=", 50)]
    # left out: the groups kept are those that do not meet the condition
    ignored = follow("average number of seats by manufacturer", "ignore the ones with fewer than 50 planes")
    assert ignored.edited.intent.metrics == ["avg_seats"]
    assert [(h.metric, h.op, h.value) for h in ignored.edited.intent.having] == [("plane_count", ">=", 50)]
    assert ignored.edited.changes == ["only groups where number of planes ≥ 50"]
    # a value left out is still a value, not a total
    excluded = follow("number of flights by carrier from EWR", "exclude UA").edited.intent
    assert not excluded.having


def test_skipping_the_small_groups_keeps_the_others(follow):
    read = follow("average departure delay by carrier", "skip anyone under 1000 flights")
    assert [(h.metric, h.op, h.value) for h in read.edited.intent.having] == [("flight_count", ">=", 1000)]
    assert read.edited.intent.metrics == ["avg_dep_delay"]


@pytest.mark.parametrize("message", ["full list pls", "which ones", "list them", "top 3"])
def test_after_a_count_of_groups_the_groups_themselves(follow, message):
    read = follow("how many routes out of nyc had more than 1000 flights", message)
    intent = read.edited.intent
    assert not intent.count_groups and intent.dimensions == ["route"]
    assert [(h.metric, h.op, h.value) for h in intent.having] == [("flight_count", ">", 1000)]
    assert intent.order_by[0].field == "flight_count" and intent.order_by[0].descending
    assert intent.limit == (3 if message == "top 3" else None)


@pytest.mark.parametrize("message", ["the 2nd one", "whats the 2nd busiest", "the second biggest"])
def test_a_place_in_the_ranking_alone_is_that_row_of_it(follow, message):
    read = follow("top 10 routes by number of flights", message)
    assert read.edited is not None and read.over_rows and read.row == 2
    assert read.edited.intent.limit is None and read.edited.intent.dimensions == ["route"]


def test_a_place_by_the_other_ranking_word_is_no_row_of_it(follow):
    read = follow("top 10 routes by number of flights", "the 2nd quietest")
    assert read.row is None


def test_the_part_after_a_comma_says_which_groups_to_drop(follow):
    read = follow("average distance by engine type", "drop the tiny ones, anything under 1000 flights")
    assert [(h.metric, h.op, h.value) for h in read.edited.intent.having] == [("flight_count", ">=", 1000)]


def test_a_measure_made_of_the_previous_one_with_a_condition_on_a_total(follow):
    read = follow("top 5 routes by cancellations in feb", "as a rate instead, only routes with 100+ flights in feb")
    intent = read.edited.intent
    assert intent.metrics == ["cancellation_rate"] and intent.limit == 5 and intent.time.months == [2]
    assert [(h.metric, h.op, h.value) for h in intent.having] == [("flight_count", ">=", 100)]


def test_a_new_bound_on_a_total_replaces_the_old_one(follow, model, values):
    first = follow("average departure delay by carrier", "only the ones with more than 10000 flights").edited
    again = read_follow_up(first.intent, "only the ones with more than 20000 flights", model, values)
    assert [(h.metric, h.op, h.value) for h in again.edited.intent.having] == [("flight_count", ">", 20000)]


def test_as_a_percent_is_an_edit_and_a_percentage_asked_in_a_question_is_not(follow):
    read = follow("number of flights by carrier from EWR", "as a %")
    assert read.edited.intent.share_of_total and read.edited.intent.filters[0].values == ["EWR"]
    assert not refers_back("percentage of flights cancelled by month")


def test_the_rows_noun_per_a_thing_counts_them_afresh(follow):
    read = follow("cancelled flights by month", "flights per carrier from ewr")
    assert read.fresh


def test_going_back_is_a_follow_up_with_the_rest_of_its_words():
    from agent.semantic.nlq.dialogue_cues import going_back

    assert refers_back("go back to the previous one")
    assert going_back("go back to the previous one, by month") == ", by month"
    assert going_back("by month") is None


def test_a_value_of_two_filtered_dimensions_is_asked_with_those_two_as_the_meanings(follow):
    read = follow("number of flights from JFK to BOS", "what about LGA")
    assert read.edited is None and not read.fresh
    assert [sorted(a.options) for a in read.extraction.ambiguous] == [["dest", "origin"]]


def test_a_value_of_two_filtered_dimensions_decided_by_its_own_words_is_not_asked(follow):
    read = follow("number of flights from JFK to BOS", "what about from LGA")
    assert [(f.field, f.values) for f in read.edited.intent.filters] == [("dest", ["BOS"]), ("origin", ["LGA"])]



def test_a_word_said_alone_in_place_of_one_word_of_the_measures_name(follow):
    read = follow("median departure delay by origin", "no, arrival")
    assert read.edited.intent.metrics == ["median_arr_delay"] and read.edited.intent.dimensions == ["origin"]


def test_asking_to_split_or_see_all_of_them_is_an_edit(follow):
    split = follow("average arrival delay for Southwest", "can u split by origin")
    assert split.edited.intent.dimensions == ["origin"] and split.edited.intent.filters[0].values == ["WN"]
    every = follow("top 3 carriers by average air time", "show all of them")
    assert every.edited.intent.limit is None and not every.over_rows


def test_a_value_said_with_too_or_add_is_set_beside_the_old_one(follow):
    for said in ("lga too", "add lga", "lga side by side"):
        read = follow("number of flights from JFK by carrier", said)
        assert read.edited is not None, said
        assert read.edited.intent.filters[0].values == ["JFK", "LGA"], said
        assert read.edited.intent.dimensions == ["origin", "carrier"], said


def test_a_month_said_with_too_is_compared(follow):
    read = follow("number of flights from LGA in January", "february too")
    assert read.edited.intent.time.months == [1, 2] and read.edited.intent.dimensions == ["month"]


def test_a_new_grouping_after_a_comparison_splits_both_sides(model, values, follow):
    compared = follow("number of flights from LGA in January", "compare with february").edited.intent
    read = read_follow_up(compared, "by carrier", model, values)
    assert read.edited.intent.dimensions == ["month", "carrier"] and read.edited.intent.time.months == [1, 2]
    read = read_follow_up(compared, "by carrier instead", model, values)
    assert read.edited.intent.dimensions == ["carrier"]
    # a window of months grouped by month is no comparison: the new grouping replaces it
    read = follow("flights from JFK by month in summer", "by carrier")
    assert read.edited.intent.dimensions == ["carrier"]


def test_arrivals_after_departures_swaps_the_airport_grouping(follow):
    read = follow("number of flights by origin in april", "same for arrivals, top 5")
    assert read.edited.intent.dimensions == ["dest"] and read.edited.intent.limit == 5
    assert read.edited.intent.time.months == [4]
    read = follow("number of flights by destination in april", "and departures?")
    assert read.edited.intent.dimensions == ["origin"]


def test_a_slip_word_before_a_correction_is_only_a_lead_in():
    for said in ("oops i meant delta", "nvm, by carrier", "my bad, for LGA"):
        assert refers_back(said), said


def test_u_for_you_is_read_as_nothing(ask):
    found = ask("can u show the number of flights per carrier")
    assert found.intent is not None and found.intent.dimensions == ["carrier"] and not found.ignored_words


def test_a_year_alone_on_a_table_without_dates_is_the_year_the_reading_compares(follow):
    read = follow("avg number of seats on planes built after 2000 by manufacturer", "what about before 1990")
    assert read.edited is not None and read.edited.intent.time is None
    assert [(f.field, f.op, f.values) for f in read.edited.intent.filters] == [("plane_year", "<", [1990])]


def test_put_a_value_next_to_it_compares(follow):
    read = follow("how many flights did alaska airlines operate", "put hawaiian next to it")
    assert read.edited.intent.filters[0].values == ["AS", "HA"] and read.edited.intent.dimensions == ["carrier"]


def test_another_measure_named_alone_keeps_the_previous_aggregation(follow):
    read = follow("median departure delay for delta out of jfk", "no, I meant arrival delay")
    assert read.edited.intent.metrics == ["median_arr_delay"]
    assert read.edited.changes == ["median arrival delay instead of median departure delay"]
    read = follow("median departure delay for delta out of jfk", "the longest arrival delay instead")
    assert read.edited.intent.metrics == ["max_arr_delay"]  # an aggregation of its own is kept


def test_there_keeps_the_words_of_the_measure_that_name_the_place_too(follow):
    read = follow("which destination from jfk had the most flights in may", "avg arrival delay there?")
    assert read.edited.intent.metrics == ["avg_arr_delay"]


def test_a_number_alone_is_the_new_bound_of_the_number_compared(follow):
    read = follow("how many planes have more than 300 seats", "make it 200")
    assert [(f.field, f.op, f.values) for f in read.edited.intent.filters] == [("seats", ">", [200])]


def test_two_add_words_together_still_set_the_value_beside(follow):
    read = follow("total miles flown by month for united", "add american as well")
    assert read.edited.intent.filters[0].values == ["UA", "AA"] and "carrier" in read.edited.intent.dimensions


def test_a_grouping_alone_names_no_measure_but_the_rows_noun_does(model):
    from agent.semantic.nlq.follow_up import names_no_measure

    by_month = StructuredIntent(metrics=["flight_count"], dimensions=["month"])
    assert names_no_measure(by_month, "per month", model)
    assert not names_no_measure(by_month, "flights per month", model)
    assert not names_no_measure(by_month, "how many per month", model)


@pytest.mark.parametrize("first, message, metric", [
    ("what was the highest temperature at lga", "and the lowest", "min_temp"),
    ("what was the hottest temperature at lga", "and the coldest", "min_temp"),
    ("what was the coldest temperature at jfk", "and the hottest?", "max_temp"),
])
def test_the_other_extreme_of_one_value(follow, first, message, metric):
    read = follow(first, message)
    assert read.edited is not None and read.edited.intent.metrics == [metric], read
    assert read.edited.intent.limit is None and read.edited.intent.filters == [f for f in read.edited.intent.filters if f.field == "origin"]


def test_a_measures_own_adjective_alone_ranks_its_groups(follow):
    read = follow("average temperature by month at jfk", "the coldest")
    assert read.edited is not None and read.edited.intent.metrics == ["avg_temp"] and read.edited.intent.limit == 1
    assert [(o.field, o.descending) for o in read.edited.intent.order_by] == [("avg_temp", False)]


def test_a_measures_last_word_alone_is_the_measure_the_thread_has_been_using(follow):
    """'delay' names the departure delay in a fresh question; after average arrival delay it is the arrival delay,
    while 'dep delay' said in full keeps its own."""
    def metrics(read):  # an edit of the reading, or a question of its own
        return (read.edited.intent if read.edited is not None else read.extraction.intent).metrics

    assert metrics(follow("average arrival delay by carrier", "and the biggest single delay per carrier")) \
        == ["max_arr_delay"]
    assert metrics(follow("average arrival delay by carrier", "max dep delay per carrier")) == ["max_dep_delay"]
    assert metrics(follow("average departure delay by carrier", "and the biggest single delay per carrier")) \
        == ["max_dep_delay"]


def test_a_share_said_with_a_verb_alone_is_of_the_previous_answers_rows(follow):
    """'what % touch down late?' after average arrival delay by carrier: the share of those flights, by carrier."""
    read = follow("average arrival delay by carrier", "what % touch down late?")
    intent = read.edited.intent
    assert intent.contrast is not None and intent.contrast.kind == "share" and intent.dimensions == ["carrier"]
    assert [f.field for f in intent.contrast.first.filters] == ["arr_delay"]


def test_another_measure_after_a_share_replaces_the_share(follow, model, values):
    """'what share of them were cancelled' after 'what % of them left late': the cancellation rate is computed,
    not the share said before under the new measure's name."""
    share = follow("flights from jfk by carrier", "what % of them left late").edited.intent
    read = read_follow_up(share, "what share of them were cancelled", model, values)
    intent = read.edited.intent
    assert intent.contrast is None and intent.metrics == ["cancellation_rate"], intent
    assert not any(f.op == "not_null" and f.field == "dep_delay" for f in intent.filters), intent.filters
    assert "instead of the share" in read.edited.changes[0]


def test_a_new_measure_of_the_same_groups_keeps_the_threads_rows(follow):
    """'biggest single delay per carrier' after arrival delay by carrier to DEN: the same groups, no condition of
    its own, so the thread's rows (DEN) and its delay (arrival) are kept; a condition of its own starts afresh."""
    read = follow("average arrival delay by carrier for flights to denver", "biggest single delay per carrier")
    assert read.edited is not None and read.edited.intent.metrics == ["max_arr_delay"]
    assert [(f.field, f.values) for f in read.edited.intent.filters] == [("dest", ["DEN"])]
    fresh = follow("average arrival delay by carrier for flights to denver", "biggest departure delay per carrier at jfk")
    assert fresh.fresh and fresh.extraction is not None
    assert [(f.field, f.values) for f in fresh.extraction.intent.filters] == [("origin", ["JFK"])]


def test_the_delay_of_a_share_said_alone_is_the_shares_own(follow, model, values):
    """After 'what % touch down late' (a share whose condition is on the arrival delay), 'delay' alone is that one."""
    share = follow("flights to denver by carrier", "what % touch down late?")
    assert share.edited is not None and share.edited.intent.contrast is not None
    read = read_follow_up(share.edited.intent, "biggest single delay per carrier", model, values)
    assert read.edited is not None and read.edited.intent.metrics == ["max_arr_delay"], read


def test_a_value_alone_after_two_measures_keeps_both(ask, model, values):
    previous = ask("number of flights and avg dep delay by carrier").intent
    followed = read_follow_up(previous, "just lga", model, values)
    # 'lga' of the origin or the destination is asked, never read as 'lga departure delay' alone
    assert followed.edited is None and followed.extraction is not None and followed.extraction.ambiguous
