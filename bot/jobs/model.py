"""What a job is, and what every job runner does: the contract between listeners, runners and turns.

A job is a serialisable request (pydantic), so a queue carries the same object across
processes and a Retry button can re-run it. Three kinds, each with only its own fields;
`kind` is the discriminator that survives serialisation.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, Field, TypeAdapter

from bot.slack_client import WEB_API_FAILURES, slack_error

log = logging.getLogger(__name__)


class Where(BaseModel):
    """Where the answer goes. `thread_ts=None`: start a new thread with the placeholder (slash commands)."""

    channel: str
    thread_ts: str | None = None
    user: str
    team: str | None = None  # the person's workspace: with it the answer is streamed to them
    assistant_thread: bool = False


class _JobBase(BaseModel):
    job_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    request_id: str
    session_id: str | None = None  # None only when the thread does not exist yet
    where: Where
    placeholder: str = "Working on it…"
    echo: str | None = None  # posted in the thread first, e.g. the follow-up question a button asked
    thread_title: str | None = None  # set on a new Assistant thread
    response_url: str | None = None  # slash commands: the way back when the bot may not post in the channel


class AskJob(_JobBase):
    """A message in words: a new question, a follow-up, or a reply to a pending question."""

    kind: Literal["ask"] = "ask"
    text: str = ""


class ResumeJob(_JobBase):
    """A button or the edit modal answered the question the session is paused on."""

    kind: Literal["resume"] = "resume"
    choice: str
    edited_sql: str | None = None


class ToolJob(_JobBase):
    """A slash command: one named agent with its arguments, no routing."""

    kind: Literal["tool"] = "tool"
    tool: str
    tool_args: dict[str, Any] = Field(default_factory=dict)


Job = Annotated[AskJob | ResumeJob | ToolJob, Field(discriminator="kind")]
_JOB: TypeAdapter[AskJob | ResumeJob | ToolJob] = TypeAdapter(Job)


def job_from_json(data: str | bytes) -> Job:
    return _JOB.validate_json(data)


JobHandler = Callable[[Job], Awaitable[None]]


class JobRunner(Protocol):
    async def submit(self, job: Job) -> None: ...

    async def start(self) -> None:
        """Begin taking jobs (workers of a shared queue); called once the process is ready."""

    def spawn(self, work: Awaitable[object], name: str) -> None:
        """Run a quick Slack touch-up after the ack (open a modal, settle buttons); not durable."""

    async def drain(self) -> None:
        """Wait until every submitted job (including ones submitted meanwhile) has finished."""

    async def shutdown(self, grace_s: float) -> None:
        """Stop taking jobs, let running ones finish within the grace period, then stop the rest."""

    async def close(self) -> None: ...


async def guarded(work: Awaitable[object], name: str) -> None:
    """Run a spawned touch-up: a failure is logged, never raised into the loop; Slack refusing it is
    one line, anything else a traceback (a bug to fix)."""
    try:
        await work
    except WEB_API_FAILURES as exc:
        log.warning("background step %s failed (%s)", name, slack_error(exc))
    except Exception:
        log.exception("background step %s failed", name)
