"""The offline model sends requests to the right tool with the right final intent.

Phrasings are written as people type in Slack: lowercase, mentions, typos in SQL, fences.
"""

from __future__ import annotations

import pytest

from agent.llm.routing import split_sql
from agent.marks import FOLLOW_UP_MARK

EXECUTE = "execute_sql_and_analyze_result"

CASES = [
    # data questions -> discovery, answer with numbers
    ("how many flights left JFK in june?", "data_discovery", EXECUTE),
    ("avg arrival delay per carrier", "data_discovery", EXECUTE),
    ("which airline had the most cancellations in Q1", "data_discovery", EXECUTE),
    ("what's the average temperature at newark by month", "data_discovery", EXECUTE),
    ("top 10 destinations from LGA", "data_discovery", EXECUTE),
    ("how late are united flights on average", "data_discovery", EXECUTE),
    ("number of planes per manufacturer", "data_discovery", EXECUTE),
    ("What is the longest flight distance?", "data_discovery", EXECUTE),
    ("total air time for delta in the summer months june through august", "data_discovery", EXECUTE),
    ("what's the average ticket price by airline?", "data_discovery", EXECUTE),
    # SQL only
    ("write me a sql query for flights per origin", "data_discovery", "generate_sql"),
    ("can you give me the query to get avg dep delay by month", "data_discovery", "generate_sql"),
    ("generate SQL that counts flights by destination", "data_discovery", "generate_sql"),
    # where is the data
    ("which table has the tail numbers?", "data_discovery", "data_discovery"),
    ("where can i find wind speed data", "data_discovery", "data_discovery"),
    ("what columns are in the planes table", "data_discovery", "data_discovery"),
    ("do we have data on airports time zones?", "data_discovery", "data_discovery"),
    # fix
    ("fix this: SELECT count(*) FORM flights", "fix_sql", "fix_sql"),
    ("```SELECT orign, count(*) FROM flights GROUP BY orign```", "fix_sql", "fix_sql"),
    ("why does this fail? select dest, avg(arr_delay) from flight", "fix_sql", "fix_sql"),
    ("this query is broken, can you fix and run it: SELEC max(distance) FROM flights", "fix_sql", EXECUTE),
    ("SELECT carrier, avg(dep_delay FROM flights GROUP BY carrier", "fix_sql", "fix_sql"),
    ("getting an error with ```select count(*) from flights where carrier = \"UA\"```", "fix_sql", "fix_sql"),
    # explain
    ("what does this query do? SELECT dest, count(*) FROM flights GROUP BY dest", "explain_sql", "explain_sql"),
    ("explain ```SELECT a.name, count(*) FROM flights f JOIN airlines a ON f.carrier = a.carrier GROUP BY 1```", "explain_sql", "explain_sql"),
    ("can you walk me through select origin, max(dep_delay) from flights group by origin", "explain_sql", "explain_sql"),
    ("SELECT origin, count(*) FROM flights GROUP BY origin", "explain_sql", "explain_sql"),
    # run pasted SQL
    ("run this: SELECT origin, count(*) FROM flights GROUP BY origin", EXECUTE, EXECUTE),
    # glossary and how-to
    ("how do I use /fixsql?", "datasuite_faq", "datasuite_faq"),
    ("what is a cancelled flight?", "datasuite_faq", "datasuite_faq"),
    ("what does dep_delay mean", "datasuite_faq", "datasuite_faq"),
    ("how can i see the sql before it runs", "datasuite_faq", "datasuite_faq"),
    ("what can you do?", "datasuite_faq", "datasuite_faq"),
    ("define on-time", "datasuite_faq", "datasuite_faq"),
    # logs
    ("show me error logs for the checkout service", "search_log", "search_log"),
    ("logql for timeouts in payments api in the last 15 minutes", "search_log", "search_log"),
    ("how many 5xx errors did the gateway service log per minute", "search_log", "search_log"),
    ("grep loki for 'connection refused' in namespace prod", "search_log", "search_log"),
    # out of scope
    ("write me a poem about autumn", "reject_out_of_scope", "reject_out_of_scope"),
    ("what's the capital of france", "reject_out_of_scope", "reject_out_of_scope"),
    ("book me a flight to boston tomorrow", "reject_out_of_scope", "reject_out_of_scope"),
    ("asdfgh qwerty zxcv", "reject_out_of_scope", "reject_out_of_scope"),
    ("who will win the election", "reject_out_of_scope", "reject_out_of_scope"),
]


@pytest.mark.parametrize("text,tool,final_intent", CASES, ids=[c[0][:40] for c in CASES])
async def test_routes_to_the_right_tool(route, text, tool, final_intent):
    routed = await route(text)
    assert (routed.tool, routed.args.get("final_intent")) == (tool, final_intent)


def test_table_is_large_enough():
    assert len(CASES) >= 40


async def test_greeting_and_empty_messages_get_a_direct_answer(route):
    assert (await route("hi!")).tool is None
    assert "data question" in (await route("   ")).text


async def test_short_yes_runs_waiting_sql_and_otherwise_says_nothing_waits(route):
    runs = await route("go ahead", previous_question="flights by origin", has_sql_to_run=True)
    assert runs.tool == EXECUTE and runs.args["user_question"] == "flights by origin"
    idle = await route("go ahead")
    assert idle.tool is None and "nothing waiting" in idle.text


async def test_follow_up_is_rewritten_from_the_previous_question(route):
    routed = await route("now by month", previous_question="average departure delay at JFK")
    assert routed.tool == "data_discovery"
    assert routed.args["user_question"] == "average departure delay at JFK" + FOLLOW_UP_MARK + "now by month"


def test_split_sql_reads_fences_and_error_text():
    sql, words, error = split_sql("fix ```select 1 form t``` -- syntax error near form")
    assert sql == "select 1 form t" and "fix" in words and error == "syntax error near form"


async def test_as_the_seeds_router_it_takes_each_next_step(make_assistant, offline_context):
    """Asked after every tool (the seeds' flow), the offline router proposes the next step from the tool's
    result; read from the message instead of its content, the result looked empty and the run ended after
    discovery with "Done."."""
    assistant = make_assistant(offline_context.model, dispatch_strategy="llm", confirm_before_run=False)
    reply = await assistant.reply(assistant.ask("offline-seeds", "How many flights per origin airport?"))
    assert reply.error is None and sorted(r[0] for r in reply.rows) == ["EWR", "JFK", "LGA"]
    assert reply.tools == ["data_discovery", "generate_sql", EXECUTE]


def test_the_offline_model_binds_the_router_s_tools_by_name_without_converting_their_schemas(monkeypatch):
    """It reads only a bound tool's name; converting the router's tools to OpenAI schemas cost a command
    line's only turn ~0.03 CPU-s. A schema that is not a tool (a structured answer's) is still converted."""
    from pydantic import BaseModel

    from agent.llm import offline
    from agent.tools.registry import ALL_TOOLS

    class Answer(BaseModel):
        text: str

    converted: list[object] = []
    real = offline.convert_to_openai_tool
    monkeypatch.setattr(offline, "convert_to_openai_tool", lambda tool: converted.append(tool) or real(tool))
    bound = offline.OfflineChatModel().bind_tools([*ALL_TOOLS, Answer])
    tools = bound.kwargs["tools"]  # type: ignore[attr-defined]
    assert [t["function"]["name"] for t in tools] == [*(tool.name for tool in ALL_TOOLS), "Answer"]
    assert converted == [Answer]


def test_the_offline_model_keeps_nothing_of_the_forms_each_structured_answer_hands_it():
    """Every structured answer (a question's SemanticParse) hands the model a form made for the call
    (`steps.tool_form`); keeping each conversion by the form's id kept one form per question for good,
    the in-process soak's steady growth (issue 22). A class's conversion lives as long as the class."""
    from agent.llm import offline
    from agent.text2sql.steps import tool_form
    from agent.tools.semantic import SemanticParse

    model = offline.OfflineChatModel()
    model.with_structured_output(tool_form(SemanticParse, model), method="function_calling")
    kept = len(offline._SCHEMAS)
    for _ in range(50):
        bound = model.with_structured_output(tool_form(SemanticParse, model), method="function_calling")
    assert len(offline._SCHEMAS) == kept
    assert bound.first.kwargs["tools"] == [{"type": "function", "function": {"name": "SemanticParse"}}]  # type: ignore[attr-defined]


async def test_asking_how_an_answer_was_worked_out_explains_it(route):
    answered = ("SELECT origin, COUNT(*) FROM flights GROUP BY origin", "Number of flights by origin airport")
    for said in ("how did you work that out?", "how'd you figure that out", "how did you come up with these"):
        routed = await route(said, previous_question="flights by origin", last_answer=answered)
        assert routed.tool == "explain_sql", said
