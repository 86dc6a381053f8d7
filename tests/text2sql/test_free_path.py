"""The free Text-to-SQL path with a scripted model against the real demo warehouse."""

from __future__ import annotations

from agent.text2sql import draft_sql, fill_placeholders
from tests.text2sql.conftest import (
    StepModel,
    divide_and_conquer_answers,
    plan_and_reflect_answers,
    script,
    step_of,
)

BY_CARRIER = "SELECT carrier, count(*) AS flights FROM flights GROUP BY carrier ORDER BY flights DESC"
BY_CARRIER_NAME = (
    "SELECT a.name AS airline, count(*) AS flights FROM flights f "
    "JOIN airlines a ON f.carrier = a.carrier GROUP BY a.name ORDER BY flights DESC"
)
QUESTION = "How many flights did each airline fly?"


async def test_both_strategies_run_and_the_judge_picks(warehouse, catalog):
    steps = script(BY_CARRIER, BY_CARRIER_NAME, judge=[{"choice": "B", "reason": "uses airline names"}])
    draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert steps.steps_called == {
        "plan": 1, "write": 1, "reflect": 1, "divide": 1, "conquer": 1, "assemble": 1, "judge": 1,
    }
    assert draft.valid and draft.error is None
    assert draft.sql == BY_CARRIER_NAME
    assert draft.strategy == "divide_and_conquer"
    assert "uses airline names" in draft.reason
    assert draft.tables == ["flights", "airlines"]
    assert draft.llm_calls == 7 == len(steps.model.calls)
    result = warehouse.run(draft.sql)
    assert result.row_count == 16 and sum(row[1] for row in result.rows) == 336776


async def test_the_context_carries_columns_sample_rows_and_examples(warehouse, catalog):
    steps = script(BY_CARRIER, BY_CARRIER, judge=[])
    await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    user_message = steps.model.calls[0][1].content
    assert "Table flights: On-time data for all 336,776 flights" in user_message
    assert "dep_delay DOUBLE -- Departure delay in minutes" in user_message
    assert "Table airlines" in user_message and "Table weather" not in user_message
    assert "Sample rows:" in user_message and "N14228" in user_message  # the first flight's plane
    assert "Joins:\n  flights.carrier = airlines.carrier" in user_message
    assert "Top 10 routes by number of flights" in user_message  # an example query


async def test_a_question_no_table_fits_ends_before_any_llm_call(warehouse, catalog):
    steps = script(None, None)
    draft = await draft_sql("What is the meaning of life?", model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert steps.model.calls == []
    assert not draft.valid and draft.sql is None
    assert draft.error == (
        "I could not find tables for this question; the warehouse has: airlines, airports, flights, planes, weather."
    )


async def test_judge_is_skipped_when_both_queries_are_the_same(warehouse, catalog):
    same_but_spaced = BY_CARRIER.lower().replace(" from ", "\n  FROM ")
    steps = script(BY_CARRIER, same_but_spaced)
    draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert "judge" not in steps.steps_called
    assert draft.valid and draft.strategy == "plan_and_reflect"
    assert draft.llm_calls == 6
    assert warehouse.run(draft.sql).row_count == 16


async def test_judge_is_skipped_when_only_one_query_passes_the_dry_run(warehouse, catalog):
    steps = script("SELECT carrier, count(*) FROM flights GROUP BY airline_code", BY_CARRIER_NAME)
    draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert "judge" not in steps.steps_called and "repair" not in steps.steps_called
    assert draft.valid and draft.sql == BY_CARRIER_NAME
    assert "Only the divide and conquer query passed" in draft.reason


async def test_reflection_revises_the_planned_query(warehouse, catalog):
    answers = plan_and_reflect_answers("SELECT count(*) AS flights FROM flights", revised=BY_CARRIER)
    answers.update(divide_and_conquer_answers(BY_CARRIER))
    steps = StepModel(answers)
    draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert "judge" not in steps.steps_called  # the revised query equals the other strategy's
    assert draft.sql == BY_CARRIER
    assert "Revised after review: needs a change" in draft.reason


async def test_placeholder_becomes_a_question_with_options_from_the_warehouse(warehouse, catalog):
    with_placeholder = "SELECT count(*) AS flights FROM flights WHERE carrier = '[CARRIER]'"
    steps = script(with_placeholder, with_placeholder)
    draft = await draft_sql(
        "How many flights did the airline fly?", model=steps.model, warehouse=warehouse, catalog=catalog, tables=None
    )

    assert draft.valid
    assert [p.name for p in draft.placeholders] == ["CARRIER"]
    placeholder = draft.placeholders[0]
    assert (placeholder.table, placeholder.column) == ("flights", "carrier")
    assert placeholder.question == "Which carrier should I use?"
    commonest = warehouse.run(
        "SELECT carrier FROM flights GROUP BY carrier ORDER BY count(*) DESC, carrier LIMIT 10"
    )
    assert placeholder.options == [row[0] for row in commonest.rows]
    assert set(placeholder.options) <= set(warehouse.distinct_values("airlines", "carrier"))

    filled = fill_placeholders(draft.sql, {"CARRIER": placeholder.options[0]})
    assert warehouse.run(filled).rows == [(58665,)]  # UA, the busiest carrier


async def test_bare_placeholder_in_a_joined_query_is_found_through_the_alias(warehouse, catalog):
    sql = (
        "SELECT avg(w.temp) AS avg_temp FROM weather w JOIN flights f "
        "ON f.origin = w.origin AND f.time_hour = w.time_hour WHERE w.origin = [ORIGIN] AND f.month = [MONTH]"
    )
    steps = script(sql, sql)
    draft = await draft_sql(
        "Average temperature for flights from the airport that month",
        model=steps.model, warehouse=warehouse, catalog=catalog, tables=["weather", "flights"],
    )

    assert draft.valid
    by_name = {p.name: p for p in draft.placeholders}
    assert sorted(by_name["ORIGIN"].options) == ["EWR", "JFK", "LGA"]
    assert by_name["ORIGIN"].table == "weather"
    assert sorted(by_name["MONTH"].options, key=int) == [str(m) for m in range(3, 13)]  # top 10 months
    filled = fill_placeholders(draft.sql, {"ORIGIN": "JFK", "MONTH": "7"})
    assert "w.origin = 'JFK'" in filled and "f.month = 7" in filled
    (avg_temp,) = warehouse.run(filled).rows[0]
    assert 70 < avg_temp < 90


async def test_bad_query_is_repaired_by_the_llm_within_two_tries(warehouse, catalog):
    # Names no deterministic rule can map to a real column, so the LLM repair step is needed.
    bad = "SELECT carrier, avg(lateness) AS avg_delay FROM flights GROUP BY carrier"
    good = "SELECT carrier, avg(dep_delay) AS avg_delay FROM flights GROUP BY carrier"
    steps = script(
        bad,
        "SELECT carrier, avg(tardiness) FROM flights GROUP BY carrier",
        repair=[
            {"diagnosis": "still wrong", "sql": "SELECT carrier, avg(punctuality) AS avg_delay FROM flights GROUP BY carrier"},
            {"diagnosis": "lateness is dep_delay", "sql": good},
        ],
    )
    draft = await draft_sql(
        "Average departure delay by carrier", model=steps.model, warehouse=warehouse, catalog=catalog, tables=None
    )

    assert draft.valid and draft.sql == good and draft.strategy == "plan_and_reflect"
    assert steps.steps_called["repair"] == 2 and "judge" not in steps.steps_called
    assert draft.repairs == ["still wrong", "lateness is dep_delay"]
    repair_prompts = [call[1].content for call in steps.model.calls if step_of(call) == "repair"]
    assert bad in repair_prompts[0] and 'column "lateness" not found' in repair_prompts[0]
    assert "punctuality" in repair_prompts[1]  # the second try sees the first try's error
    assert draft.llm_calls == 8
    assert warehouse.run(draft.sql).row_count == 16


async def test_deterministic_fix_comes_before_the_llm(warehouse, catalog):
    bad = "SELECT carrier, avg(dep_delays) AS avg_delay FROM flights GROUP BY carrier"
    steps = script(bad, bad)
    draft = await draft_sql(
        "Average departure delay by carrier", model=steps.model, warehouse=warehouse, catalog=catalog, tables=None
    )

    assert "repair" not in steps.steps_called
    assert draft.valid and "AVG(dep_delay)" in draft.sql
    assert len(draft.repairs) == 1 and "dep_delay" in draft.repairs[0]
    assert draft.llm_calls == 6
    assert warehouse.run(draft.sql).row_count == 16


async def test_falls_back_to_the_other_candidate_when_the_chosen_one_cannot_be_repaired(warehouse, catalog):
    hopeless = "SELECT carrier, avg(lateness) FROM flights GROUP BY carrier"
    misspelt_table = "SELECT origin, count(*) AS flights FROM flightz GROUP BY origin"
    steps = script(
        hopeless,
        misspelt_table,
        repair=[
            {"diagnosis": "try another name", "sql": "SELECT carrier, avg(tardiness) FROM flights GROUP BY carrier"},
            {"diagnosis": "and another", "sql": "SELECT carrier, avg(punctuality) FROM flights GROUP BY carrier"},
        ],
    )
    draft = await draft_sql(
        "Flights per origin", model=steps.model, warehouse=warehouse, catalog=catalog, tables=None
    )

    assert draft.valid and draft.strategy == "divide_and_conquer"
    assert steps.steps_called["repair"] == 2  # the plan's query used its two tries
    assert any("flights" in change for change in draft.repairs)  # the other was fixed without an LLM
    assert draft.llm_calls == 8
    assert sorted(warehouse.run(draft.sql).rows) == [("EWR", 120835), ("JFK", 111279), ("LGA", 104662)]


async def test_reports_why_when_no_candidate_can_be_repaired(warehouse, catalog):
    bad = "SELECT carrier, avg(lateness) FROM flights GROUP BY carrier"
    steps = script(bad, bad, repair=[{"diagnosis": "?", "sql": bad}, {"diagnosis": "?", "sql": bad}])
    draft = await draft_sql("Lateness by carrier", model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert not draft.valid
    assert draft.error.startswith("I could not write SQL that runs:") and "lateness" in draft.error
    assert draft.sql == bad


async def test_one_failing_strategy_does_not_sink_the_draft(warehouse, catalog):
    answers = {"plan": [RuntimeError("provider down")], **divide_and_conquer_answers(BY_CARRIER)}
    steps = StepModel(answers)
    draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert draft.valid and draft.strategy == "divide_and_conquer" and draft.sql == BY_CARRIER
    assert "judge" not in steps.steps_called
    assert draft.llm_calls == 4  # the failed plan call counts too


async def test_both_strategies_failing_is_a_sentence_not_an_exception(warehouse, catalog):
    steps = StepModel({"plan": [RuntimeError("down")], "divide": [ValueError("bad json")]})
    draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)

    assert not draft.valid and draft.sql is None
    assert draft.error == "I could not write SQL for this question: The language model did not give a usable answer."
    assert draft.llm_calls == 2


async def test_unknown_tables_end_before_any_llm_call(warehouse, catalog):
    steps = script(None, None)
    draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=["invoices"])

    assert steps.model.calls == []
    assert not draft.valid and "the warehouse has: airlines, airports, flights, planes, weather" in draft.error


async def test_writes_sql_in_another_dialect_and_validates_it_on_the_warehouse(warehouse, catalog):
    presto = (
        "SELECT date_format(time_hour, '%Y-%m') AS month, count(*) AS flights "
        "FROM flights GROUP BY 1 ORDER BY 1"
    )
    steps = script(presto, presto)
    draft = await draft_sql(
        "Flights per month", model=steps.model, warehouse=warehouse, catalog=None, tables=["flights"], dialect="presto"
    )

    assert draft.valid and draft.sql == presto
    writing = [call for call in steps.model.calls if step_of(call) in ("write", "assemble")]
    assert all("in the presto dialect" in call[0].content for call in writing) and len(writing) == 2


async def test_the_graph_is_compiled_once_not_per_question(warehouse, catalog, monkeypatch):
    """Each question runs the same compiled graph with its own model, warehouse and catalog as its context."""
    from langgraph.graph import StateGraph

    from agent.text2sql import build_free_path

    assert build_free_path() is build_free_path()
    compiled: list[object] = []
    compile_graph = StateGraph.compile
    monkeypatch.setattr(StateGraph, "compile", lambda self, *a, **k: compiled.append(self) or compile_graph(self, *a, **k))
    for _ in range(2):
        steps = script(BY_CARRIER, BY_CARRIER, judge=[])
        draft = await draft_sql(QUESTION, model=steps.model, warehouse=warehouse, catalog=catalog, tables=None)
        assert draft.sql == BY_CARRIER and steps.model.calls, draft
    assert compiled == []
