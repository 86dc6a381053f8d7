"""A thread is a conversation: follow-ups edit the last reading, the clarification loop holds, and the
person sees the reading before Run. Through the offline assistant on the demo warehouse, rows checked
against SQL written by hand."""

from __future__ import annotations

import itertools

import pytest

_sessions = itertools.count()


@pytest.fixture
def session():
    return f"thread-{next(_sessions)}"


async def ask(assistant, session, text, *, confirm="run"):
    reply = await assistant.reply(assistant.ask(session, text))
    if confirm and reply.ask_human and reply.ask_human.kind == "confirm_sql":
        reply = await assistant.reply(assistant.resume(session, confirm))
    return reply


def gold(assistant, sql):
    return sorted(tuple(r) for r in assistant.context.warehouse.run(sql).rows)


def values_of(reply, column):
    return sorted(r[reply.columns.index(column)] for r in reply.rows)


async def test_top_n_then_another_airport_then_the_median(offline_assistant, session):
    await ask(offline_assistant, session, "average departure delay by carrier for flights from JFK")
    top = await ask(offline_assistant, session, "make it top 3")
    assert top.row_count == 3 and "JFK" in top.sql
    ewr = await ask(offline_assistant, session, "now for EWR")
    assert "'EWR'" in ewr.sql and "'JFK'" not in ewr.sql and ewr.row_count == 3
    assert "Same as before, EWR instead of JFK" in ewr.text
    expected = gold(offline_assistant, "SELECT carrier FROM flights WHERE origin = 'EWR' GROUP BY carrier "
                                       "ORDER BY avg(dep_delay) DESC LIMIT 3")
    assert values_of(ewr, "carrier") == [c for (c,) in expected]
    total = await ask(offline_assistant, session, "the total instead")
    assert "total_dep_delay" in total.columns and total.row_count == 3


async def test_whole_year_by_airline_and_dropping_the_filter(offline_assistant, session):
    june = await ask(offline_assistant, session, "how many flights left LGA in June")
    year = await ask(offline_assistant, session, "for the whole year")
    assert year.rows[0][0] == gold(offline_assistant, "SELECT count(*) FROM flights WHERE origin = 'LGA'")[0][0]
    assert year.rows != june.rows
    by_airline = await ask(offline_assistant, session, "by airline now")
    assert by_airline.row_count == len(gold(offline_assistant, "SELECT DISTINCT carrier FROM flights WHERE origin = 'LGA'"))
    dropped = await ask(offline_assistant, session, "drop the LGA filter")
    assert dropped.error is None and "LGA" not in dropped.sql and dropped.row_count == 16


async def test_sql_only_then_run_it_then_why_in_the_models_words(offline_assistant, session):
    await ask(offline_assistant, session, "average arrival delay by origin airport")
    by_month = await ask(offline_assistant, session, "by month instead")
    assert by_month.row_count == 12 and "origin" not in by_month.columns
    sql = await ask(offline_assistant, session, "just give me the SQL")
    assert sql.sql and not sql.rows
    confirm = await ask(offline_assistant, session, "run it", confirm=None)
    assert confirm.ask_human.question.startswith("Reading it as: Average arrival delay by month")
    ran = await offline_assistant.reply(offline_assistant.resume(session, "run"))
    assert ran.row_count == 12
    why = await ask(offline_assistant, session, "why?")
    assert "arrival delay" in why.text.lower() and "month" in why.text
    assert "__q0" not in why.text and "m0" not in why.text and "CAST" not in why.text


async def test_the_confirmation_leads_with_the_reading(offline_assistant, session):
    reply = await offline_assistant.reply(offline_assistant.ask(session, "number of flights from JFK to LAX"))
    assert reply.ask_human.kind == "confirm_sql"
    assert reply.ask_human.question.startswith("Reading it as: Number of flights")
    assert "JFK" in reply.ask_human.question and reply.ask_human.question.endswith("Shall I run this query?")


async def test_cancel_then_a_correction_edits_the_cancelled_reading(offline_assistant, session):
    cancelled = await ask(offline_assistant, session, "number of flights from JFK to BOS", confirm="cancel")
    assert not cancelled.rows
    # LGA is an origin and (once) a destination, and the cancelled reading filters both: asked, never picked
    asked = await ask(offline_assistant, session, "sorry, I meant LGA")
    assert asked.ask_human.kind == "clarify" and {o.label for o in asked.ask_human.options} == {
        "origin airport", "destination"}
    corrected = await ask(offline_assistant, session, "the origin")
    expected = gold(offline_assistant, "SELECT count(*) FROM flights WHERE origin = 'LGA' AND dest = 'BOS'")
    assert corrected.rows[0][0] == expected[0][0]


async def test_a_typed_answer_in_other_words_is_taken(offline_assistant, session):
    asked = await ask(offline_assistant, session, "number of flights by airport")
    assert asked.ask_human.kind == "clarify"
    answered = await ask(offline_assistant, session, "the departure airport")
    assert answered.row_count == 3 and "origin" in answered.columns


async def test_a_new_message_supersedes_the_pending_question_once(offline_assistant, session):
    await offline_assistant.reply(offline_assistant.ask(session, "average departure delay from JFK"))
    newer = await ask(offline_assistant, session, "number of flights from LGA in May", confirm=None)
    assert newer.text.startswith("(I dropped my earlier question") and newer.ask_human.kind == "confirm_sql"
    ran = await offline_assistant.reply(offline_assistant.resume(session, "run"))
    assert ran.row_count == 1 and "dropped" not in ran.text
    after = await ask(offline_assistant, session, "by carrier", confirm=None)
    assert "dropped" not in after.text and "'LGA'" in after.sql


async def test_scrap_that_over_a_pending_clarification_is_a_question_of_its_own(offline_assistant, session):
    asked = await ask(offline_assistant, session, "sum of all dep delay widgets per airline for 2013")
    assert asked.ask_human.kind == "clarify" and "tail number" in {o.label for o in asked.ask_human.options}
    # 'aircraft' names an option ('tail number'); after 'scrap that' it is the question's own word
    newer = await ask(offline_assistant, session, "scrap that. how many aircraft did southwest fly")
    expected = gold(offline_assistant, "SELECT count(DISTINCT tailnum) FROM flights WHERE carrier = 'WN'")
    assert newer.rows == [[expected[0][0]]], newer


async def test_which_of_those_things_is_the_most_picks_one_of_them(offline_assistant, session):
    await ask(offline_assistant, session, "how many routes did southwest fly")
    longest = await ask(offline_assistant, session, "which of those routes is the longest")
    expected = gold(offline_assistant, "SELECT origin || '-' || dest, max(distance) FROM flights WHERE carrier = 'WN' "
                                       "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")
    assert longest.row_count == 1 and longest.rows[0][0] == expected[0][0], longest


async def test_a_complete_question_starts_fresh(offline_assistant, session):
    await ask(offline_assistant, session, "number of flights from JFK in May")
    fresh = await ask(offline_assistant, session, "average arrival delay by carrier in 2013")
    assert "JFK" not in fresh.sql and fresh.row_count == 16


async def test_a_bar_chart_on_request(offline_assistant, session):
    first = await ask(offline_assistant, session, "number of flights by month")
    assert first.chart.spec.kind == "line"
    bars = await ask(offline_assistant, session, "as a bar chart")
    assert bars.chart.spec.kind == "bar" and bars.rows == first.rows


async def test_nothing_of_a_failed_turn_leaks_into_the_next(offline_assistant, session):
    failed = await ask(offline_assistant, session, "How many flights did carrier ZZ fly in May?")
    assert "ZZ" in failed.text and failed.sql is None
    after = await ask(offline_assistant, session, "by month")  # a grouping alone: of what, the thread cannot say
    assert "ZZ" not in after.text and not after.rows and "no earlier answer" in after.text


async def test_a_pointer_with_no_answer_to_point_at_is_said_not_dropped(offline_assistant, session):
    declined = await ask(offline_assistant, session, "how many flights from JFKK in June")
    assert not declined.rows
    pointed = await ask(offline_assistant, session, "avg dep delay there")
    assert not pointed.rows and "no earlier answer" in pointed.text and "“there”" in pointed.text


async def test_just_the_sql_then_go_ahead(offline_assistant, session):
    await ask(offline_assistant, session, "total flights by origin in q1")
    sql_only = await ask(offline_assistant, session, "just the sql pls")
    assert sql_only.sql and not sql_only.rows
    ran = await ask(offline_assistant, session, "go ahead")
    expected = gold(offline_assistant, "SELECT origin, COUNT(*) FROM flights WHERE month <= 3 GROUP BY origin")
    assert values_of(ran, "flight_count") == sorted(c for _, c in expected)


async def test_an_edit_of_nothing_is_said_and_no_declined_words_come_back(offline_assistant, session):
    await ask(offline_assistant, session, "how many flights from JFKK in June")
    nothing = await ask(offline_assistant, session, "drop the airline filter")
    assert not nothing.rows and "no earlier answer in this thread to change" in nothing.text
    await ask(offline_assistant, session, "flights from jfk")
    unchanged = await ask(offline_assistant, session, "drop the airline filter")
    assert not unchanged.rows and not unchanged.ask_human and "changes nothing in the last reading" in unchanged.text
    assert "JFKK" not in unchanged.text and "origin airport is JFK" in unchanged.text


async def test_as_a_percent_is_an_edit_not_a_request_for_the_same_sql(offline_assistant, session):
    await ask(offline_assistant, session, "flights per carrier from ewr")
    await ask(offline_assistant, session, "exclude UA")
    shares = await ask(offline_assistant, session, "as a %")
    assert "share of the total" in shares.text and len(shares.columns) == 3 and "UA" not in values_of(shares, "carrier")
    assert abs(sum(r[2] for r in shares.rows) - 100) < 0.01


async def test_a_follow_up_of_a_question_never_answered_is_said_unless_it_stands_alone(offline_assistant, session):
    await ask(offline_assistant, session, "how many flights from JFKK in June")
    partial = await ask(offline_assistant, session, "and avg dep delay")
    assert not partial.rows and "no earlier answer in this thread for this to build on" in partial.text
    whole = await ask(offline_assistant, session, "and how many flights left jfk in june")
    expected = gold(offline_assistant, "SELECT COUNT(*) FROM flights WHERE origin = 'JFK' AND month = 6")
    assert [tuple(r) for r in whole.rows] == expected


async def test_a_whole_question_opened_with_ok_then_stands_alone_with_its_own_vs(offline_assistant, session):
    await ask(offline_assistant, session, "how many flights from JFKK in June")  # never answered
    # 'vs not' is the question's own contrast, not a word of the thread: read alone, the message is whole
    whole = await ask(offline_assistant, session, "ok then avg dep delay when it was below freezing at the origin vs not")
    assert sorted((r[0], round(r[1], 6)) for r in whole.rows) == sorted((r[0], round(r[1], 6)) for r in gold(
        offline_assistant, "SELECT w.temp < 32, AVG(f.dep_delay) FROM flights f JOIN weather w ON f.origin = w.origin "
                           "AND f.time_hour = w.time_hour WHERE w.temp IS NOT NULL GROUP BY 1"))


async def test_there_after_the_worst_one_is_that_place_and_its_ranking_is_done(offline_assistant, session):
    await ask(offline_assistant, session, "avg arr delay by destination for flights out of jfk")
    worst = await ask(offline_assistant, session, "and the worst one?")
    (place,) = [r[worst.columns.index("dest")] for r in worst.rows]
    count = await ask(offline_assistant, session, "how many flights went there")
    assert gold(offline_assistant, f"SELECT COUNT(*) FROM flights WHERE origin = 'JFK' AND dest = '{place}'") == \
        sorted((r[count.columns.index("flight_count")],) for r in count.rows)
    carriers = await ask(offline_assistant, session, "by carrier")
    assert sorted(map(tuple, carriers.rows)) == gold(
        offline_assistant, f"SELECT carrier, COUNT(*) FROM flights WHERE origin = 'JFK' AND dest = '{place}' GROUP BY carrier")


async def test_a_value_or_grouping_alone_after_an_unanswered_question_is_no_count(offline_assistant, session):
    await ask(offline_assistant, session, "avg dep delay from JFKK in June")  # never answered: JFKK is no airport
    for said in ("what about lga", "by carrier"):
        reply = await ask(offline_assistant, session, said)
        assert not reply.rows and "no earlier answer in this thread for this to build on" in reply.text, said


async def test_a_grouping_alone_after_an_unanswered_question_is_no_count(offline_assistant, session):
    await ask(offline_assistant, session, "avg dep delay from JFKK in June")  # never answered
    reply = await ask(offline_assistant, session, "per month")
    assert not reply.rows and "no earlier answer in this thread for this to build on" in reply.text


async def test_delayed_much_that_day_is_the_delay_on_the_day_shown(offline_assistant, session):
    windiest = await ask(offline_assistant, session, "what was the windiest day at lga this yr")
    (day,) = [r[windiest.columns.index("date")] for r in windiest.rows]
    delayed = await ask(offline_assistant, session, "were flights out of there delayed much that day")
    # 'delayed much' asks the amount, of the day shown ('that day'), not the flights with a delay ranked again
    expected = gold(offline_assistant, f"SELECT AVG(dep_delay) FROM flights WHERE origin = 'LGA' AND "
                                       f"make_date(year, month, day) = DATE '{day}'")
    assert [(r[delayed.columns.index("avg_dep_delay")],) for r in delayed.rows] == expected


async def test_a_new_count_in_those_hours_keeps_the_hours_conditions(offline_assistant, session):
    await ask(offline_assistant, session, "# of hours w/ wind gusts over 40 mph per airport")
    cancelled = await ask(offline_assistant, session, "how many flights got cancelled in those hours")
    # 'those hours' are the ones the gusts blew in: the flights then, per airport, never all flights
    assert sorted(map(tuple, cancelled.rows)) == gold(
        offline_assistant, "SELECT f.origin, COUNT(*) FROM flights f JOIN weather w ON f.origin = w.origin AND "
                           "f.time_hour = w.time_hour WHERE w.wind_gust > 40 AND f.dep_time IS NULL GROUP BY 1")


async def test_for_each_of_a_whole_answer_keeps_no_list_behind(offline_assistant, session):
    await ask(offline_assistant, session, "where does southwest fly from ewr")
    await ask(offline_assistant, session, "avg dep delay for each, worst first")
    lga = await ask(offline_assistant, session, "same for lga")
    # every destination from LGA, not only the ones EWR had: the answer before showed all of its groups
    expected = gold(offline_assistant, "SELECT dest, COUNT(*), AVG(dep_delay) FROM flights WHERE carrier = 'WN' AND "
                                       "origin = 'LGA' GROUP BY dest")
    assert sorted(r[lga.columns.index("dest")] for r in lga.rows) == sorted(r[0] for r in expected)
