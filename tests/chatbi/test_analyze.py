"""ChatBI on real query results: facts, answer, insights, chart, follow-ups, and the number guard."""

from __future__ import annotations

import pytest

from agent.chatbi.analyze import analyze
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.layer import load_layer
from agent.semantic.model.values import ValueIndex
from agent.warehouse import QueryResult
from tests.support.meanings import meanings_for
from tests.support.scripted_model import ScriptedChatModel

async def analyze_sql(warehouse, question: str, sql: str, **options):
    """Run `sql` and analyse it the way the run tool does: with the columns' meanings."""
    result = warehouse.run(sql)
    meanings = meanings_for(warehouse, sql, result.columns)
    return await analyze(question, result, sql=sql, meanings=meanings, **options)


BY_CARRIER = "SELECT carrier, count(*) AS flights FROM flights GROUP BY carrier ORDER BY flights DESC"


async def test_single_value_has_an_answer_with_its_unit_and_no_chart(warehouse):
    analysis = await analyze_sql(
        warehouse, "What is the average departure delay?", "SELECT avg(dep_delay) AS avg_dep_delay FROM flights"
    )

    assert analysis.facts["shape"] == "single_value"
    assert analysis.facts["value"] == pytest.approx(12.639, abs=1e-3)
    assert analysis.answer == "The average departure delay is 12.64 minutes."
    assert analysis.chart.kind == "none"
    assert len(analysis.follow_ups) == 3 and "Break this down by month" in analysis.follow_ups
    assert analysis.llm_calls == 0 and not analysis.narrated


async def test_a_count_reads_as_counted_things_with_thousands_separators(warehouse):
    analysis = await analyze("How many flights?", warehouse.run("SELECT count(*) AS flights FROM flights"))
    assert analysis.answer == "There are 336,776 flights."


async def test_category_facts_answer_insights_and_bar_chart(warehouse):
    result = warehouse.run(BY_CARRIER)
    analysis = await analyze("Flights per carrier", result)

    facts = analysis.facts
    assert facts["shape"] == "category" and facts["count"] == 16
    assert facts["total"] == 336776
    assert facts["top"]["label"] == "UA" and facts["top"]["value"] == 58665
    assert facts["top"]["share_pct"] == pytest.approx(58665 / 336776 * 100)
    assert facts["bottom"] == {"label": "OO", "value": 32}
    assert facts["spread"] == 58665 - 32
    assert analysis.answer == "UA has the most flights: 58,665 (17.4% of the 336,776 total across 16 carriers)."
    assert analysis.insights == [
        "The top 3 carriers account for 49.7% of the total.",
        "OO has the fewest flights: 32, 58,633 below UA.",
    ]
    assert (analysis.chart.kind, analysis.chart.x, analysis.chart.y) == ("bar", "carrier", ["flights"])
    assert analysis.follow_ups[0] == "Which carrier has the fewest flights?"


async def test_an_average_per_category_has_no_total_or_share(warehouse):
    analysis = await analyze_sql(
        warehouse, "Average delay by carrier", "SELECT carrier, avg(dep_delay) AS avg_dep_delay FROM flights GROUP BY carrier"
    )

    assert "total" not in analysis.facts and "share_pct" not in analysis.facts["top"]
    assert analysis.answer == (
        "Frontier Airlines Inc. (F9) has the highest average departure delay: 20.22 minutes (among 16 carriers)."
    )


async def test_time_series_facts_answer_and_line_chart(warehouse):
    analysis = await analyze_sql(
        warehouse, "Average temperature by month",
        "SELECT month, avg(temp) AS avg_temp FROM weather GROUP BY month ORDER BY month DESC",
    )

    facts = analysis.facts
    assert facts["shape"] == "time_series" and facts["points"] == 12
    assert facts["first"]["label"] == "January" and facts["last"]["label"] == "December"  # sorted by time
    assert facts["peak"]["label"] == "July" and facts["trough"]["label"] == "February"
    first, last = facts["first"]["value"], facts["last"]["value"]
    assert facts["change_pct"] == pytest.approx((last - first) / first * 100)
    assert facts["trend"] == "mixed" and "total" not in facts  # a seasonal curve, no steady direction
    assert analysis.answer == (
        "The average temperature went from 35.64°F in January to 38.44°F in December (+7.9%), "
        "peaking at 80.07°F in July."
    )
    assert "The low point was 34.27°F in February." in analysis.insights
    assert (analysis.chart.kind, analysis.chart.x) == ("line", "month")
    assert analysis.follow_ups[0] == "Which month had the highest average temperature?"


async def test_daily_series_reads_dates_and_a_downward_trend():
    days = [f"2013-07-{d:02d}T00:00:00" for d in range(1, 8)]
    result = QueryResult(columns=["day", "flights"], types=["TIMESTAMP", "BIGINT"],
                         rows=[(day, 1000 - 50 * i) for i, day in enumerate(days)])
    analysis = await analyze("Daily flights in the first week of July", result)

    assert analysis.facts["trend"] == "down"
    assert analysis.answer == "Flights went from 1,000 on 2013-07-01 to 700 on 2013-07-07 (-30.0%), peaking at 1,000 on 2013-07-01."
    assert "The trend over the 7 periods is downward." in analysis.insights


async def test_empty_result_says_so_without_a_chart_or_an_llm_call(warehouse):
    result = warehouse.run("SELECT carrier, count(*) AS flights FROM flights WHERE carrier = 'ZZ' GROUP BY carrier")
    model = ScriptedChatModel([])
    analysis = await analyze("Flights of carrier ZZ", result, model=model)

    assert analysis.facts == {"row_count": 0, "shape": "empty"}
    assert analysis.answer.startswith("No rows matched")
    assert analysis.insights == [] and analysis.chart.kind == "none"
    assert analysis.follow_ups[0] == "Which carriers are in the data?" and len(analysis.follow_ups) == 3
    assert model.calls == [] and analysis.llm_calls == 0


async def test_missing_values_are_noted(warehouse):
    result = warehouse.run(
        "SELECT origin, avg(wind_gust) AS avg_wind_gust, count(wind_gust) AS n FROM weather GROUP BY origin "
        "UNION ALL SELECT 'XXX', NULL, 0"
    )
    analysis = await analyze("Average wind gust per airport", result)

    assert analysis.facts["missing"] == {"avg_wind_gust": 1}
    assert analysis.facts["count"] == 3  # the row without a value is left out
    assert "1 row has no value for average wind gust; they are left out of the figures." in analysis.insights


async def test_a_narrative_grounded_in_the_facts_is_used(warehouse):
    model = ScriptedChatModel([{
        "answer": "United (UA) flew the most: 58,665 flights, about 17% of all 336,776.",
        "insights": ["Three carriers fly about half of all flights (49.7%).", "OO flew only 32."],
    }])
    analysis = await analyze("Flights per carrier", warehouse.run(BY_CARRIER), model=model)

    assert analysis.narrated and analysis.llm_calls == 1
    assert analysis.answer.startswith("United (UA) flew the most")
    prompt = model.calls[0][1].content
    assert '"share_pct"' in prompt and "17.4% of the 336,776 total" in prompt  # raw and readable facts


async def test_a_narrative_with_an_invented_number_falls_back_to_the_facts(warehouse):
    model = ScriptedChatModel([{
        "answer": "UA flew 58,665 flights, 12% more than last year.",
        "insights": ["Delays fell by 3.5 minutes."],
    }])
    analysis = await analyze("Flights per carrier", warehouse.run(BY_CARRIER), model=model)

    assert not analysis.narrated and analysis.llm_calls == 1
    assert analysis.answer == "UA has the most flights: 58,665 (17.4% of the 336,776 total across 16 carriers)."
    assert analysis.insights[0] == "The top 3 carriers account for 49.7% of the total."


async def test_a_failing_model_falls_back_to_the_facts(warehouse):
    model = ScriptedChatModel([RuntimeError("provider down")])
    analysis = await analyze("Flights per carrier", warehouse.run(BY_CARRIER), model=model)
    assert not analysis.narrated and analysis.answer.startswith("UA has the most flights")


async def test_follow_ups_come_from_the_semantic_model_when_there_is_an_intent(warehouse):
    semantic = load_layer()
    values = ValueIndex.from_warehouse(warehouse, semantic)
    intent = StructuredIntent(metrics=["flight_count"], dimensions=["carrier"])
    analysis = await analyze(
        "Flights per carrier", warehouse.run(BY_CARRIER), intent=intent.model_dump(), follow_up_source=(semantic, values)
    )
    assert analysis.follow_ups == [
        "Monthly number of flights",
        "Top 5 origin airports by number of flights",
        "Top 5 destinations by number of flights",
    ]


async def test_a_numeric_group_key_is_read_as_a_category(warehouse):
    result = warehouse.run("SELECT engines, avg(seats) AS avg_seats FROM planes GROUP BY engines ORDER BY engines")
    analysis = await analyze("Average seats by number of engines", result)

    assert analysis.facts["category"] == "engines" and analysis.facts["measure"] == "avg_seats"
    assert analysis.answer.startswith("Engines 3 has the highest average seats: 256.67")
    assert analysis.chart.kind == "bar" and analysis.chart.x == "engines"


async def test_a_seasonal_rise_and_fall_is_not_called_a_trend(warehouse):
    from agent.chatbi.analyze import analyze

    result = warehouse.run("SELECT month, avg(dep_delay) AS avg_dep_delay FROM flights GROUP BY month ORDER BY month")
    analysis = await analyze("Monthly average departure delay", result)
    assert analysis.facts["trend"] == "mixed"
    assert not any("downward" in line or "upward" in line for line in analysis.insights)


async def test_a_share_reads_as_a_percentage(warehouse):
    from agent.chatbi.analyze import analyze

    result = warehouse.run(
        "SELECT avg(CASE WHEN arr_delay <= 0 THEN 1.0 ELSE 0.0 END) AS on_time_share FROM flights WHERE arr_delay IS NOT NULL"
    )
    analysis = await analyze("What share of flights were on time?", result)
    assert "59.4%" in analysis.answer


def test_hours_of_the_day_are_a_cycle_not_a_trend():
    from agent.chatbi.facts import compute_facts

    rows = [[5, 750], [8, 10780], [12, 6000], [23, 1038]]
    facts = compute_facts(["hour", "flight_count"], ["INTEGER", "INTEGER"], rows)
    assert facts["shape"] == "time_series" and facts.get("cycle") == "hours of the day" and "change_pct" not in facts


async def test_a_result_s_column_roles_are_read_once_for_the_facts_the_chart_and_the_follow_ups(warehouse, monkeypatch):
    """Each role scans the column's every value: the facts, the chart and the follow-ups share one reading."""
    from agent.charts import roles

    reads: list[list[str]] = []
    read = roles.column_roles

    def counted(columns, types, rows):
        reads.append(list(columns))
        return read(columns, types, rows)

    for module in ("write_up", "facts", "choose_chart", "follow_ups"):
        monkeypatch.setattr(f"agent.chatbi.{module}.column_roles", counted)
    analysis = await analyze_sql(warehouse, "Flights by carrier", BY_CARRIER + " LIMIT 5")
    assert analysis.chart.kind == "bar" and analysis.follow_ups
    assert reads == [["carrier", "flights"]]


async def test_a_ranking_from_the_bottom_answers_with_its_lowest(warehouse):
    sql = BY_CARRIER.split("ORDER BY")[0] + "ORDER BY 2 LIMIT 3"
    analysis = await analyze("Bottom 3 carriers by flights", warehouse.run(sql), sql=sql, warehouse=warehouse)
    assert analysis.answer.startswith("OO has the fewest flights: 32")
    assert analysis.insights[-1].startswith("YV has the most flights of these: 601")


async def test_the_last_of_a_top_n_is_the_least_of_those_shown(warehouse):
    sql = BY_CARRIER.split("ORDER BY")[0] + "ORDER BY 2 DESC LIMIT 3"
    analysis = await analyze("Top 3 carriers by flights", warehouse.run(sql), sql=sql, warehouse=warehouse)
    assert analysis.answer.startswith("UA has the most flights: 58,665")
    assert any(s.startswith("EV has the fewest flights of these") for s in analysis.insights), analysis.insights


async def test_groups_with_one_and_the_same_value_claim_no_most(warehouse):
    result = warehouse.run("SELECT 'A' AS team, 1 AS players UNION ALL SELECT 'B', 1 UNION ALL SELECT 'C', 1")
    analysis = await analyze("Players by team", result)
    assert analysis.answer == "The 3 teams have the same number of players: 1 each.", analysis.answer
    assert not any("most" in s or "fewest" in s for s in analysis.insights), analysis.insights
