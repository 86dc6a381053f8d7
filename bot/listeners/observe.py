"""Bolt middleware on the ack path, kept cheap because every request pays for it before its ack:
one counts the request by surface and gives it a request id (with user and channel) that its log
lines, its listener's and the jobs it starts carry; one lets the Assistant middleware look only
at Assistant events."""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAssistant
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.request.payload_utils import is_assistant_event, is_other_message_sub_event_in_assistant_thread
from slack_bolt.response import BoltResponse

from bot.logs import bind_request
from bot.metrics import BotMetrics

Next = Callable[[], Awaitable[BoltResponse]]


def surface_of(body: dict[str, Any]) -> str:
    """mention, dm, message, assistant, command, action, view or other: where a request came from."""
    kind = body.get("type")
    if kind == "event_callback":
        event = body.get("event") or {}
        if event.get("type") == "app_mention":
            return "mention"
        if is_assistant_event(body):
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


class Observe(AsyncMiddleware):
    """A plain middleware class: Bolt calls it without building keyword arguments for it."""

    def __init__(self, metrics: BotMetrics):
        self.metrics = metrics

    async def async_process(self, *, req: AsyncBoltRequest, resp: BoltResponse, next: Next) -> BoltResponse | None:  # noqa: A002
        body = req.body or {}
        self.metrics.requests.labels(surface_of(body)).inc()
        user, channel = _who(body)
        bind_request(uuid.uuid4().hex[:12], user, channel, time.perf_counter())
        return await next()


class AssistantEventsOnly(AsyncAssistant):
    """Bolt's Assistant middleware tries all its listeners' matchers on every request; most
    requests are mentions, commands and clicks, so a cheap look at the body skips it for them."""

    async def async_process(self, *, req: AsyncBoltRequest, resp: BoltResponse, next: Next) -> BoltResponse | None:  # noqa: A002
        body = req.body or {}
        if is_assistant_event(body) or is_other_message_sub_event_in_assistant_thread(body):
            return await super().async_process(req=req, resp=resp, next=next)
        await next()
        return None
