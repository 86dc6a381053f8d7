"""The tool registry: one spec per tool, and everything keyed by tool derived from the specs."""

from __future__ import annotations

from typing import get_args

from agent.supervisor.prompt import router_system_prompt
from agent.tools.registry import ALL_TOOLS, DIRECT_AGENTS, SPECS, STEP_LABELS, TERMINAL_TOOLS, TOOLS
from agent.tools.spec import FinalIntent, ToolName, new_tool_call_id, tool_call


def test_each_tool_has_its_own_spec_and_every_name_is_registered():
    assert [tool.name for tool, spec in TOOLS] == [spec.name for tool, spec in TOOLS]
    assert set(SPECS) == set(ToolName) and len(ALL_TOOLS) == len(ToolName)


def test_final_intents_are_every_tool_but_asking_the_person():
    assert set(get_args(FinalIntent)) == {str(name) for name in ToolName} - {ToolName.ASK_HUMAN}


def test_direct_agents_and_terminal_tools_come_from_the_specs():
    assert DIRECT_AGENTS == {"Fix SQL Agent", "Explain SQL Agent", "Logify Agent", "Data Suite Expert",
                             "Data Discovery", "Chat BI Agent"}
    assert TERMINAL_TOOLS == {"explain_sql", "datasuite_faq", "search_log", "reject_out_of_scope"}
    assert STEP_LABELS["fix_sql"] == SPECS[ToolName.FIX_SQL].label and set(STEP_LABELS) == set(SPECS)


def test_the_router_prompt_lists_every_tool_once():
    prompt = router_system_prompt(session_id="s", user=None, locale="en-US", dialect="presto")
    for spec in SPECS.values():
        assert prompt.count(f"- {spec.name}: {spec.prompt_line}") == 1


def test_tool_calls_carry_plain_strings_and_fresh_ids():
    call = tool_call(ToolName.EXECUTE, {"final_intent": ToolName.EXECUTE})
    assert type(call["name"]) is str and type(call["args"]["final_intent"]) is str
    assert call["id"].startswith("call_") and new_tool_call_id() != new_tool_call_id()
