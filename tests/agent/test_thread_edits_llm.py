"""With an LLM (scripted here), a follow-up reaches the semantic step with the thread's last reading as
JSON; the intent it returns goes through the same checks and compiles to the right rows."""

from __future__ import annotations

import json

from langchain_core.messages import HumanMessage, SystemMessage

from agent.supervisor.prompt import ROUTER_SYSTEM_PROMPT
from agent.tools.semantic import semantic_prompt
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
