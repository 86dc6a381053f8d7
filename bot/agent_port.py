"""The slice of the agent's public API the bot calls (agent.api.Assistant satisfies it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol

from agent.api import AgentReply, AskHuman, Chart, ChatContext, Event, LearnOffer, SuggestedPrompt

AgentEvent = Event


class AgentPort(Protocol):
    def ask(self, session_id: str, text: str, context: ChatContext | None = None) -> AsyncIterator[AgentEvent]: ...

    def resume(
        self, session_id: str, choice: str, context: ChatContext | None = None, *, edited_sql: str | None = None
    ) -> AsyncIterator[AgentEvent]: ...

    def run_tool(
        self, session_id: str, agent_name: str, args: dict[str, Any], context: ChatContext | None = None
    ) -> AsyncIterator[AgentEvent]: ...

    async def draw_chart(self, reply: AgentReply) -> Chart | None:
        """The reply's chart with its PNG (None when it could not be drawn), asked for once the answer is posted."""

    async def pending(self, session_id: str) -> AskHuman | None: ...

    async def may_answer(self, session_id: str, context: ChatContext) -> bool: ...

    async def save_verified(self, session_id: str, context: ChatContext) -> AgentReply:
        """Keep the thread's last answered question and its reading as a verified query (a 👍)."""

    async def learn_word(self, session_id: str, offer: LearnOffer, context: ChatContext) -> AgentReply:
        """Remember a word for the workspace, if the access policy lets this person teach it."""

    def suggested_prompts(self, n: int = 4, context: ChatContext | None = None) -> list[SuggestedPrompt]: ...
    async def health(self) -> dict[str, Any]:
        """`warehouse` ("up" or why not) and `wedged` (its slots all held by work that would not stop)."""
