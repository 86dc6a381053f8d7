"""The dialogue state of a thread: the last reading, and a new message read as an edit of it.

The last reading is the intent of the thread's latest `generate_sql` output (kept in the session's
tool-call ledger, so it lives in the checkpoint with the rest of the session; a cancelled query's
reading counts, so "sorry, I meant LGA" after Cancel edits it). Offline, `follow_up.read_follow_up`
does the reading; with an LLM, the model gets the previous reading as JSON and returns the whole
new intent, which goes through the same checks as any other.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent.budget import steps
from agent.context import AgentContext
from agent.semantic.intent import StructuredIntent
from agent.state import FOLLOW_UP_MARK, CommonAgentState
from agent.tools.results import latest_output

if TYPE_CHECKING:
    from agent.semantic.follow_up import FollowUp

# "give me the SQL", "just the query": a request for the SQL, not words of the data question.
ASKING_FOR_SQL = re.compile(
    r"\b(?:(?:write|give|generate|draft|build|create|show|need|want)\s+(?:me\s+)?(?:the\s+|a\s+|an\s+)?)?"
    r"(?:sql|query|queries|select statement)(?:\s+(?:for|to get|to find|that|which|to))?\b",
    re.I,
)
_NOTHING_ELSE = re.compile(r"^[\W_]*(?:(?:just|only|please|ok|okay|now|then|and|so|the|it|for|that|this|instead)[\W_]*)*$",
                           re.I)


@dataclass
class InThread:
    """How this turn's message stands to the thread's last reading."""

    question: str  # what the reader should read when the reading is not given
    intent: StructuredIntent | None = None  # the edited (or repeated) reading
    changes: list[str] = field(default_factory=list)
    chart: str | None = None
    unread: list[str] = field(default_factory=list)
    refusal: str | None = None  # the edit cannot be made: said to the person, nothing else is guessed
    llm_message: str | None = None  # for an LLM: the question with the last reading as JSON

    def changed_line(self) -> str:
        return f"Same as before, {'; '.join(self.changes)}. " if self.changes else ""


def previous_reading(state: CommonAgentState) -> StructuredIntent | None:
    found = latest_output(state, ("generate_sql",), with_key="intent")
    return StructuredIntent.model_validate(found[1]["intent"]) if found else None


def previous_for_llm(previous: StructuredIntent, message: str) -> str:
    """The LLM's view of a follow-up: the last reading as JSON, and the new message to apply to it."""
    return (
        "The previous question of this thread was read as this StructuredIntent (JSON):\n"
        f"{json.dumps(previous.model_dump(mode='json', exclude_defaults=True))}\n"
        "The person now says the message below. If it is a complete question on its own, read it alone; else "
        "return the previous intent with the message's edits applied (replace the filter on the same dimension, "
        "add or drop a filter, change the time window, replace or add a grouping, change the metric or its "
        "aggregation, the top N or the order), keeping everything the message does not change.\n"
        f"Message: {message}"
    )


async def read_in_thread(ctx: AgentContext, state: CommonAgentState, question: str, clarification: str | None) -> InThread:
    """The turn's question against the thread's last reading; `question` unchanged when it is no follow-up."""
    if clarification:
        return InThread(question)
    previous = previous_reading(state)
    latest = question.split(FOLLOW_UP_MARK)[-1]
    if previous is None:
        # the earlier question was never read (declined, or its question superseded): nothing of it
        # may leak into this one, its unread words least of all
        return InThread(question if ctx.has_llm else latest)
    if ctx.has_llm:  # the LLM router rewrites follow-ups in its own words: the model sees every message
        return InThread(question, llm_message=previous_for_llm(previous, latest))
    if FOLLOW_UP_MARK not in question:
        return InThread(question)
    if _NOTHING_ELSE.match(ASKING_FOR_SQL.sub(" ", latest)):
        return InThread(latest, intent=previous)  # "just give me the SQL": the same reading, as SQL
    message = ASKING_FOR_SQL.sub(" ", latest)

    async def read() -> FollowUp:
        await asyncio.to_thread(ctx.values.read_all_latest, ctx.semantic)  # the worker has no warehouse
        shared = ctx.cpu.share(ctx.semantic, ctx.values)
        return await ctx.cpu.run(steps.READING_QUESTION, steps.read_edit, shared, previous, message)

    # read once per turn (discovery and the SQL both ask); each caller gets its own copy to change
    follow = copy.deepcopy(await ctx.readings.once((steps.read_edit.__name__, previous.model_dump_json(), message), read))
    if follow.fresh:
        return InThread(latest)  # a question of its own: no stale filters
    if follow.problem:
        return InThread(latest, refusal=follow.problem)
    if follow.edited is not None:
        return InThread(latest, intent=follow.edited.intent, changes=follow.edited.changes, chart=follow.edited.chart,
                        unread=follow.unread)
    if follow.extraction is not None and (follow.extraction.unknown_values or follow.extraction.ambiguous):
        return InThread(latest)  # the message's own unknown value or ambiguity is asked about, not the old one's
    return InThread(question)
