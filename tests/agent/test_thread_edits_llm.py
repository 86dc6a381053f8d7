"""With an LLM (scripted here), a follow-up reaches the semantic step with the thread's last reading as
JSON; the intent it returns goes through the same checks and compiles to the right rows."""

from __future__ import annotations

import json

from langchain_core.messages import HumanMessage, SystemMessage

from agent.supervisor.prompt import ROUTER_SYSTEM_PROMPT
from agent.tools.semantic import semantic_prompt
from agent.tools.thread import EDIT_RULES
from tests.support.scripted_model import ScriptedChatModel, tool_call

EXECUTE = "execute_sql_and_analyze_result"
JFK = {"metrics": ["flight_count"], "dimensions": ["carrier"], "filters": [{"field": "origin", "values": ["JFK"]}]}


def scripted(offline_context, seen: list[str]) -> ScriptedChatModel:
    semantic_first_line = semantic_prompt(offline_context).splitlines()[0]
    router_first_line = ROUTER_SYSTEM_PROMPT.splitlines()[0]

    def answer(messages):
        first = messages[0].content.splitlines()[0] if isinstance(messages[0], SystemMessage) else ""
        asked = next(str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage))
        if first == router_first_line:  # an LLM router rewrites a follow-up to stand on its own
            standalone = "number of flights by carrier from EWR" if asked == "now for EWR" else asked
            return tool_call("data_discovery", {"user_question": standalone, "final_intent": EXECUTE})
        if first == semantic_first_line:
            seen.append(asked)
            if "previous question of this thread" not in asked:
                return {"intent": JFK}
            previous = json.loads(asked.splitlines()[1])
            edited = {**previous, "filters": [{"field": "origin", "values": ["EWR"]}]}  # what an LLM would do
            return {"intent": edited}
        return {"answer": "Here it is.", "insights": []}

    return ScriptedChatModel([answer] * 16)


async def test_the_llm_gets_the_last_reading_and_returns_the_edited_intent(make_assistant, offline_context):
    seen: list[str] = []
    assistant = make_assistant(scripted(offline_context, seen))
    await assistant.reply(assistant.ask("llm-thread", "number of flights by carrier from JFK"))
    await assistant.reply(assistant.resume("llm-thread", "run"))
    await assistant.reply(assistant.ask("llm-thread", "now for EWR"))
    answer = await assistant.reply(assistant.resume("llm-thread", "run"))
    previous = json.loads(seen[-1].splitlines()[1])
    assert previous["filters"] == JFK["filters"] and seen[-1].endswith("Message: number of flights by carrier from EWR")
    expected = offline_context.warehouse.run(
        "SELECT carrier, count(*) FROM flights WHERE origin = 'EWR' GROUP BY carrier").rows
    assert sorted(map(tuple, answer.rows)) == sorted(map(tuple, expected))


def scripted_edits(offline_context, seen: list[str], routed: list[str], edit_for: dict[str, tuple[str, dict]]
                   ) -> ScriptedChatModel:
    """An LLM whose router rewrites a follow-up to stand on its own and whose semantic step states it as
    an edit of the last reading (`edit_for`: message -> (rewrite, edit)); anything else is a question of
    its own (JFK by carrier). `routed` keeps the router's system prompts."""
    rewrites = {said: rewrite for said, (rewrite, _) in edit_for.items()}
    edit_of = {rewrite: edit for rewrite, edit in edit_for.values()}
    semantic_first_line = semantic_prompt(offline_context).splitlines()[0]
    router_first_line = ROUTER_SYSTEM_PROMPT.splitlines()[0]

    def answer(messages):
        first = messages[0].content.splitlines()[0] if isinstance(messages[0], SystemMessage) else ""
        asked = next(str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage))
        if first == router_first_line:
            routed.append(str(messages[0].content))
            return tool_call("data_discovery", {"user_question": rewrites.get(asked, asked), "final_intent": EXECUTE})
        if first == semantic_first_line:
            seen.append(asked)
            message = asked.rsplit("Message: ", 1)[-1]
            if "previous question of this thread" in asked and message in edit_of:
                return {"edit": edit_of[message]}
            return {"intent": JFK}
        return {"answer": "Here it is.", "insights": []}

    return ScriptedChatModel([answer] * 24)


async def test_the_router_gets_the_last_reading_and_an_edit_goes_through_the_edit_operations(
        make_assistant, offline_context):
    seen: list[str] = []
    routed: list[str] = []
    edit = {"put_filters": [{"field": "origin", "values": ["EWR"]}], "limit": 3}
    rewrite = "top 3 carriers by number of flights from EWR"
    assistant = make_assistant(scripted_edits(offline_context, seen, routed, {"now EWR, top 3": (rewrite, edit)}))
    await assistant.reply(assistant.ask("llm-edit", "number of flights by carrier from JFK"))
    await assistant.reply(assistant.resume("llm-edit", "run"))
    assert "StructuredIntent (JSON)" not in routed[0]  # nothing was read before the first question
    confirm = await assistant.reply(assistant.ask("llm-edit", "now EWR, top 3"))
    reading = json.loads(routed[-1].split("StructuredIntent (JSON): ", 1)[1].splitlines()[0])
    assert reading["filters"] == JFK["filters"] and reading["dimensions"] == ["carrier"]
    # the edit operations' own words on the reading line, before Run
    assert confirm.ask_human is not None and "Same as before, EWR instead of JFK; top 3" in confirm.ask_human.question
    answer = await assistant.reply(assistant.resume("llm-edit", "run"))
    expected = offline_context.warehouse.run(
        "SELECT carrier, count(*) n FROM flights WHERE origin = 'EWR' GROUP BY carrier ORDER BY n DESC LIMIT 3").rows
    assert sorted(map(tuple, answer.rows)) == sorted(map(tuple, expected))


async def test_a_question_of_its_own_is_read_fresh_and_an_impossible_edit_is_said(make_assistant, offline_context):
    seen: list[str] = []
    routed: list[str] = []
    impossible = {"aggregation": "median"}  # the model has no median of the flight count
    rewrite = "median number of flights by carrier from JFK"
    assistant = make_assistant(scripted_edits(offline_context, seen, routed, {"the median instead": (rewrite, impossible)}))
    await assistant.reply(assistant.ask("llm-fresh", "number of flights by carrier from JFK"))
    await assistant.reply(assistant.resume("llm-fresh", "run"))
    refused = await assistant.reply(assistant.ask("llm-fresh", "the median instead"))
    assert refused.ask_human is None and not refused.rows
    assert "no median of number of flights" in refused.text
    fresh = await assistant.reply(assistant.ask("llm-fresh", "how many flights did each carrier fly from JFK"))
    assert fresh.ask_human is not None and "Same as before" not in fresh.ask_human.question


def reading_router(offline_context, seen: list[str], routed: list[str], edit_for: dict[str, tuple[str, dict]]
                   ) -> ScriptedChatModel:
    """An LLM router that reads the question in the call that routes it (`reading`), as its prompt asks:
    a follow-up in `edit_for` (message -> (rewrite, edit)) as an edit of the last reading, anything else as
    JFK by carrier. The semantic step is never needed; `seen` records it if it is asked all the same."""
    semantic_first_line = semantic_prompt(offline_context).splitlines()[0]
    router_first_line = ROUTER_SYSTEM_PROMPT.splitlines()[0]

    def answer(messages):
        first = messages[0].content.splitlines()[0] if isinstance(messages[0], SystemMessage) else ""
        asked = next(str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage))
        if first == router_first_line:
            routed.append(str(messages[0].content))
            rewrite, edit = edit_for.get(asked, (asked, None))
            reading = {"edit": edit} if edit is not None else {"intent": JFK}
            return tool_call("data_discovery", {"user_question": rewrite, "final_intent": EXECUTE, "reading": reading})
        if first == semantic_first_line:
            seen.append(asked)
            return {"intent": JFK}
        return {"answer": "Here it is.", "insights": []}

    return ScriptedChatModel([answer] * 8)


async def test_the_router_reads_a_follow_up_as_an_edit_in_the_same_call(make_assistant, offline_context):
    seen: list[str] = []
    routed: list[str] = []
    edit = {"put_filters": [{"field": "origin", "values": ["EWR"]}], "limit": 3}
    rewrite = "top 3 carriers by number of flights from EWR"
    assistant = make_assistant(reading_router(offline_context, seen, routed, {"now EWR, top 3": (rewrite, edit)}))
    first = await assistant.reply(assistant.ask("llm-read", "number of flights by carrier from JFK"))
    await assistant.reply(assistant.resume("llm-read", "run"))
    confirm = await assistant.reply(assistant.ask("llm-read", "now EWR, top 3"))
    answer = await assistant.reply(assistant.resume("llm-read", "run"))
    assert seen == [] and first.llm_calls == 1 and confirm.llm_calls == 1  # each question read by its routing call
    assert semantic_prompt(offline_context).splitlines()[1] in routed[0]  # the model's names, for `reading`
    assert "StructuredIntent (JSON)" not in routed[0] and EDIT_RULES not in routed[0]
    assert EDIT_RULES in routed[1]  # how `reading` states a follow-up, beside the last reading
    assert confirm.ask_human is not None and "Same as before, EWR instead of JFK; top 3" in confirm.ask_human.question
    expected = offline_context.warehouse.run(
        "SELECT carrier, count(*) n FROM flights WHERE origin = 'EWR' GROUP BY carrier ORDER BY n DESC LIMIT 3").rows
    assert sorted(map(tuple, answer.rows)) == sorted(map(tuple, expected))


async def test_an_llm_edit_to_a_year_the_data_lacks_is_declined_as_offline(make_assistant, offline_context):
    seen: list[str] = []
    routed: list[str] = []
    edit = {"time": {"year": 2014}}  # the demo's flights are 2013 only
    assistant = make_assistant(scripted_edits(offline_context, seen, routed,
                                              {"and in 2014?": ("number of flights by carrier from JFK in 2014", edit)}))
    await assistant.reply(assistant.ask("llm-year", "number of flights by carrier from JFK"))
    await assistant.reply(assistant.resume("llm-year", "run"))
    declined = await assistant.reply(assistant.ask("llm-year", "and in 2014?"))
    assert declined.ask_human is None and not declined.rows and not declined.columns
    assert "2013" in declined.text and "2014" in declined.text
