"""The real ChatOpenAI client, built from settings, against a local OpenAI-compatible server."""

from __future__ import annotations

import dataclasses

from pydantic import SecretStr

from agent.api import Assistant
from agent.llm import build_chat_model
from agent.llm.reader import RunReader
from tests.support.openai_stub import OpenAIStub, error_body, text_body, tool_call_body

FIX = {"sql": "SELECT count(*) FORM flights", "final_intent": "fix_sql"}


def assistant_for(offline_context, stub, **overrides):
    settings = offline_context.settings.model_copy(
        update={"openai_api_key": SecretStr("sk-test"), "openai_base_url": stub.base_url, "llm_timeout_s": 5.0,
                "llm_max_retries": 2, **overrides}
    )
    model = build_chat_model(settings, reader_for=RunReader)
    return Assistant(dataclasses.replace(offline_context, settings=settings, model=model))


async def test_tool_call_round_trip_with_prompt_cache_key(offline_context):
    async with OpenAIStub([(200, tool_call_body("fix_sql", FIX), 0)]) as stub:
        reply = await (a := assistant_for(offline_context, stub)).reply(a.ask("oa-1", "fix SELECT count(*) FORM flights"))
    assert reply.error is None and "FROM flights" in reply.sql and reply.llm_calls == 1
    sent = stub.requests[0]
    assert {t["function"]["name"] for t in sent["tools"]} >= {"fix_sql", "data_discovery", "ask_human"}
    assert sent["prompt_cache_key"] == "oa-1"
    assert sent["messages"][0]["role"] == "system" and sent["messages"][-1]["content"].startswith("fix")


async def test_rate_limit_then_success(offline_context):
    steps = [(429, error_body(429, "slow down"), 0), (200, tool_call_body("fix_sql", FIX), 0)]
    async with OpenAIStub(steps) as stub:
        reply = await (a := assistant_for(offline_context, stub)).reply(a.ask("oa-2", "fix it"))
    assert reply.error is None and len(stub.requests) == 2


async def test_server_errors_until_retries_run_out_give_a_clear_error(offline_context):
    steps = [(500, error_body(500, "boom"), 0)] * 3
    async with OpenAIStub(list(steps)) as stub:
        a = assistant_for(offline_context, stub, llm_max_retries=1)
        reply = await a.reply(a.ask("oa-3", "how many flights?"))
    assert reply.error == "The language model service had an error. Please try again in a moment."
    assert len(stub.requests) == 2 and reply.request_id


async def test_timeout_gives_a_clear_error_and_the_session_stays_usable(offline_context):
    steps = [(200, text_body("late"), 2.0), (200, text_body("Hello!"), 0)]
    async with OpenAIStub(steps) as stub:
        a = assistant_for(offline_context, stub, llm_timeout_s=0.3, llm_max_retries=0)
        slow = await a.reply(a.ask("oa-4", "hello"))
        again = await a.reply(a.ask("oa-4", "hello again"))
    assert "took too long" in slow.error
    assert again.error is None and again.text == "Hello!"


async def test_malformed_arguments_are_retried_through_validation(offline_context):
    steps = [
        (200, tool_call_body("fix_sql", '{"sql": "SELECT 1",'), 0),  # not JSON
        (200, tool_call_body("fix_sql", {"sql_dialect": "presto"}), 0),  # `sql` missing
        (200, tool_call_body("fix_sql", FIX), 0),
    ]
    async with OpenAIStub(steps) as stub:
        reply = await (a := assistant_for(offline_context, stub)).reply(a.ask("oa-5", "fix SELECT count(*) FORM flights"))
    assert reply.error is None and "FROM flights" in reply.sql
    assert reply.llm_calls == 3
    retry_feedback = [m for m in stub.requests[-1]["messages"] if m["role"] == "tool"]
    assert any("validation error" in m["content"] for m in retry_feedback)


async def test_a_data_question_is_two_requests_the_routing_call_reads_it(offline_context):
    """Through the real client: the router's data_discovery call carries the question's reading, so the
    only other request is the narrative. A third request would get the stub's 'script exhausted' error."""
    reading = {"intent": {"metrics": ["flight_count"], "dimensions": ["origin"]}}
    route = {"user_question": "flights per origin", "final_intent": "execute_sql_and_analyze_result", "reading": reading}
    steps = [(200, tool_call_body("data_discovery", route), 0),
             (200, tool_call_body("Narrative", {"answer": "EWR had the most flights.", "insights": []}), 0)]
    async with OpenAIStub(steps) as stub:
        a = assistant_for(offline_context, stub)
        a = Assistant(dataclasses.replace(a.context, options={"confirm_before_run": False}))
        reply = await a.reply(a.ask("oa-6", "How many flights per origin airport?"))
    assert reply.error is None and sorted(r[0] for r in reply.rows) == ["EWR", "JFK", "LGA"]
    assert reply.llm_calls == 2 and len(stub.requests) == 2
    discovery = next(t["function"] for t in stub.requests[0]["tools"] if t["function"]["name"] == "data_discovery")
    assert "reading" in discovery["parameters"]["properties"]
    assert "Reading a data question" in stub.requests[0]["messages"][0]["content"]
