"""When shared state is down, a person who writes to the bot is told so, at once.

A listener that cannot reach Redis (to dedupe, find the session or queue the job) fails;
this Bolt error handler turns that failure into a short notice to the person and a 200
to Slack (the person has been told; Slack's retries would only repeat the notice). Other
errors keep Bolt's default: logged, and a 500 so Slack retries.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.redis_health import UNREACHABLE
from bot.jobs.redis_streams import ServiceUnavailable
from bot.store.state import InMemoryStateStore

log = logging.getLogger(__name__)

UNAVAILABLE = (
    "Sorry, I can't take requests right now: the service is briefly unavailable. "
    "Please try again in a minute."
)
NOTICE_DEDUPE_S = 600


class OutageNotice:
    def __init__(self, client: AsyncWebClient):
        self.client = client
        # This replica's memory only: the shared store is the thing that is down.
        self._told = InMemoryStateStore()
        self._tasks: set[asyncio.Task[None]] = set()

    def install(self, app: AsyncApp) -> None:
        app.error(self.handle)

    async def handle(self, error: Exception, body: dict[str, Any], request: AsyncBoltRequest) -> BoltResponse | None:
        if not isinstance(error, (*UNREACHABLE, ServiceUnavailable)):
            log.error("listener failed: %s", error, exc_info=error)
            return None
        log.warning("request refused while shared state is unreachable: %s", error)
        if body.get("command"):
            return BoltResponse(status=200, body=UNAVAILABLE)  # the ack's text is the person's notice
        target = _who_to_tell(body, request.context.bot_user_id)
        # app_mention and message carry the same message: one notice for both.
        if target and await self._told.claim(target[3], NOTICE_DEDUPE_S):
            task = asyncio.create_task(self._tell(*target[:3]))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return BoltResponse(status=200, body="")

    async def _tell(self, channel: str, user: str, thread_ts: str) -> None:
        try:
            await self.client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts, text=UNAVAILABLE)
        except SlackClientError as exc:
            log.error("could not tell %s that the service is unavailable: %s", user, exc)


def _who_to_tell(body: dict[str, Any], bot_user_id: str | None) -> tuple[str, str, str, str] | None:
    """(channel, user, thread, what) of the person's request; None for chatter not addressed to the bot."""
    event = body.get("event")
    if event:
        channel, user, ts = event.get("channel"), event.get("user"), event.get("ts")
        addressed = (
            event.get("type") == "app_mention"
            or event.get("channel_type") == "im"
            or (bot_user_id and f"<@{bot_user_id}" in (event.get("text") or ""))
        )
        if not (channel and user and ts and addressed):
            return None
        return channel, user, event.get("thread_ts") or ts, f"message:{channel}:{ts}"
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    user = (body.get("user") or {}).get("id")
    thread_ts = container.get("thread_ts") or container.get("message_ts") or ""
    clicked = ",".join(a.get("action_ts", "") for a in body.get("actions") or []) or body.get("trigger_id", "")
    if channel and user:
        return channel, user, thread_ts, f"click:{channel}:{user}:{clicked}"
    return None
