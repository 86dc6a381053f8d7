"""Whole conversations through the offline model: the product with no LLM key."""

from __future__ import annotations

import itertools

import pytest

_sessions = itertools.count()


@pytest.fixture
def session():
    return f"conv-{next(_sessions)}"


async def ask(assistant, session, text, *, confirm=True):
    reply = await assistant.reply(assistant.ask(session, text))
    if confirm and reply.ask_human and reply.ask_human.kind == "confirm_sql":
        reply = await assistant.reply(assistant.resume(session, "run"))
    return reply


async def test_question_then_follow_up_by_month(offline_assistant, session):
    first = await ask(offline_assistant, session, "average departure delay at JFK")
    assert first.error is None and first.row_count == 1
    second = await ask(offline_assistant, session, "now by month")
    assert second.row_count == 12 and "JFK" in second.sql
    assert second.chart is not None and second.chart.spec.kind == "line"
    assert second.chart.png is None  # drawn once the answer is out, on request
    drawn = await offline_assistant.draw_chart(second)
    assert drawn is not None and drawn.png.startswith(b"\x89PNG")


async def test_follow_up_replaces_the_filter_it_names(offline_assistant, session):
    ewr = await ask(offline_assistant, session, "How many flights departed from Newark in March?")
    jfk = await ask(offline_assistant, session, "what about JFK")
    assert "'JFK'" in jfk.sql and "'EWR'" not in jfk.sql
    assert ewr.rows != jfk.rows


async def test_reply_carries_answer_sql_preview_chart_and_follow_ups(offline_assistant, session):
    reply = await ask(offline_assistant, session, "Number of flights by carrier name")
    assert reply.row_count == 16 and len(reply.rows) == 16
    assert reply.chart.spec.kind == "bar" and len(reply.follow_ups) == 3
    assert "United" in reply.text
    assert reply.tools == ["data_discovery", "generate_sql", "execute_sql_and_analyze_result"]


async def test_unknown_value_is_reported_not_dropped(offline_assistant, session):
    reply = await ask(offline_assistant, session, "How many flights did carrier ZZ fly in May?")
    assert "ZZ" in reply.text and reply.sql is None


async def test_missing_data_says_what_exists(offline_assistant, session):
    reply = await ask(offline_assistant, session, "What is the average ticket price by airline?")
    assert "don't have" in reply.text and "flights" in reply.text and reply.sql is None


async def test_missing_data_beside_words_of_several_tables_is_said_not_a_table_choice(offline_assistant, session):
    """'jfk to lax' matches the flights and the airports; the prices are in neither: said, nothing to choose."""
    reply = await ask(offline_assistant, session, "avg ticket price jfk to lax?")
    assert reply.ask_human is None and "ticket prices" in reply.text and reply.sql is None, reply.text


async def test_pasted_broken_sql_is_fixed_not_answered(offline_assistant, session):
    reply = await ask(offline_assistant, session, "SELECT carrier, avg(dep_delay FROM flights GROUP BY carrier")
    assert reply.tools == ["fix_sql"] and reply.error is None and "avg(dep_delay)" in reply.sql.lower().replace(" ", "")


async def test_pasted_working_sql_is_explained(offline_assistant, session):
    reply = await ask(offline_assistant, session, "SELECT origin, count(*) FROM flights GROUP BY origin")
    assert reply.tools == ["explain_sql"] and "flights" in reply.text
    # The explanation adds what the SQL does not say: count(*) in words, the column's catalog meaning.
    text = reply.text.lower()
    assert "each origin" in text and "number of" in text and "departure airport" in text


async def test_bad_input_gets_clear_replies(offline_assistant, session):
    empty = await ask(offline_assistant, session, "   ")
    assert empty.error is None and "data question" in empty.text
    nonsense = await ask(offline_assistant, session, "qwpoeiru zmxncb")
    assert nonsense.tools == ["reject_out_of_scope"] and nonsense.text
    poem = await ask(offline_assistant, session, "write me a poem about autumn")
    assert poem.tools == ["reject_out_of_scope"]
    after = await ask(offline_assistant, session, "How many planes have more than 200 seats?")
    assert after.error is None and after.row_count == 1


async def test_sql_only_request_shows_sql_without_running(offline_assistant, session):
    reply = await ask(offline_assistant, session, "write me the SQL for average arrival delay by destination")
    assert reply.sql and "arr_delay" in reply.sql and reply.rows == [] and reply.ask_human is None
    ran = await ask(offline_assistant, session, "run it")
    assert ran.row_count > 100


async def test_new_question_while_confirmation_pending_starts_over(offline_assistant, session):
    pending = await ask(offline_assistant, session, "flights per origin", confirm=False)
    assert pending.ask_human.kind == "confirm_sql"
    other = await ask(offline_assistant, session, "What is the longest flight distance?")
    assert other.rows == [[4983]]


async def test_glossary_and_log_questions(offline_assistant, session):
    term = await ask(offline_assistant, session, "what is a cancelled flight?")
    assert "dep_time" in term.text
    logs = await ask(offline_assistant, session, "show me error logs for the checkout service")
    assert '{app="checkout"}' in logs.text


async def test_ambiguous_question_asks_and_the_answer_settles_it(offline_assistant, session):
    asked = await ask(offline_assistant, session, "number of flights by airport")
    assert asked.ask_human.kind == "clarify" and len(asked.ask_human.options) >= 2
    origin = next(o.value for o in asked.ask_human.options if "origin" in o.value)
    confirm = await offline_assistant.reply(offline_assistant.resume(session, origin))
    assert confirm.ask_human.kind == "confirm_sql" and "origin" in confirm.sql
    answer = await offline_assistant.reply(offline_assistant.resume(session, "run"))
    assert answer.row_count == 3


async def test_a_row_of_the_previous_answer_by_its_place(offline_assistant, session):
    await ask(offline_assistant, session, "top 5 destinations from jfk by avg air time")
    last = await ask(offline_assistant, session, "how many flights went to the last one on that list")
    assert last.rows == [["SMF", 284]] and "SMF" in last.text
    airlines = await ask(offline_assistant, session, "which airlines fly it")
    assert [row[:2] for row in airlines.rows] == [["B6", "JetBlue Airways"]]  # the code beside its name


async def test_the_second_one_of_a_ranking(offline_assistant, session):
    await ask(offline_assistant, session, "bottom 5 carriers by number of flights out of ewr")
    second = await ask(offline_assistant, session, "whats the full name of the 2nd one")
    assert [row[0] for row in second.rows] == ["Alaska Airlines Inc."]


async def test_a_row_named_first_then_asked_about(offline_assistant, session):
    """'the 2nd one, who flies there': the row, then a question of its own about it."""
    await ask(offline_assistant, session, "biggest destinations from nyc? top 5 by # of flights")
    carriers = await ask(offline_assistant, session, "the 2nd one, who flies there")
    assert "ATL" in carriers.text and ["DL", 10571] in [row[:2] for row in carriers.rows], carriers.text


async def test_a_place_in_a_list_too_long_to_keep_is_its_ranking_or_said_not_all_of_it(offline_assistant, session):
    """A ranking too long to keep whole still knows its first rows ('the 2nd busiest' of 97 routes); a long
    list in no order knows no place, and says so."""
    await ask(offline_assistant, session, "top 5 routes by number of flights")
    second = await ask(offline_assistant, session, "whats the 2nd busiest")
    assert second.rows == [["LGA-ATL", 10263]]
    await ask(offline_assistant, session, "how many routes out of nyc had more than 1000 flights")
    listed = await ask(offline_assistant, session, "full list pls")
    assert len(listed.rows) == 97 and listed.rows[0] == ["JFK-LAX", 11262]
    picked = await ask(offline_assistant, session, "whats the 2nd busiest")
    assert picked.rows == [["LGA-ATL", 10263]], picked.text
    per_day = await ask(offline_assistant, session, "avg per day on that one")  # the row picked, per day
    assert per_day.rows is not None and round(per_day.rows[0][-1], 2) == round(10263 / 365, 2), per_day.text
    await ask(offline_assistant, session, "number of flights per tail number")
    unplaced = await ask(offline_assistant, session, "the 2nd one")
    assert not unplaced.rows and "too many rows" in unplaced.text


async def test_it_doing_something_is_the_one_thing_of_the_previous_answer(offline_assistant, session):
    """'which routes did it fly': the busiest plane, with the message's own top 3; after five planes, 'it' could
    be any of them and is asked about."""
    await ask(offline_assistant, session, "which plane flew the most flights")
    routes = await ask(offline_assistant, session, "which routes did it fly most, top 3")
    assert routes.rows == [["LGA-RDU", 173], ["LGA-CMH", 126], ["LGA-DTW", 100]], routes.text
    await ask(offline_assistant, session, "which planes flew the most flights? top 5 tail numbers")
    unsure = await ask(offline_assistant, session, "which routes did it fly most, top 3")
    assert not unsure.rows and "stands for one thing" in unsure.text


async def test_those_three_are_the_three_an_earlier_answer_showed(offline_assistant, session):
    """'just those 3 carriers' after every carrier's delay: the three of the answer before it, by their number."""
    await ask(offline_assistant, session, "which 3 airlines flew the most flights")
    await ask(offline_assistant, session, "avg arr delay by airline")
    three = await ask(offline_assistant, session, "just those 3 carriers")
    assert sorted(row[0] for row in three.rows) == ["B6", "EV", "UA"], three.text
    worst = await ask(offline_assistant, session, "which of them was worst")
    assert [row[0] for row in worst.rows] == ["EV"]
    unknown = await ask(offline_assistant, session, "monthly for those 2")  # no answer showed two of them
    assert not unknown.rows and "showed 2 of them" in unknown.text


async def test_a_city_with_several_airports_is_asked_and_both_can_be_taken(offline_assistant, session):
    asked = await ask(offline_assistant, session, "how many flights to houston")
    assert asked.ask_human is not None and len(asked.ask_human.options) == 2  # IAH and HOU, never one in silence
    both = await ask(offline_assistant, session, "both pls")
    assert both.rows == [[9313]]
    split = await ask(offline_assistant, session, "split by airport")  # the destinations the thread is about
    assert sorted(split.rows) == [["HOU", 2115], ["IAH", 7198]]


async def test_an_answer_taking_every_option_with_more_to_say(offline_assistant, session):
    await ask(offline_assistant, session, "how many flights to houston")
    split = await ask(offline_assistant, session, "both pls, split by airport")
    assert sorted(split.rows) == [["HOU", 2115], ["IAH", 7198]]


async def test_after_a_topic_the_data_lacks_the_measure_named_anew_keeps_the_rest(offline_assistant, session):
    declined = await ask(offline_assistant, session, "how many passengers did jetblue fly out of jfk")
    assert not declined.rows and "passengers" in declined.text
    flights = await ask(offline_assistant, session, "ok then just the number of flights")
    assert flights.rows == [[42076]] and "passengers" in flights.text  # B6 out of JFK; what was left out is said


async def test_the_measure_named_anew_replaces_the_aggregation_said_of_the_lacking_topic(offline_assistant, session):
    declined = await ask(offline_assistant, session, "avg ticket price jfk to lax by airline?")
    assert not declined.rows and "ticket prices" in declined.text
    flights = await ask(offline_assistant, session, "ok fine, number of flights then")  # 'avg' went with 'ticket price'
    assert flights.columns == ["carrier", "flight_count"] and "'JFK'" in flights.sql and "'LAX'" in flights.sql
    # the topic the first message lacked refuses nothing later: the next message is read on its own
    seats = await ask(offline_assistant, session, "how many seats did each of them put on that route")
    assert "ticket prices" not in seats.text


async def test_after_a_question_asked_back_nothing_of_it_leaks(offline_assistant, session):
    await ask(offline_assistant, session, "avg mph of each airline")  # 'mph': asked about, not refused
    again = await ask(offline_assistant, session, "and avg temp")
    assert not again.rows


async def test_a_typed_name_with_an_apostrophe_answers_and_the_thread_edits_the_answered_question(
        offline_assistant, session):
    asked = await ask(offline_assistant, session, "flights laguardia to chicago?")
    assert asked.ask_human is not None and asked.ask_human.kind == "clarify"
    ohare = await ask(offline_assistant, session, "o'hare")  # 'ohare' of 'chicago ohare intl' is no slip for 'share'
    assert "'LGA'" in ohare.sql and "'ORD'" in ohare.sql
    by_carrier = await ask(offline_assistant, session, "per operator")  # the question as answered, not re-asked
    assert by_carrier.ask_human is None and "'ORD'" in by_carrier.sql and "carrier" in by_carrier.sql
    midway = await ask(offline_assistant, session, "now midway")  # a word of one airport's name only
    assert "'MDW'" in midway.sql and "'ORD'" not in midway.sql and "'LGA'" in midway.sql


async def test_a_value_named_after_a_word_that_could_not_be_placed_takes_its_place(offline_assistant, session):
    first = await ask(offline_assistant, session, "how many newark to dc flights per month")
    assert first.sql is None and "dc" in first.text
    dulles = await ask(offline_assistant, session, "dulles")
    assert "'EWR'" in dulles.sql and "'IAD'" in dulles.sql and dulles.row_count == 12
    assert "“dulles” for “dc”" in dulles.text


async def test_add_a_measure_beside_the_first(offline_assistant, session):
    await ask(offline_assistant, session, "avg wind speed at jfk, january vs july")
    both = await ask(offline_assistant, session, "add humidity")
    assert len(both.columns) == 3 and "also average humidity" in both.text


async def test_a_measure_said_with_a_compare_word_is_set_beside_the_first(offline_assistant, session):
    await ask(offline_assistant, session, "median dep delay by airline")
    both = await ask(offline_assistant, session, "put the avg next to it")  # not the median replaced
    assert both.columns == ["carrier", "median_dep_delay", "avg_dep_delay"], both.text
    assert "also average departure delay" in both.text


async def test_how_a_condition_was_decided_is_explained_with_its_threshold(offline_assistant, session):
    await ask(offline_assistant, session, "how many flights left jfk over an hour late, per airline")
    why = await ask(offline_assistant, session, "how did you decide what counts as late?")
    assert "60" in why.text and "__q0" not in why.text


async def test_a_value_typed_for_the_word_asked_about_takes_its_place(offline_assistant, session):
    asked = await ask(offline_assistant, session, "average arrival delay of flights to gotham")
    assert asked.ask_human is not None and asked.ask_human.term == "gotham"
    vegas = await ask(offline_assistant, session, "las vegas")
    assert "'LAS'" in vegas.sql and "arr_delay" in vegas.sql


async def test_rows_said_late_are_those_with_a_delay_above_zero(offline_assistant, session):
    share = await ask(offline_assistant, session, "what % of flights to denver arrived late?")
    assert "arr_delay" in share.sql and "> 0" in share.sql and "'DEN'" in share.sql and share.row_count == 1
    amount = await ask(offline_assistant, session, "how late are departures from jfk on average")
    assert "AVG" in amount.sql.upper() and "> 0" not in amount.sql  # 'how late' asks the amount


async def test_the_biggest_single_delay_is_the_largest_one(offline_assistant, session):
    reply = await ask(offline_assistant, session, "biggest single delay per carrier")
    assert "MAX(" in reply.sql.upper() and "AVG(" not in reply.sql.upper()


async def test_a_fragment_after_a_question_not_answered_is_not_answered_alone(offline_assistant, session):
    first = await ask(offline_assistant, session, "how bumpy are departures from the nyc airports on average?")
    assert first.sql is None  # 'bumpy' is nothing the data measures: asked back
    fragment = await ask(offline_assistant, session, "july only")
    assert fragment.sql is None and "no earlier answer" in fragment.text


async def test_a_question_about_the_unit_is_answered_from_the_reading(offline_assistant, session):
    await ask(offline_assistant, session, "average arrival delay to denver by carrier")
    unit = await ask(offline_assistant, session, "is that in minutes?")
    assert "(in minutes)" in unit.text and "__q0" not in unit.text


async def test_it_after_the_one_busiest_thing_is_that_thing(offline_assistant, session):
    await ask(offline_assistant, session, "which plane model racked up the most flights?")
    carriers = await ask(offline_assistant, session, "which carriers fly it")
    assert "A320-232" in carriers.sql and carriers.row_count > 1


async def test_that_one_after_the_one_busiest_thing_is_that_thing(offline_assistant, session):
    await ask(offline_assistant, session, "which plane logged the most miles overall")
    model = await ask(offline_assistant, session, "what model is that one")
    assert "'N328AA'" in model.sql and model.rows == [["767-223", 939101]]


async def test_that_month_after_the_one_wettest_month_is_that_month(offline_assistant, session):
    """A period is pointed at by its own name ('that month'): its value, no longer a grouping to rank."""
    await ask(offline_assistant, session, "which month had the most total rainfall at jfk")
    june = await ask(offline_assistant, session, "avg dep delay of jfk departures that month")
    assert "= 6" in june.sql and june.row_count == 1 and round(june.rows[0][-1], 2) == 20.5


async def test_things_per_group_with_a_measure_are_counted_beside_it_then_ranked_by_either(offline_assistant, session):
    """'december flights … per destination with avg arrival delay': the flights counted and the delay, per
    destination; 'top 10 by number of flights' ranks by the count and keeps the delay ('flights with a delay
    over 30' is a condition, no second measure)."""
    both = await ask(offline_assistant, session,
                     "december flights out of jfk per destination with avg arrival delay")
    assert both.columns == ["dest", "flight_count", "avg_arr_delay"]
    top = await ask(offline_assistant, session, "top 10 by number of flights")
    assert top.columns == both.columns and top.row_count == 10
    assert [row[1] for row in top.rows] == sorted((row[1] for row in both.rows), reverse=True)[:10]


async def test_the_last_row_of_a_ranking_is_that_row(offline_assistant, session):
    await ask(offline_assistant, session, "jetblue avg air time out of jfk by destination, longest first")
    await ask(offline_assistant, session, "just the top 5")
    last = await ask(offline_assistant, session, "the last row - how many flights did they run there")
    assert "'BUR'" in last.sql and last.row_count == 1


async def test_sql_first_then_fire_it_off_then_the_lowest_of_a_share(offline_assistant, session):
    sql = await ask(offline_assistant, session, "sql first pls, no results yet: "
                                                "% of feb jfk departures leaving 30+ min late, per scheduled hour",
                    confirm=False)
    assert sql.text.startswith("Here is the SQL") and ">= 30" in sql.sql and not sql.rows
    ran = await ask(offline_assistant, session, "ok fire it off")
    assert ran.rows is not None and ran.row_count > 3
    lowest = await ask(offline_assistant, session, "lowest 3 hours")
    shares = [row[1] for row in lowest.rows]
    assert len(shares) == 3 and shares == sorted(shares) and shares[0] <= min(r[1] for r in ran.rows)


async def test_a_clock_time_or_later_and_the_rows_a_measure_is_of(offline_assistant, session):
    reply = await ask(offline_assistant, session, "avg dep delay per carrier code for departures scheduled 6pm or later")
    assert "hour" in reply.sql and "18" in reply.sql and "COUNT(" not in reply.sql.upper()
    assert len(reply.columns) == 2


async def test_a_rephrased_column_phrase_and_the_rows_named_as_a_place(offline_assistant, session):
    tardy = await ask(offline_assistant, session, "how tardy are departures from the nyc airports on average?")
    assert tardy.columns is not None and len(tardy.columns) == 1 and "AVG(" in tardy.sql.upper()  # no grouping
    july = await ask(offline_assistant, session, "july only")
    assert "month" in july.sql and july.row_count == 1
    landed = await ask(offline_assistant, session, "what % of flights to denver touch down late?")
    assert "arr_delay" in landed.sql and "'DEN'" in landed.sql and landed.row_count == 1


async def test_a_fragment_after_a_count_of_hours_edits_that_count(offline_assistant, session):
    # 'how many hours …' counts the weather's hours, not flights: 'jfk by month' is that count at JFK by month,
    # never a count of flights by default
    first = await ask(offline_assistant, session, "how many hours had visibility under a mile at each airport")
    assert sorted(map(tuple, first.rows)) == [("EWR", 96), ("JFK", 193), ("LGA", 90)]
    second = await ask(offline_assistant, session, "jfk by month")
    assert "weather" in second.sql.lower() and "'JFK'" in second.sql and sum(r[-1] for r in second.rows) == 193


async def test_a_reply_in_parts_naming_another_value_answers_the_question(offline_assistant, session):
    asked = await ask(offline_assistant, session, "how many flights went to washington")
    assert asked.ask_human is not None and asked.ask_human.kind == "clarify"
    seattle = await ask(offline_assistant, session, "washington state. seattle")  # none of the buttons: its value
    assert "'SEA'" in seattle.sql and seattle.row_count == 1
    by_airline = await ask(offline_assistant, session, "by airline pls")
    assert "'SEA'" in by_airline.sql and "carrier" in by_airline.sql


async def test_a_fragment_after_an_unanswered_question_with_no_value_is_not_read_alone(offline_assistant, session):
    await ask(offline_assistant, session, "how many flights went to portland")
    await ask(offline_assistant, session, "the maine one")  # no airport says Maine: the question is dropped
    by_carrier = await ask(offline_assistant, session, "by carrier")
    assert not by_carrier.rows and "no earlier answer" in (by_carrier.text or "")


async def test_a_place_said_in_a_role_that_never_holds_it_is_said_not_moved(offline_assistant, session):
    reply = await ask(offline_assistant, session, "flights from boston")  # BOS is only ever a destination
    assert reply.sql is None and "origin airport" in reply.text and "EWR, JFK, LGA" in reply.text


async def test_going_back_to_an_earlier_reading_named_by_its_value(offline_assistant, session):
    """'go back to the jfk one' two turns later edits the JFK reading, not the LGA one before it."""
    await ask(offline_assistant, session, "how many flights left jfk in q3")
    await ask(offline_assistant, session, "and lga")
    back = await ask(offline_assistant, session, "go back to the jfk one n split it by airline")
    assert back.error is None and "'JFK'" in back.sql and "'LGA'" not in back.sql and back.row_count == 10, back.text
    assert back.text.startswith("Read as: Back to the jfk one; by carrier."), back.text
    nothing = await ask(offline_assistant, session, "go back to the boston one")
    assert nothing.rows is None or not nothing.rows, nothing.text
    assert "could not tell which earlier answer" in nothing.text, nothing.text


async def test_same_for_another_value_after_a_share_changes_the_shares_own_condition(offline_assistant, session):
    """'same for united' after Delta's share of the late flights: United's share, never Delta's and United's at
    once (which no flight is, 0%)."""
    await ask(offline_assistant, session, "how many late flights did delta have in july")
    await ask(offline_assistant, session, "as a % of all of them")
    united = await ask(offline_assistant, session, "same for united")
    assert united.error is None and "'UA'" in united.sql and "'DL'" not in united.sql, united.text
    assert "UA instead of DL" in united.text and united.rows[0][0] > 0, united.text


async def test_as_a_percent_of_each_groups_own_rows_is_each_groups_rate(offline_assistant, session):
    """'as a % of each airline's flights' after the flights that left early: each airline's own share of
    early departures (Hawaiian's 3 in 4), never its share of all early departures."""
    await ask(offline_assistant, session, "how many flights left early in 2013")
    rates = await ask(offline_assistant, session, "whats that as a % of each airlines flights")
    assert rates.error is None and rates.row_count == 16, rates.text
    by_carrier = {row[0]: row[-1] for row in rates.rows}
    assert 75 < by_carrier["HA"] < 76 and sum(by_carrier.values()) > 100, rates.text


async def test_a_list_of_values_answering_what_a_follow_ups_word_means_keeps_every_value(offline_assistant, session):
    """'just the regional carriers' is asked about; 'envoy, expressjet and endeavor' says it: the three
    carriers of the answer before, never the first one alone."""
    await ask(offline_assistant, session, "avg air time per flight by airline")
    asked = await ask(offline_assistant, session, "just the regional carriers")
    assert asked.ask_human is not None and "regional" in asked.ask_human.question, asked.text
    three = await ask(offline_assistant, session, "envoy, expressjet and endeavor")
    assert three.error is None and sorted(row[0] for row in three.rows) == ["9E", "EV", "MQ"], three.text


async def test_the_top_one_each_of_them_is_kept_per_thing_of_the_answer_before(offline_assistant, session):
    """'whats the longest route each of them flies' after three carriers: each carrier's longest route, one row
    per carrier, never the one longest route of the three."""
    await ask(offline_assistant, session, "avg air time by airline for envoy, expressjet and endeavor")
    longest = await ask(offline_assistant, session, "whats the longest route each of them flies")
    assert longest.error is None and sorted(row[0] for row in longest.rows) == ["9E", "EV", "MQ"], longest.text
    assert "top 1 per carrier" in longest.text, longest.text


async def test_a_pointer_right_after_an_unanswered_question_is_not_read_against_the_answer_before(offline_assistant,
                                                                                                 session):
    """'avg arr delay for those' after 'just the pacific tz ones' was refused: 'those' are the refused
    question's things, never the time zones answered before it."""
    await ask(offline_assistant, session, "flights per destination time zone")
    refused = await ask(offline_assistant, session, "ok then just the pacific tz ones, by airport")
    assert not refused.rows, refused.text
    those = await ask(offline_assistant, session, "avg arr delay for those")
    assert not those.rows and "did not answer your last question" in those.text, those.text


async def test_a_follow_up_that_changes_nothing_the_reader_can_tell_is_not_answered_again(offline_assistant, session):
    """'what flies it' after the busiest route: read with the last question it gives the same reading, so the
    same number would answer another question; it is said instead, with what to try. 'who flies it' asks for
    the carriers (the flights' own column naming companies), as 'which airlines fly it' does."""
    await ask(offline_assistant, session, "busiest route in q2")
    again = await ask(offline_assistant, session, "what flies it")
    assert not again.rows and "could not tell what “what flies it” changes" in again.text, again.text
    for said in ("which airlines fly it", "who flies it"):
        carriers = await ask(offline_assistant, session, said)
        assert carriers.error is None and carriers.row_count == 5, carriers.text


async def test_an_edit_right_after_an_unanswered_question_is_asked_about(offline_assistant, session):
    # 'top 3 only' edits the question that was not answered, never the answer before it
    first = await ask(offline_assistant, session, "avg dep delay by carrier")
    assert first.rows
    unread = await ask(offline_assistant, session, "which of them fly the most to the moon base")
    assert not unread.rows
    edit = await ask(offline_assistant, session, "top 3 only")
    assert not edit.rows and "did not answer your last question" in (edit.text or "")


async def test_taking_the_reply_goes_on_from_the_answer_before(offline_assistant, session):
    first = await ask(offline_assistant, session, "avg dep delay by carrier")
    assert first.rows
    await ask(offline_assistant, session, "which of them fly the most to the moon base")
    edit = await ask(offline_assistant, session, "ok, just the top 3 then")
    assert edit.rows is not None and len(edit.rows) == 3


async def test_for_each_with_nothing_before_it_to_point_at_is_asked_about(offline_assistant, session):
    """'for each' points at the previous answer's rows: with none (the question before was not answered) the
    message is asked about, not answered as one figure over everything."""
    unread = await ask(offline_assistant, session, "which flights landed on the moon base")
    assert not unread.rows
    each = await ask(offline_assistant, session, "avg arr delay for each")
    assert not each.rows and "no earlier answer" in (each.text or ""), each.text


async def test_a_share_regrouped_by_the_scheduled_hour_stays_that_share(offline_assistant, session):
    # 'hour' is the scheduled departure hour: 'by sched hour of day' edits the share of all flights, never
    # re-reads it as a share of only the flights with a delay
    await ask(offline_assistant, session, "how many flights left more than an hour late")
    share = await ask(offline_assistant, session, "what % is that")
    by_hour = await ask(offline_assistant, session, "by sched hour of day")
    assert by_hour.rows and "Same as before" in (by_hour.text or "") and "is known" not in (by_hour.text or ""), by_hour.text
    assert share.rows and abs(share.rows[0][-1] - 7.89) < 0.01


async def test_per_each_of_the_things_just_counted_divides_by_that_count(offline_assistant, session):
    # 'flights per plane' after a count of planes per airline: each airline's flights over its planes, not a
    # grouping by plane; without that count before it, 'flights per plane' stays a grouping by plane
    planes = await ask(offline_assistant, session, "how many different planes did each airline use")
    assert planes.rows and planes.columns == ["carrier", "distinct_planes"], planes.text
    per_plane = await ask(offline_assistant, session, "flights per plane instead")
    assert per_plane.columns == ["carrier", "flight_count_per_distinct_planes"], per_plane.text
    jetblue = next(row for row in per_plane.rows if row[0] == "B6")
    assert abs(jetblue[1] - 283.08) < 0.01 and "tail number is known" in per_plane.text, per_plane.text
    top = await ask(offline_assistant, session, "top 3")
    assert [row[0] for row in top.rows] == ["B6", "EV", "MQ"], top.rows
    assert "JetBlue Airways (B6) has the highest flights per plane" in top.text, top.text
    await ask(offline_assistant, session + "-delays", "avg dep delay by carrier")
    by_plane = await ask(offline_assistant, session + "-delays", "flights per plane instead")
    assert by_plane.columns == ["tailnum", "flight_count"], by_plane.text


async def test_a_ranking_by_the_second_measure_is_written_up_by_it(offline_assistant, session):
    await ask(offline_assistant, session, "how many different planes did each airline fly")
    both = await ask(offline_assistant, session, "add flights per plane")
    assert both.columns == ["carrier", "distinct_planes", "flight_count_per_distinct_planes"], both.text
    top = await ask(offline_assistant, session, "top 3 by flights per plane")
    assert [row[0] for row in top.rows] == ["B6", "EV", "MQ"], top.rows
    # the answer leads with what was ranked, not with the first column of numbers
    assert "has the highest flights per plane" in top.text and "highest distinct planes" not in top.text, top.text


async def test_the_quietest_after_the_busiest_is_the_other_end_of_the_count(offline_assistant, session):
    busiest = await ask(offline_assistant, session, "busiest day of week at ewr")
    assert busiest.rows == [["1 Monday", 18329]], busiest.rows
    quietest = await ask(offline_assistant, session, "and the quietest")
    assert quietest.rows == [["6 Saturday", 13347]] and "Same as before" in quietest.text, quietest.text


async def test_things_kept_from_a_ranking_are_not_cut_again_when_split(offline_assistant, session):
    # the top 5 chose the routes; once they are the condition, splitting them by carrier shows every carrier's
    # row of those routes, not the first 5 rows of the split
    await ask(offline_assistant, session, "5 longest routes out of jfk by distance")
    counted = await ask(offline_assistant, session, "how many flights did each of those have")
    assert len(counted.rows) == 5 and "among the 5 route values" in counted.text, counted.text
    split = await ask(offline_assistant, session, "split that by carrier")
    assert len(split.rows) > 5 and {row[0] for row in split.rows} == {row[0] for row in counted.rows}, split.rows
    # a row pointed at by its place keeps the ranking the message asks for ('which airline was worst': one)
    await ask(offline_assistant, session + "-lga", "avg arr delay out of lga by month")
    await ask(offline_assistant, session + "-lga", "worst 3 months")
    worst = await ask(offline_assistant, session + "-lga", "the second one - which airline was worst at lga that month")
    assert worst.rows is not None and len(worst.rows) == 1, worst.text


async def test_a_new_bound_said_alone_changes_the_shares_own_bound(offline_assistant, session):
    # 'and 60+' after the share of flights 30+ minutes late: the share's bound is 60 now; the flights whose
    # delay is known stay the whole it is a share of (replacing that instead gave 100%)
    first = await ask(offline_assistant, session, "what % of united flights got in 30+ min late")
    assert abs(first.rows[0][0] - 14.07) < 0.01, first.rows
    hour = await ask(offline_assistant, session, "and 60+")
    assert abs(hour.rows[0][0] - 6.93) < 0.01 and "instead of ≥ 30" in hour.text, hour.text
    await ask(offline_assistant, session + "-dep", "share of departures leaving 1h+ late, per airport")
    two = await ask(offline_assistant, session + "-dep", "what about 2h+")  # its unit said with it
    assert two.rows and all(0.02 < row[1] < 0.04 for row in two.rows), two.rows


async def test_they_doing_something_after_an_answer_by_month_are_the_rows(offline_assistant, session):
    # months do not fly: 'where do they fly' after flights per month asks where the flights go
    await ask(offline_assistant, session, "southwest flights per month out of ewr and lga")
    where = await ask(offline_assistant, session, "where do they fly from ewr")
    assert where.columns[0] == "dest" and "by destination instead of by month" in where.text, where.text
    assert "over all of them" not in where.text, where.text
    # 'which of them' after an answer by month still picks among the months
    await ask(offline_assistant, session + "-months", "avg dep delay by month")
    worst = await ask(offline_assistant, session + "-months", "which of them was worst")
    assert worst.columns[0] == "month" and len(worst.rows) == 1, worst.text


async def test_an_order_said_with_first_orders_every_row(offline_assistant, session):
    # 'worst first' keeps every row, in the order of the measure just asked for (said in the reading line)
    await ask(offline_assistant, session, "where does southwest fly from ewr")
    delays = await ask(offline_assistant, session, "avg dep delay for each, worst first")
    assert len(delays.rows) == 9 and delays.rows[0][0] == "MSY", delays.rows
    assert "average departure delay highest first" in delays.text, delays.text
    best = await ask(offline_assistant, session, "avg arr delay for each, best first")
    arrivals = [row[-1] for row in best.rows]
    assert arrivals == sorted(arrivals) and "average arrival delay lowest first" in best.text, best.text


async def test_at_least_a_number_is_a_condition_not_a_ranking(offline_assistant, session):
    # 'at least 50' compares with 50: it once read as 'bottom 50' ('least' and a number)
    await ask(offline_assistant, session, "average seats by manufacturer")
    kept = await ask(offline_assistant, session, "only the ones with at least 50 planes")
    assert "number of planes ≥ 50" in kept.text and "bottom" not in kept.text, kept.text
    assert all(row[-1] >= 50 for row in kept.rows), kept.rows
