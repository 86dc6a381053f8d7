"""Requests to the bot's endpoint, signed exactly as Slack signs them (v0 HMAC-SHA256 of "v0:{ts}:{body}")."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
from typing import Any
from urllib.parse import urlencode

import aiohttp

_event_ids = itertools.count(1)


def signature(secret: str, timestamp: str, body: str) -> str:
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()
    return f"v0={digest}"


class SlackSender:
    def __init__(self, url: str, secret: str, session: aiohttp.ClientSession):
        self.url = url
        self.secret = secret
        self.session = session

    async def post(
        self,
        body: str,
        content_type: str,
        *,
        retry_num: int | None = None,
        timestamp: int | None = None,
        secret: str | None = None,
    ) -> tuple[int, str]:
        ts = str(int(time.time()) if timestamp is None else timestamp)
        headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": ts,
            "X-Slack-Signature": signature(secret or self.secret, ts, body),
        }
        if retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(retry_num)
            headers["X-Slack-Retry-Reason"] = "http_timeout"
        async with self.session.post(self.url, data=body.encode(), headers=headers) as response:
            return response.status, await response.text()

    async def event(self, event: dict[str, Any], *, event_id: str | None = None, **kwargs) -> tuple[int, str]:
        payload = {
            "token": "legacy",
            "team_id": "T1",
            "api_app_id": "A1",
            "type": "event_callback",
            "event_id": event_id or f"Ev{next(_event_ids)}",
            "event_time": int(time.time()),
            "authorizations": [{"team_id": "T1", "user_id": "UBOT", "is_bot": True}],
            "event": event,
        }
        return await self.post(json.dumps(payload), "application/json", **kwargs)

    async def command(
        self, command: str, text: str, *, user: str = "U1", channel: str = "C1", response_url: str | None = None
    ) -> tuple[int, str]:
        form = {
            "command": command,
            "text": text,
            "user_id": user,
            "channel_id": channel,
            "team_id": "T1",
            "trigger_id": "trig-1",
            "response_url": response_url or "http://127.0.0.1:9/unused",
        }
        return await self.post(urlencode(form), "application/x-www-form-urlencoded")

    async def interaction(self, payload: dict[str, Any]) -> tuple[int, str]:
        payload = {"team": {"id": "T1"}, "api_app_id": "A1", "token": "legacy", **payload}
        return await self.post(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")


def mention(text: str, *, ts: str, channel: str = "C1", user: str = "U1", thread_ts: str | None = None) -> dict:
    event = {"type": "app_mention", "user": user, "text": f"<@UBOT> {text}", "ts": ts, "channel": channel}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def message(text: str, *, ts: str, channel: str = "C1", channel_type: str = "channel", user: str = "U1", **extra):
    return {"type": "message", "user": user, "text": text, "ts": ts, "channel": channel, "channel_type": channel_type,
            **extra}


def click(action_id: str, value: str, *, message: dict, channel: str = "C1", user: str = "U1", label: str = "x"):
    """A block_actions payload for a button in `message` (as the stand-in stored it)."""
    return {
        "type": "block_actions",
        "user": {"id": user},
        "trigger_id": "trig-2",
        "container": {
            "type": "message",
            "channel_id": channel,
            "message_ts": message["ts"],
            "thread_ts": message.get("thread_ts") or message["ts"],
        },
        "channel": {"id": channel},
        "message": message,
        "actions": [
            {"type": "button", "action_id": action_id, "value": value, "text": {"type": "plain_text", "text": label},
             "block_id": "b", "action_ts": str(time.time())}
        ],
    }


def find_feedback(message: dict, vote: str) -> dict | None:
    """Slack's feedback_buttons in a context_actions block: the thumbs `vote` ("up"/"down") as a clickable."""
    for block in message.get("blocks", []):
        for element in block.get("elements", []) if block.get("type") == "context_actions" else []:
            if element.get("type") == "feedback_buttons":
                chosen = element["positive_button" if vote == "up" else "negative_button"]
                return {"action_id": element["action_id"], "value": chosen["value"]}
    return None


def find_button(message: dict, action_prefix: str) -> dict | None:
    for block in message.get("blocks", []):
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            if element.get("action_id", "").startswith(action_prefix):
                return element
    return None
