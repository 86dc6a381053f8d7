"""The tool-call ledgers in the state: a step files its call in new maps over the earlier entries,
which are shared, never copied again and never edited (issue 23: both ledgers were deep-copied at
every step, every earlier result and its rows with them)."""

from __future__ import annotations

import copy

from agent.tools.state import empty_tool_call_info
from agent.supervisor.calls import record_call, record_output


def _state() -> dict:
    rows = [[f"carrier {i}", i] for i in range(200)]
    earlier = {"final_intent": "execute_sql_and_analyze_result", "sql": "SELECT 1", "rows": rows}
    session, chat = empty_tool_call_info(), empty_tool_call_info()
    for info in (session, chat):
        info["tool_call_name_mapping"]["c1"] = "execute_sql_and_analyze_result"
        info["tool_call_input_mapping"]["c1"] = {"user_question": "flights by carrier"}
    chat["tool_call_output_mapping"]["c1"] = earlier
    session["tool_call_output_mapping"]["c1"] = {k: v for k, v in earlier.items() if k != "rows"}
    return {"session_tool_call_info": session, "chat_tool_call_info": chat}


def test_filing_an_output_shares_the_earlier_entries_and_leaves_the_state_as_it_was():
    state = _state()
    before = copy.deepcopy(state)
    update = record_output(state, "c2", "generate_sql", {"final_intent": "generate_sql", "sql": "SELECT 2"})
    for ledger in ("session_tool_call_info", "chat_tool_call_info"):
        filed, old = update[ledger], state[ledger]
        assert filed["tool_call_output_mapping"]["c2"]["sql"] == "SELECT 2"
        assert filed["tool_call_name_mapping"] == {"c1": "execute_sql_and_analyze_result", "c2": "generate_sql"}
        # the earlier result is the same object, not a copy of it and its rows
        assert filed["tool_call_output_mapping"]["c1"] is old["tool_call_output_mapping"]["c1"]
        assert filed["tool_call_input_mapping"]["c1"] is old["tool_call_input_mapping"]["c1"]
        # new maps: what the state (and a checkpoint sharing it) holds is not edited
        assert filed["tool_call_output_mapping"] is not old["tool_call_output_mapping"]
    assert state == before
    assert "rows" not in update["session_tool_call_info"]["tool_call_output_mapping"]["c2"]


def test_filing_a_call_keeps_its_arguments_apart_from_the_message():
    state = _state()
    before = copy.deepcopy(state)
    call = {"id": "c2", "name": "generate_sql", "args": {"user_question": "now by month", "reading": {"metrics": ["n"]}}}
    update = record_call(state, call)
    filed = update["chat_tool_call_info"]["tool_call_input_mapping"]["c2"]
    assert filed == call["args"] and filed is not call["args"]
    call["args"]["reading"]["metrics"].append("m")  # the message's arguments, changed afterwards
    assert filed["reading"] == {"metrics": ["n"]}
    assert update["session_tool_call_info"]["tool_call_input_mapping"]["c1"] is (
        state["session_tool_call_info"]["tool_call_input_mapping"]["c1"])
    assert state == before
