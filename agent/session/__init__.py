"""One session's state as the API reads it: once per ask or resume, then passed along in arguments.

A session is a thread of conversation; its state is the graph's latest checkpoint. Reading it costs a
decode of every channel (in Redis, a round trip too), so `agent.api` reads it once when a turn starts
(`read`) and takes it afterwards from the run itself (`after_run`), never again in between. Whether a
question is pending, who asked it, when it paused and the run's deadline are all answered here, from
that one reading: the session is the one owner of "a question waits for an answer" (the bot asks it
through `Assistant.pending`, and keeps no flag of its own).

The package holds a session's whole life in this process: `memory` keeps sessions when no REDIS_URL is
set (bounded like Redis's, by idle time and number), `reads` has a turn read its checkpoint once, and this
module holds a session for one turn at a time (`Sessions.turn`: its lock, then its one reading) and says
what a turn reads of it. The Redis saver is its own package (`checkpoint_redis`, knowing
nothing of the agent).

Imports nothing heavy (no LangGraph at import time), like `agent.api`; its submodules do, where the
graph is built.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import weakref
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from agent.supervisor.reply import AskHuman

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig
    from langgraph.types import StateSnapshot


class _Graph(Protocol):
    async def aget_state(self, config: RunnableConfig) -> StateSnapshot: ...


class _Reads(Protocol):
    """The graph's saver as `reads.ReadOnce` wraps it: a session's checkpoint read once while a turn holds it."""

    def turn(self, thread_id: str) -> AbstractContextManager[None]: ...


@dataclass(frozen=True)
class Session:
    """What a turn needs of its session, taken from one reading: plain fields, nothing read later."""

    id: str
    config: RunnableConfig  # the graph's config for the session's runs (`config`), made once with it
    values: Mapping[str, Any] = field(default_factory=dict)
    pending: AskHuman | None = None  # the question the run paused on, waiting for its asker
    paused_at: float | None = None  # when the latest checkpoint was written (epoch seconds)
    owner: str | None = None  # who asked the latest question: who may answer what it asks (bar the policy's groups)
    question: str = ""
    deadline: float | None = None  # the run's deadline as it paused (epoch seconds), None before any run
    messages: list[Any] = field(default_factory=list)


def _session(session_id: str, values: Mapping[str, Any], interrupts: Sequence[Any], paused_at: float | None) -> Session:
    deadline = values.get("timeout_timestamp")
    return Session(
        id=session_id,
        values=values,
        pending=pending_of(interrupts),
        paused_at=paused_at,
        owner=(values.get("chat_context") or {}).get("user"),
        question=str(values.get("question") or ""),
        deadline=float(deadline) if deadline else None,
        messages=list(values.get("messages") or []),
        config=config(session_id),
    )


def config(session_id: str, **extra: Any) -> RunnableConfig:
    """The graph's config for a session: its checkpoint thread, and `extra` (callbacks)."""
    return {"configurable": {"thread_id": session_id}, "recursion_limit": 50, **extra}  # type: ignore[typeddict-item]


async def read(graph: _Graph, session_id: str) -> Session:
    """The session from its latest checkpoint: one read."""
    snapshot = await graph.aget_state(config(session_id))
    return _session(session_id, snapshot.values or {}, snapshot.interrupts, _checkpoint_time(snapshot.created_at))


class Sessions:
    """A graph's sessions, each held by one turn at a time (an ask, a resume, a direct tool run): the
    turn takes the session's lock and reads it once, and that reading is the one its run starts from."""

    def __init__(self, graph: _Graph, reads: _Reads) -> None:
        self._graph = graph
        self._reads = reads
        # A session's lock lives while a turn holds or awaits it, not for every session ever seen.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def read(self, session_id: str) -> Session:
        """The session as it is now, outside any turn (a reading only: nothing may be run on it)."""
        return await read(self._graph, session_id)

    @asynccontextmanager
    async def turn(self, session_id: str) -> AsyncIterator[Session]:
        """The session held for one turn, as read when the turn took it."""
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        async with lock:
            with self._reads.turn(session_id):
                yield await read(self._graph, session_id)


def after_run(session_id: str, values: Mapping[str, Any], interrupts: Sequence[Any], ended_at: float) -> Session:
    """The session as a run left it, from what the run streamed (its last values and its interrupt):
    the same as reading the checkpoint the run just wrote, without reading it."""
    return _session(session_id, values, interrupts, ended_at)


def pending_of(interrupts: Sequence[Any]) -> AskHuman | None:
    """The question an interrupt asks (the first: the graph pauses on one at a time)."""
    if not interrupts:
        return None
    first = interrupts[0]
    return AskHuman.model_validate({**ask_human_fields(first.value), "id": getattr(first, "id", None)})


def ask_human_fields(value: dict[str, Any]) -> dict[str, Any]:
    options = [
        {"label": str(o.get("label", o.get("value")))[:75], "value": str(o.get("value", o.get("label"))),
         "style": o.get("style", "default")}
        for o in value.get("options") or []
    ]
    return {"kind": value.get("kind", "clarify"), "question": value.get("question", ""), "options": options,
            "sql": value.get("sql"), "term": value.get("term"), "readings": list(value.get("readings") or [])}


def _checkpoint_time(created_at: str | None) -> float | None:
    try:
        return dt.datetime.fromisoformat(created_at).timestamp() if created_at else None
    except ValueError:
        return None
