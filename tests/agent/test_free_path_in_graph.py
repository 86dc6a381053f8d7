"""A question the semantic model cannot express goes down the free path with an LLM, and each
[PLACEHOLDER] in its SQL is asked in turn before anything runs."""

from __future__ import annotations

from langchain_core.messages import SystemMessage

from agent.supervisor.prompt import ROUTER_SYSTEM_PROMPT
from agent.tools.semantic import semantic_prompt
from tests.support.scripted_model import ScriptedChatModel, tool_call
from tests.text2sql.conftest import STEP_PROMPTS, StepModel, divide_and_conquer_answers, plan_and_reflect_answers

EXECUTE = "execute_sql_and_analyze_result"
SQL = "SELECT count(*) AS n FROM flights WHERE carrier = '[CARRIER]' AND month = [MONTH]"
QUESTION = "How many flights did the airline fly that month?"
FREE_PATH_FIRST_LINES = {template.splitlines()[0] for template in STEP_PROMPTS.values()}


def graph_model(offline_context) -> ScriptedChatModel:
    free_path = StepModel({**plan_and_reflect_answers(SQL), **divide_and_conquer_answers(SQL)})
    semantic_first_line = semantic_prompt(offline_context).splitlines()[0]
    router_first_line = ROUTER_SYSTEM_PROMPT.splitlines()[0]

    def answer(messages):
        first = messages[0].content.splitlines()[0] if isinstance(messages[0], SystemMessage) else ""
        if first == router_first_line:
            return tool_call("data_discovery", {"user_question": QUESTION, "final_intent": EXECUTE})
        if first == semantic_first_line:
            return {"cannot_express": "no metric for 'that month' without a month"}
        if first.splitlines() and first in FREE_PATH_FIRST_LINES:
            return free_path._answer(messages)
        return {"answer": "UA flew that many flights in July.", "insights": []}  # the ChatBI narrative

    return ScriptedChatModel([answer] * 9)


async def test_placeholders_are_asked_one_by_one_then_the_filled_sql_runs(make_assistant, offline_context):
    assistant = make_assistant(graph_model(offline_context))
    first = await assistant.reply(assistant.ask("free-1", QUESTION))
    assert first.ask_human.kind == "clarify" and "carrier" in first.ask_human.question.lower()
    assert "UA" in [o.value for o in first.ask_human.options]

    second = await assistant.reply(assistant.resume("free-1", "UA"))
    assert second.ask_human.kind == "clarify" and "month" in second.ask_human.question.lower()

    confirm = await assistant.reply(assistant.resume("free-1", "7"))
    assert confirm.ask_human.kind == "confirm_sql"
    assert "carrier = 'UA'" in confirm.sql and "month = 7" in confirm.sql

    answer = await assistant.reply(assistant.resume("free-1", "run"))
    expected = offline_context.warehouse.run("SELECT count(*) FROM flights WHERE carrier = 'UA' AND month = 7")
    assert answer.rows == [list(expected.rows[0])]
