"""What LangGraph hands every tool: the agent's context and the supervisor's state, both typed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph.prebuilt import ToolRuntime

from agent.context import AgentContext

if TYPE_CHECKING:
    from agent.state import CommonAgentState

    ToolRun = ToolRuntime[AgentContext, CommonAgentState]
else:
    # The same state at run time; said without it because LangChain builds a pydantic schema of each
    # tool's parameters, and pydantic cannot read a typing.TypedDict on Python 3.11.
    ToolRun = ToolRuntime[AgentContext]
