"""What the supervisor knows about each tool, declared once per tool beside the tool itself.

A tool module exports a `SPEC`; registry.py lists the tools with their specs, and everything
keyed by tool (the router prompt, progress labels, which tools end an exchange, the direct
calls of slash commands) is read from them. Nothing here imports the agent.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal


class ToolName(StrEnum):
    ASK_HUMAN = "ask_human"
    DATA_DISCOVERY = "data_discovery"
    GENERATE_SQL = "generate_sql"
    FIX_SQL = "fix_sql"
    EXPLAIN_SQL = "explain_sql"
    EXECUTE = "execute_sql_and_analyze_result"
    FAQ = "datasuite_faq"
    SEARCH_LOG = "search_log"
    REJECT = "reject_out_of_scope"


EXECUTE = ToolName.EXECUTE

# The goal of a whole exchange, as tools declare it in their argument schema (the LLM sees
# this list); every tool but ask_human can be one. A test checks it matches ToolName.
FinalIntent = Literal[
    "data_discovery",
    "generate_sql",
    "fix_sql",
    "explain_sql",
    "execute_sql_and_analyze_result",
    "datasuite_faq",
    "search_log",
    "reject_out_of_scope",
]
# ToolName.EXECUTE as a goal: what a tool that writes or fixes SQL works towards unless told otherwise.
EXECUTE_GOAL: FinalIntent = "execute_sql_and_analyze_result"



class AgentName(StrEnum):
    """Who answers, as the reply and the surfaces name them. The direct ones (a ToolSpec's `called_by`)
    are what a surface calls by name, skipping the router: `agent.api` exports these names, so a
    surface never spells one (the bot and the command line once copied them as strings)."""

    COMMON = "Common Agent"
    DATA_DISCOVERY = "Data Discovery"
    TEXT2SQL = "Text2SQL Agent"
    FIX_SQL = "Fix SQL Agent"
    EXPLAIN_SQL = "Explain SQL Agent"
    CHAT_BI = "Chat BI Agent"
    FAQ = "Datasuite FAQ Agent"
    DATA_SUITE_EXPERT = "Data Suite Expert"  # the seeds' expert agent: answered by the FAQ tool
    LOGIFY = "Logify Agent"


COMMON_AGENT = str(AgentName.COMMON)


def new_tool_call_id() -> str:
    """Every tool call the agent makes itself (rules, direct calls, the offline model) gets its id here."""
    return "call_" + uuid.uuid4().hex[:24]


def tool_call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    # Calls cross the checkpointer and the LLM: names and enum values go as plain strings.
    plain = {key: str(value) if isinstance(value, StrEnum) else value for key, value in args.items()}
    return {"name": str(name), "args": plain, "id": new_tool_call_id()}


@dataclass(frozen=True)
class DirectRequest:
    """What a surface hands a named agent (a slash command, the command line): no router involved."""

    question: str
    sql: str
    dialect: str
    error: str


@dataclass(frozen=True)
class ToolSpec:
    name: ToolName
    agent_name: str  # who answers, as the reply and the surfaces name it
    label: str  # progress shown while it runs ("Finding tables…")
    prompt_line: str  # its line under "Capabilities" in the router prompt
    # Its answer ends the exchange whatever the final intent says.
    terminal: bool = False
    # How a direct call builds its arguments; None: it cannot be called by name.
    direct_args: Callable[[DirectRequest], dict[str, Any]] | None = None
    # A direct call is the person's decision already (no "Shall I run this?").
    direct_is_confirmed: bool = False
    # The agent names that reach it directly, when not its own.
    direct_names: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        # Plain strings: names cross the checkpointer, the reply and the bot's jobs.
        object.__setattr__(self, "agent_name", str(self.agent_name))
        if self.direct_names is not None:
            object.__setattr__(self, "direct_names", tuple(str(n) for n in self.direct_names))

    @property
    def called_by(self) -> tuple[str, ...]:
        if self.direct_args is None:
            return ()
        return self.direct_names if self.direct_names is not None else (self.agent_name,)
