"""What LangGraph hands every tool: the agent's context and the supervisor's state, both typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langgraph.prebuilt import ToolRuntime
from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from agent.context import AgentContext

if TYPE_CHECKING:
    from agent.tools.state import CommonAgentState

    ToolRun = ToolRuntime[AgentContext, CommonAgentState]
else:
    # The same state at run time; said without it because LangChain builds a pydantic schema of each
    # tool's parameters, and pydantic cannot read a typing.TypedDict on Python 3.11.
    class ToolRun(ToolRuntime[AgentContext]):
        @classmethod
        def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
            """LangChain validates a tool's input and then dumps it on every call only to learn the field
            names. Dumped as a dataclass, the runtime is walked whole: the state's messages and the
            config, whose LangGraph internals hold the run context again (its settings, catalog and
            semantic model), 1-2 ms a call, on the event loop. It is checked by type and dumped as nothing."""
            return core_schema.is_instance_schema(
                ToolRuntime, serialization=core_schema.plain_serializer_function_ser_schema(lambda _: None)
            )
