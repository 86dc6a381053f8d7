"""Logging configured once at start-up. Every line carries the request id, user, channel and the
time since the request began, as text or (LOG_FORMAT=json) one JSON object a line.

No request body or secret reaches a log: Slack's SDK logs a refused request's body; that
line is cut down to the refusal itself.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import json
import logging
import time
import uuid
from collections.abc import Iterator

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
user_var: contextvars.ContextVar[str] = contextvars.ContextVar("user", default="-")
channel_var: contextvars.ContextVar[str] = contextvars.ContextVar("channel", default="-")
started_var: contextvars.ContextVar[float | None] = contextvars.ContextVar("started", default=None)

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [req=%(request_id)s user=%(user)s channel=%(channel)s] %(message)s"


def new_request_id() -> str:
    """The id of the request being handled (so its job keeps it), or a fresh one outside any."""
    current = request_id_var.get()
    return current if current != "-" else uuid.uuid4().hex[:12]


@contextlib.contextmanager
def request_scope(request_id: str, user: str | None = None, channel: str | None = None,
                  started: float | None = None) -> Iterator[None]:
    """Lines logged inside carry this request's id, user, channel and time since `started`."""
    request_token = request_id_var.set(request_id)
    user_token = user_var.set(user or "-")
    channel_token = channel_var.set(channel or "-")
    started_token = started_var.set(started if started is not None else time.perf_counter())
    try:
        yield
    finally:
        started_var.reset(started_token)
        channel_var.reset(channel_token)
        user_var.reset(user_token)
        request_id_var.reset(request_token)


def bind_request(request_id: str, user: str | None, channel: str | None, started: float) -> None:
    """request_scope for the rest of the current task. Bolt runs a request's listener after its
    middleware has returned (same task), so a scope closed by the middleware would miss the listener
    and everything it spawns; each request (HTTP or Socket Mode) is a task of its own."""
    request_id_var.set(request_id)
    user_var.set(user or "-")
    channel_var.set(channel or "-")
    started_var.set(started)


class RequestFields(logging.Filter):
    """Puts the request's id, user, channel and duration on every record a handler emits."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        record.user = user_var.get()
        record.channel = channel_var.get()
        started = started_var.get()
        record.duration_ms = None if started is None else round((time.perf_counter() - started) * 1000, 1)
        return True


class _NoRequestBodies(logging.Filter):
    """Slack's SDK puts whole request bodies in some lines (a bad signature, an unhandled request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("slack_bolt"):
            return True
        message = record.getMessage()
        if message.startswith("Invalid request signature detected"):
            record.msg, record.args = "Invalid request signature: request refused (401)", None
        elif message.startswith("Unhandled request"):
            record.msg, record.args = message.split("\n", 1)[0].split(" (", 1)[0] + " (details not logged)", None
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
            "user": getattr(record, "user", "-"),
            "channel": getattr(record, "channel", "-"),
            "duration_ms": getattr(record, "duration_ms", None),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure_logging(level: str, log_format: str = "text") -> None:
    handler = logging.StreamHandler()
    handler.addFilter(RequestFields())
    handler.addFilter(_NoRequestBodies())
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
