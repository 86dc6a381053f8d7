"""Every tool the supervisor has, with its ToolSpec, and the views the graph reads from them.

Adding a tool: write its module (the async function and its SPEC) and list both in TOOLS;
the graph, the router prompt, progress labels and direct calls read everything from the spec.
"""

from langchain_core.tools import BaseTool

from agent.tools import discovery, faq, human, logs, scope, sql_tools
from agent.tools.spec import COMMON_AGENT, EXECUTE, ToolName, ToolSpec

# In the order the router LLM sees them.
TOOLS: list[tuple[BaseTool, ToolSpec]] = [
    (human.ask_human, human.SPEC),
    (discovery.data_discovery, discovery.SPEC),
    (sql_tools.generate_sql, sql_tools.GENERATE_SQL),
    (sql_tools.fix_sql, sql_tools.FIX_SQL),
    (sql_tools.explain_sql, sql_tools.EXPLAIN_SQL),
    (sql_tools.execute_sql_and_analyze_result, sql_tools.EXECUTE_SQL),
    (faq.datasuite_faq, faq.SPEC),
    (logs.search_log, logs.SPEC),
    (scope.reject_out_of_scope, scope.SPEC),
]

ALL_TOOLS = [tool for tool, _ in TOOLS]
SPECS: dict[str, ToolSpec] = {spec.name: spec for _, spec in TOOLS}
# ask_human is answered by the human node, never run.
EXECUTABLE_TOOLS = [tool for tool, spec in TOOLS if spec.name != ToolName.ASK_HUMAN]
AGENT_NAME_BY_TOOL = {str(name): spec.agent_name for name, spec in SPECS.items()}
# Agents a surface can call by name (slash commands, the command line), skipping the router.
DIRECT_SPECS: dict[str, ToolSpec] = {name: spec for spec in SPECS.values() for name in spec.called_by}
DIRECT_AGENTS = set(DIRECT_SPECS)
TERMINAL_TOOLS = {str(name) for name, spec in SPECS.items() if spec.terminal}
# The progress line of each tool's step, read by dispatch as it starts and finishes a step (a table,
# like the views above, not a call into this package at each step); WORKING for a name not listed.
STEP_LABELS = {str(name): spec.label for name, spec in SPECS.items()}
WORKING = "Working…"


# What the router's prompt says each tool is for: the registry is fixed, so it is written once.
CAPABILITIES = "\n".join(f"- {spec.name}: {spec.prompt_line}" for spec in SPECS.values())


__all__ = [
    "ALL_TOOLS",
    "AGENT_NAME_BY_TOOL",
    "CAPABILITIES",
    "COMMON_AGENT",
    "DIRECT_AGENTS",
    "DIRECT_SPECS",
    "EXECUTABLE_TOOLS",
    "EXECUTE",
    "SPECS",
    "STEP_LABELS",
    "TERMINAL_TOOLS",
    "ToolName",
    "ToolSpec",
    "WORKING",
]
