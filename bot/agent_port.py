"""The slice of the agent's public API the bot calls (agent.api.Assistant satisfies it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol

from agent.reply import AgentReply, AskHuman, ChatContext, Progress

AgentEvent = Progress | AgentReply


class AgentPort(Protocol):
    def ask(self, session_id: str, text: str, ctx: ChatContext) -> AsyncIterator[AgentEvent]: ...

    def resume(
        self, session_id: str, choice: str, ctx: ChatContext, edited_sql: str | None = None
    ) -> AsyncIterator[AgentEvent]: ...

    def run_tool(
        self, session_id: str, agent_name: str, args: dict[str, Any], ctx: ChatContext
    ) -> AsyncIterator[AgentEvent]: ...

    async def pending(self, session_id: str) -> AskHuman | None: ...

    async def health(self) -> dict[str, Any]:
        """`warehouse` ("up" or why not) and `wedged` (its slots all held by work that would not stop)."""
