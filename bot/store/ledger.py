"""What a job has already done, so a job run twice (its worker died) never answers twice.

A turn is a few Slack steps (echo, placeholder, reply, uploads) around one
agent run. Each finished step is noted under the job's id; a second run skips the steps
already done, reuses the placeholder message (the reply replaces it, so a re-run updates
the same message) and reuses the agent's reply when it was already computed.
"""

from __future__ import annotations

from typing import Protocol

import ormsgpack

from agent.api import AgentReply

# Steps (field names) a turn notes.
ECHO = "echo"
TITLE = "title"
PLACEHOLDER = "placeholder_ts"
THREAD = "thread_ts"
REPLY = "reply"
REPLY_TS = "reply_ts"
CHART = "chart"
CSV = "csv"
DONE = "done"


class JobLedger(Protocol):
    async def steps(self, job_id: str) -> dict[str, bytes]:
        """Every step noted for the job so far (empty for a new job)."""

    async def note(self, job_id: str, step: str, value: bytes = b"1") -> None: ...

    async def note_first(self, job_id: str, step: str, value: bytes) -> bytes:
        """Note the step unless it is already noted; return the value that stands."""

    def cached(self, job_id: str) -> dict[str, bytes]:
        """What this process itself knows of the job, without asking the store (which may be down)."""

    async def forget(self, job_id: str) -> None:
        """The job is finished: its notes may go (the durable copy keeps them a while for late duplicates)."""


class InMemoryLedger:
    """For the in-process runner: nothing re-runs a job there, but the turn speaks one interface."""

    def __init__(self) -> None:
        self._steps: dict[str, dict[str, bytes]] = {}

    async def steps(self, job_id: str) -> dict[str, bytes]:
        return dict(self._steps.get(job_id, {}))

    async def note(self, job_id: str, step: str, value: bytes = b"1") -> None:
        self._steps.setdefault(job_id, {})[step] = value

    async def note_first(self, job_id: str, step: str, value: bytes) -> bytes:
        return self._steps.setdefault(job_id, {}).setdefault(step, value)

    def cached(self, job_id: str) -> dict[str, bytes]:
        return dict(self._steps.get(job_id, {}))

    async def forget(self, job_id: str) -> None:
        self._steps.pop(job_id, None)


def pack_reply(reply: AgentReply) -> bytes:
    # Result cells in their JSON form (dates, decimals), the chart's PNG as raw bytes (msgpack, not JSON).
    data = reply.model_dump(mode="json", exclude={"chart"})
    data["chart"] = reply.chart.model_dump() if reply.chart else None
    return ormsgpack.packb(data)


def unpack_reply(data: bytes) -> AgentReply:
    return AgentReply.model_validate(ormsgpack.unpackb(data))
