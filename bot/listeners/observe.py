"""A Bolt middleware in front of every listener: counts the request by surface, and gives every
log line written while it is handled the request's id, user and channel."""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

from bot.logs import request_scope
from bot.metrics import BotMetrics


def surface_of(body: dict[str, Any]) -> str:
    """mention, dm, message, assistant, command, action, view or other: where a request came from."""
    kind = body.get("type")
    if kind == "event_callback":
        event = body.get("event") or {}
        if event.get("type") == "app_mention":
            return "mention"
        if str(event.get("type", "")).startswith("assistant_thread") or event.get("assistant_thread"):
            return "assistant"
        if event.get("type") == "message":
            return "dm" if event.get("channel_type") == "im" else "message"
        return "event"
    if body.get("command"):
        return "command"
    if kind in ("block_actions", "interactive_message"):
        return "action"
    if kind in ("view_submission", "view_closed"):
        return "view"
    return "other"


def _who(body: dict[str, Any]) -> tuple[str | None, str | None]:
    event = body.get("event") or {}
    user = event.get("user") or body.get("user_id") or (body.get("user") or {}).get("id")
    channel = event.get("channel") or body.get("channel_id") or (body.get("channel") or {}).get("id")
    return user, channel


def observing(metrics: BotMetrics) -> Callable[..., Awaitable[BoltResponse | None]]:
    async def middleware(req: AsyncBoltRequest, resp: BoltResponse,
                         next: Callable[[], Awaitable[BoltResponse | None]]) -> BoltResponse | None:  # noqa: A002
        body = req.body or {}
        metrics.requests.labels(surface_of(body)).inc()
        user, channel = _who(body)
        with request_scope(uuid.uuid4().hex[:12], user, channel, started=time.perf_counter()):
            return await next()

    return middleware
