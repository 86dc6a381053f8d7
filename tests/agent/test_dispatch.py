"""Every dispatch rule of the supervisor, driven by a scripted chat model."""

from __future__ import annotations

import asyncio

from langchain_core.messages import AIMessage, ToolMessage

from agent.api import AgentReply, Progress
from tests.support.scripted_model import ScriptedChatModel, tool_call

EXECUTE = "execute_sql_and_analyze_result"
FLIGHTS_BY_ORIGIN = {"intent": {"metrics": ["flight_count"], "dimensions": ["origin"]}}


def scripted(*steps, prose=False):
    return ScriptedChatModel(list(steps), is_offline=not prose)


async def collect(events):
    items = [item async for item in events]
    assert isinstance(items[-1], AgentReply) and all(isinstance(i, Progress) for i in items[:-1])
    return items[:-1], items[-1]


def metric_names(offline_context):
    return {m.name for m in offline_context.semantic.metrics}


def routed_with_reading(question: str = "flights per origin", final_intent: str = EXECUTE) -> AIMessage:
    """The router's call as the prompt asks an LLM to make it: the question read in the same call."""
    return tool_call("data_discovery", {"user_question": question, "final_intent": final_intent,
                                        "reading": FLIGHTS_BY_ORIGIN})


async def test_data_question_goes_discovery_sql_confirm_run_with_one_router_call(make_assistant, offline_context):
    assert "flight_count" in metric_names(offline_context)
    model = scripted(routed_with_reading())
    assistant = make_assistant(model)
    progress, reply = await collect(assistant.ask("s-data", "How many flights per origin airport?"))
    assert reply.ask_human is not None and reply.ask_human.kind == "confirm_sql"
    assert [o.value for o in reply.ask_human.options] == ["run", "edit", "cancel"]
    assert "origin" in reply.sql.lower()
    assert reply.tools == ["data_discovery", "generate_sql"]
    assert reply.llm_calls == 1  # routing, which read the question too; the step to generate_sql was implied
    assert any(p.label == "Finding tables…" for p in progress)

    _, final = await collect(assistant.resume("s-data", "run"))
    assert final.error is None
    assert final.row_count == 3 and sorted(r[0] for r in final.rows) == ["EWR", "JFK", "LGA"]
    assert final.tools == ["data_discovery", "generate_sql", EXECUTE]
    assert final.llm_calls == 0
    assert model.remaining == 0


async def test_a_data_question_with_an_llm_takes_two_calls_routing_and_the_narrative(make_assistant):
    """The router reads the question in the call that picks discovery; only the narrative is another call.
    A third call (the semantic step reading the question again) would find no answer scripted for it."""
    narrative = {"answer": "EWR had the most flights.", "insights": []}
    model = scripted(routed_with_reading(), narrative, prose=True)
    _, reply = await collect(make_assistant(model, confirm_before_run=False).ask("s-two", "How many flights per origin?"))
    assert reply.error is None and sorted(r[0] for r in reply.rows) == ["EWR", "JFK", "LGA"]
    assert reply.tools == ["data_discovery", "generate_sql", EXECUTE]
    assert reply.llm_calls == 2 and model.remaining == 0
    assert "EWR had the most flights." in reply.text


async def test_a_router_that_gives_no_reading_leaves_it_to_the_semantic_step(make_assistant):
    model = scripted(
        tool_call("data_discovery", {"user_question": "flights per origin", "final_intent": EXECUTE}), FLIGHTS_BY_ORIGIN
    )
    _, reply = await collect(make_assistant(model).ask("s-unread", "How many flights per origin airport?"))
    assert reply.ask_human is not None and "origin" in reply.sql.lower()
    assert reply.llm_calls == 2 and model.remaining == 0  # routing + the semantic step's reading


async def test_the_routers_reading_is_of_its_own_question_only(make_assistant):
    """generate_sql asked about other words than discovery was (the router rewrote them) reads them anew."""
    model = scripted(
        routed_with_reading(final_intent="generate_sql"),
        lambda messages: tool_call("generate_sql", {"user_question": "flights per carrier", "final_intent": "generate_sql",
                                                    "related_table_source_tool_call_id": messages[-1].tool_call_id}),
        {"intent": {"metrics": ["flight_count"], "dimensions": ["carrier"]}},
    )
    _, reply = await collect(make_assistant(model, dispatch_strategy="llm").ask("s-other", "flights per carrier"))
    assert "carrier" in reply.sql.lower() and model.remaining == 0


async def test_a_clarified_question_is_read_anew_not_from_the_routers_reading(make_assistant):
    unclear = {"clarify_question": "What do you mean by “busy”?", "clarify_term": "busy",
               "clarify_options": ["number of flights", "average departure delay"]}
    model = scripted(
        tool_call("data_discovery", {"user_question": "busy origins", "final_intent": EXECUTE, "reading": unclear}),
        FLIGHTS_BY_ORIGIN,
    )
    assistant = make_assistant(model)
    # the reader stopped at a word, not at a choice of table: the word is asked about, no table offered
    _, asked = await collect(assistant.ask("s-clarify", "busy origins"))
    assert asked.ask_human is not None and asked.ask_human.kind == "clarify" and asked.llm_calls == 1
    assert "busy" in asked.ask_human.question
    _, confirm = await collect(assistant.resume("s-clarify", "number of flights"))
    assert confirm.ask_human is not None and confirm.ask_human.kind == "confirm_sql" and "origin" in confirm.sql.lower()
    assert confirm.llm_calls == 1 and model.calls[-1][-1].content == "number of flights origins"


async def test_seed_flow_calls_the_router_after_every_tool(make_assistant):
    model = scripted(
        tool_call("data_discovery", {"user_question": "flights per origin", "final_intent": EXECUTE}),
        lambda messages: tool_call(
            "generate_sql",
            {"user_question": "flights per origin", "final_intent": EXECUTE,
             "related_table_source_tool_call_id": messages[-1].tool_call_id},
        ),
        FLIGHTS_BY_ORIGIN,
        tool_call("execute_sql_and_analyze_result", {"user_question": "flights per origin", "final_intent": EXECUTE}),
    )
    assistant = make_assistant(model, dispatch_strategy="llm", confirm_before_run=False)
    _, reply = await collect(assistant.ask("s-llm", "How many flights per origin airport?"))
    assert reply.error is None and reply.row_count == 3
    assert reply.llm_calls == 4


async def test_sql_only_request_stops_after_generate_sql(make_assistant):
    model = scripted(routed_with_reading(final_intent="generate_sql"))
    _, reply = await collect(make_assistant(model).ask("s-sql", "Write me the SQL for flights per origin"))
    assert reply.ask_human is None and reply.sql and reply.rows == []
    assert reply.tools == ["data_discovery", "generate_sql"]
    assert reply.llm_calls == 1


async def test_confirmation_cancel_runs_nothing(make_assistant):
    model = scripted(tool_call("data_discovery", {"user_question": "flights per origin", "final_intent": EXECUTE}), FLIGHTS_BY_ORIGIN)
    assistant = make_assistant(model)
    await collect(assistant.ask("s-cancel", "flights per origin"))
    _, reply = await collect(assistant.resume("s-cancel", "cancel"))
    assert "Cancelled" in reply.text and reply.rows == []
    assert await assistant.pending("s-cancel") is None


async def test_edit_runs_the_edited_sql_and_refuses_unsafe_edits(make_assistant):
    def steps():
        return [tool_call("data_discovery", {"user_question": "flights per origin", "final_intent": EXECUTE}), FLIGHTS_BY_ORIGIN]

    assistant = make_assistant(scripted(*steps(), *steps()))
    await collect(assistant.ask("s-edit", "flights per origin"))
    _, reply = await collect(assistant.resume("s-edit", "edit", edited_sql="SELECT count(*) AS n FROM airlines"))
    assert reply.error is None and reply.rows == [[16]]

    await collect(assistant.ask("s-edit", "flights per origin"))
    _, refused = await collect(assistant.resume("s-edit", "edit", edited_sql="DROP TABLE flights"))
    assert refused.error_code == "unsafe_sql" and "read-only" in refused.error


async def test_thread_reply_answers_a_pending_confirmation(make_assistant):
    model = scripted(tool_call("data_discovery", {"user_question": "flights per origin", "final_intent": EXECUTE}), FLIGHTS_BY_ORIGIN)
    assistant = make_assistant(model)
    await collect(assistant.ask("s-reply", "flights per origin"))
    _, reply = await collect(assistant.ask("s-reply", "yes, go ahead"))
    assert reply.row_count == 3


async def test_ask_human_pauses_and_the_answer_goes_back_to_the_router(make_assistant):
    model = scripted(
        tool_call("ask_human", {"question": "Which airport?", "options": ["EWR", "JFK"]}),
        AIMessage(content="Thanks, noted."),
    )
    assistant = make_assistant(model)
    _, reply = await collect(assistant.ask("s-ask", "flights from that airport"))
    assert reply.ask_human.kind == "clarify" and [o.value for o in reply.ask_human.options] == ["EWR", "JFK"]
    _, final = await collect(assistant.resume("s-ask", "JFK"))
    assert final.text == "Thanks, noted."
    assert "The person answered: JFK" in model.calls[-1][-1].content


async def test_validation_error_retries_then_succeeds(make_assistant):
    bad = tool_call("explain_sql", {"sql_dialect": "presto"})  # `sql` missing
    good = tool_call("explain_sql", {"sql": "SELECT 1", "final_intent": "explain_sql"})
    model = scripted(bad, good)
    _, reply = await collect(make_assistant(model).ask("s-retry", "explain select 1"))
    assert reply.error is None and reply.text
    # The router was asked twice, and the second time it saw why its first call was refused.
    assert model.remaining == 0 and len(model.calls) == 2
    assert any("validation error" in str(m.content) for m in model.calls[-1] if isinstance(m, ToolMessage))


async def test_validation_errors_give_up_after_three_retries(make_assistant):
    bad = tool_call("explain_sql", {"sql_dialect": "presto"})
    model = scripted(bad, bad, bad, bad)
    _, reply = await collect(make_assistant(model).ask("s-retry-out", "explain it"))
    assert reply.error_code == "validation" and "rephrase" in reply.error
    assert model.remaining == 0


async def test_tool_error_result_ends_the_run_with_its_message(make_assistant):
    model = scripted(tool_call(EXECUTE, {"user_question": "flights per origin", "sql": "SELECT nope FROM flights", "sql_dialect": "duckdb"}))
    _, reply = await collect(make_assistant(model, confirm_before_run=False).ask("s-err", "run it"))
    assert reply.error and "nope" in reply.error and reply.error_code == "sql"


async def test_router_failure_is_a_clear_internal_error_and_the_session_stays_usable(make_assistant):
    model = scripted(RuntimeError("boom"), AIMessage(content="Hello again."))
    assistant = make_assistant(model)
    _, reply = await collect(assistant.ask("s-boom", "hi there"))
    assert reply.error and "Traceback" not in reply.error and reply.request_id
    _, again = await collect(assistant.ask("s-boom", "hello?"))
    assert again.text == "Hello again."


async def test_discovery_without_tables_responds_with_what_exists(make_assistant):
    model = scripted(tool_call("data_discovery", {"user_question": "zxqv wplk", "final_intent": EXECUTE}))
    _, reply = await collect(make_assistant(model).ask("s-none", "zxqv wplk"))
    assert reply.tools == ["data_discovery"] and "could not find" in reply.text.lower()


async def test_deadline_ends_the_run_with_a_clear_message(make_assistant, settings):
    class Slow(ScriptedChatModel):
        async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs):
            await asyncio.sleep(5)

    fast_settings = settings.model_copy(update={"max_execute_second": 0.3})
    assistant = make_assistant(Slow([]), settings=fast_settings)
    _, reply = await collect(assistant.ask("s-slow", "anything"))
    assert reply.error_code == "deadline" and "longer than 0.3 seconds" in reply.error


async def test_direct_fix_uses_no_router_call(make_assistant):
    model = scripted()
    _, reply = await collect(
        make_assistant(model).run_tool("s-fix", "Fix SQL Agent", {"sql": "SELECT count(*) FORM flights"})
    )
    assert reply.error is None and "FROM flights" in reply.sql.replace("\n", " ")
    assert reply.llm_calls == 0 and reply.tools == ["fix_sql"]
