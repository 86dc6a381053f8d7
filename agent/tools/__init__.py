"""The supervisor's tools: small typed async functions; the graph wires them.

Agent names are what `final_intent` is compared with to know a goal is reached.
"""

import warnings

from agent.tools.discovery import data_discovery
from agent.tools.faq import datasuite_faq
from agent.tools.human import ask_human
from agent.tools.logs import search_log
from agent.tools.scope import reject_out_of_scope
from agent.tools.sql_tools import execute_sql_and_analyze_result, explain_sql, fix_sql, generate_sql

# langchain-core dumps validated tool input, injected ToolRuntime included; its schema types
# the run context as None, so every call would warn about our AgentContext. Nothing is lost.
warnings.filterwarnings("ignore", message="Pydantic serializer warnings", category=UserWarning)

ALL_TOOLS = [
    ask_human,
    data_discovery,
    generate_sql,
    fix_sql,
    explain_sql,
    execute_sql_and_analyze_result,
    datasuite_faq,
    search_log,
    reject_out_of_scope,
]
EXECUTABLE_TOOLS = [t for t in ALL_TOOLS if t.name != "ask_human"]

AGENT_NAME_BY_TOOL = {
    "ask_human": "Common Agent",
    "data_discovery": "Data Discovery",
    "generate_sql": "Text2SQL Agent",
    "fix_sql": "Fix SQL Agent",
    "explain_sql": "Explain SQL Agent",
    "execute_sql_and_analyze_result": "Chat BI Agent",
    "datasuite_faq": "Datasuite FAQ Agent",
    "search_log": "Logify Agent",
    "reject_out_of_scope": "Common Agent",
}
TOOL_BY_AGENT_NAME = {agent: tool for tool, agent in AGENT_NAME_BY_TOOL.items() if agent != "Common Agent"}
# Agents a surface can call by name (slash commands, the command line), skipping the router.
DIRECT_AGENTS = {"Fix SQL Agent", "Explain SQL Agent", "Logify Agent", "Data Suite Expert", "Data Discovery", "Chat BI Agent"}
# The seeds' expert agent answers from the same docs as the FAQ tool here.
TOOL_BY_AGENT_NAME["Data Suite Expert"] = "datasuite_faq"

# Tools whose answer is the end of the exchange, whatever the final intent says.
TERMINAL_TOOLS = {"explain_sql", "datasuite_faq", "search_log", "reject_out_of_scope"}

STEP_LABELS = {
    "data_discovery": "Finding tables…",
    "generate_sql": "Writing SQL…",
    "fix_sql": "Fixing the SQL…",
    "explain_sql": "Explaining the SQL…",
    "execute_sql_and_analyze_result": "Running the query…",
    "datasuite_faq": "Looking it up in the docs…",
    "search_log": "Writing the log query…",
    "reject_out_of_scope": "Thinking…",
}
