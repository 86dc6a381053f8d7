"""The Web API client: Slack's own async retry handlers for 429 Retry-After and dropped connections,
and one shape for every failure.

Slack's SDK turns most failures into a SlackApiError whose response reads like a dict, but not all:
a body that is not JSON (a proxy's HTML page, a plain-text 405 or 502) leaves the response's data a
string, and the SDK's own check then fails with AttributeError ('str' object has no attribute 'get');
a body that claims to be JSON and is not gives a SlackApiError whose response is the raw HTTP
response; a timeout or a refused connection is aiohttp's or asyncio's own exception. Callers could
not catch all of that without catching everything, so this client answers every failed call with a
SlackApiError carrying `{"ok": false, "error": ...}` (`http_<status>` when Slack's answer was not
JSON) or, when no answer came at all, a SlackRequestError.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError, SlackRequestError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.settings import BotSettings

log = logging.getLogger(__name__)

# What a failed Web API call may raise through a client that is not this one (Bolt's own, a test's).
WEB_API_FAILURES: tuple[type[BaseException], ...] = (SlackClientError, aiohttp.ClientError, asyncio.TimeoutError)
BODY_EXCERPT = 120  # characters of a non-JSON body kept for the log line


class SlackWebClient(AsyncWebClient):
    """Every call goes through one aiohttp session, so its connections to Slack are kept and reused.
    Without one, Slack's SDK opens a session, a TCP connection (and a TLS handshake) per call and
    closes them after: in a burst that is most of what the bot's Slack calls cost the event loop.
    The bot's runtime turns this on when it starts and closes the session when it stops; a client
    used before (the token check at start-up) or without a runtime keeps nothing open."""

    keep_connections = False
    _session_loop: asyncio.AbstractEventLoop | None = None

    async def _request(self, *, http_verb: str, api_url: str, req_args: dict[str, Any]) -> dict[str, Any]:
        if self.keep_connections:
            self._keep_session()
        try:
            response: dict[str, Any] = await super()._request(http_verb=http_verb, api_url=api_url, req_args=req_args)
        except SlackApiError as exc:  # the body claimed to be JSON and was not: the response is aiohttp's
            status = int(getattr(exc.response, "status", 0) or 0)
            headers = getattr(exc.response, "headers", {}) or {}
            return {"data": _not_json(status, str(exc)), "headers": headers, "status_code": status}
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            raise SlackRequestError(f"Slack did not answer {api_url.rsplit('/', 1)[-1]}: {_describe(exc)}") from exc
        data = response.get("data")
        if not isinstance(data, dict) or not data:
            response["data"] = _not_json(int(response.get("status_code") or 0), data)
        return response

    def _keep_session(self) -> None:
        loop = asyncio.get_running_loop()
        if self.session is None or self.session.closed or self._session_loop is not loop:
            # The SDK puts its timeout on the sessions it makes; this one carries it instead.
            self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
            self._session_loop = loop

    async def aclose(self) -> None:
        """Close the kept connections (at shutdown); a later call opens new ones."""
        if self.session is not None and not self.session.closed:
            await self.session.close()


def _not_json(status: int, body: object) -> dict[str, Any]:
    text = body.decode(errors="replace") if isinstance(body, bytes) else str(body or "")
    return {"ok": False, "error": f"http_{status}", "body": " ".join(text.split())[:BODY_EXCERPT]}


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _answer(exc: BaseException) -> dict[str, Any]:
    data = getattr(getattr(exc, "response", None), "data", None)
    return data if isinstance(data, dict) else {}


def error_code(exc: BaseException) -> str | None:
    """Slack's error code ("invalid_blocks", "http_502"…) for a refused call; None when no answer came."""
    code = _answer(exc).get("error")
    return code if isinstance(code, str) else None


def slack_error(exc: BaseException) -> str:
    """What went wrong, for a log line: Slack's error code (with the start of a non-JSON body), or the exception."""
    code, body = error_code(exc), _answer(exc).get("body")
    if code is None:
        return _describe(exc)
    return f"{code}: {body}" if body else code


async def optional(what: str, call: Awaitable[object]) -> bool:
    """A Slack call the answer does not depend on (a status, a title, prompts, a tidy-up): any failure
    is one warning line, which carries the request id, and False; the caller carries on."""
    try:
        await call
    except WEB_API_FAILURES as exc:
        log.warning("%s failed (%s); carrying on without it", what, slack_error(exc))
        return False
    return True


def build_web_client(settings: BotSettings) -> AsyncWebClient:
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    return SlackWebClient(
        token=token,
        base_url=settings.slack_api_url,
        timeout=30,
        retry_handlers=[
            AsyncConnectionErrorRetryHandler(max_retry_count=2),
            AsyncRateLimitErrorRetryHandler(max_retry_count=3),
        ],
    )
