"""An LLM filling StructuredIntent v2 (here scripted): contrasts and HAVING compile to SQL that
gives the right rows, and the answer says how the question was read."""

from __future__ import annotations

from langchain_core.messages import SystemMessage

from agent.supervisor.prompt import ROUTER_SYSTEM_PROMPT
from agent.tools.semantic import semantic_prompt
from tests.support.scripted_model import ScriptedChatModel, tool_call

EXECUTE = "execute_sql_and_analyze_result"


def graph_model(offline_context, question: str, intent: dict) -> ScriptedChatModel:
    semantic_first_line = semantic_prompt(offline_context).splitlines()[0]
    router_first_line = ROUTER_SYSTEM_PROMPT.splitlines()[0]

    def answer(messages):
        first = messages[0].content.splitlines()[0] if isinstance(messages[0], SystemMessage) else ""
        if first == router_first_line:
            return tool_call("data_discovery", {"user_question": question, "final_intent": EXECUTE})
        if first == semantic_first_line:
            return {"intent": intent}
        return {"answer": "Here it is.", "insights": []}  # the ChatBI narrative

    return ScriptedChatModel([answer] * 8)


async def test_a_contrast_filled_by_the_llm_runs(make_assistant, offline_context):
    question = "How many times more flights left LGA than EWR in May?"
    intent = {"contrast": {"kind": "ratio", "metric": "flight_count",
                           "first": {"filters": [{"field": "origin", "values": ["LGA"]}]},
                           "second": {"filters": [{"field": "origin", "values": ["EWR"]}]}},
              "time": {"months": [5]}}
    assistant = make_assistant(graph_model(offline_context, question, intent))
    confirm = await assistant.reply(assistant.ask("v2-1", question))
    assert confirm.ask_human.kind == "confirm_sql"
    answer = await assistant.reply(assistant.resume("v2-1", "run"))
    lga, ewr = (offline_context.warehouse.run(
        f"SELECT count(*) FROM flights WHERE origin = '{o}' AND month = 5").rows[0][0] for o in ("LGA", "EWR"))
    assert abs(answer.rows[0][0] - lga / ewr) < 1e-9
    assert "Read as: Ratio of number of flights" in answer.text


async def test_having_and_count_groups_filled_by_the_llm_run(make_assistant, offline_context):
    question = "How many destinations had more than 10,000 flights?"
    intent = {"metrics": ["flight_count"], "dimensions": ["dest"], "count_groups": True,
              "having": [{"metric": "flight_count", "op": ">", "value": 10000}]}
    assistant = make_assistant(graph_model(offline_context, question, intent))
    await assistant.reply(assistant.ask("v2-2", question))
    answer = await assistant.reply(assistant.resume("v2-2", "run"))
    expected = offline_context.warehouse.run(
        "SELECT count(*) FROM (SELECT dest FROM flights GROUP BY dest HAVING count(*) > 10000)").rows[0][0]
    assert answer.rows == [[expected]]


async def test_last_month_filled_by_the_llm_counts_back_from_the_data(make_assistant, offline_context):
    question = "How many flights left JFK last month?"
    intent = {"metrics": ["flight_count"], "filters": [{"field": "origin", "values": ["JFK"]}],
              "time": {"relative": {"words": "last month", "grain": "month"}}}
    assistant = make_assistant(graph_model(offline_context, question, intent))
    await assistant.reply(assistant.ask("v2-3", question))
    answer = await assistant.reply(assistant.resume("v2-3", "run"))
    expected = offline_context.warehouse.run("SELECT count(*) FROM flights WHERE origin = 'JFK' AND month = 12")
    assert answer.rows == [[expected.rows[0][0]]]
    assert "last month (December 2013, the latest whole month in the data)" in answer.text


async def test_top_n_per_group_filled_by_the_llm_runs(make_assistant, offline_context):
    question = "Top 2 destinations for each NYC airport"
    intent = {"metrics": ["flight_count"], "dimensions": ["origin", "dest"], "limit": 2, "limit_per": "origin",
              "order_by": [{"field": "flight_count", "descending": True}]}
    assistant = make_assistant(graph_model(offline_context, question, intent))
    await assistant.reply(assistant.ask("v2-4", question))
    answer = await assistant.reply(assistant.resume("v2-4", "run"))
    assert [r[0] for r in answer.rows] == ["EWR", "EWR", "JFK", "JFK", "LGA", "LGA"]
    assert "top 2 per origin airport" in answer.text
