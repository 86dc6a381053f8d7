"""The bot token, checked with `auth.test`: once at start (a bad token stops start-up with one
clear line) and, cached briefly, as a readiness check."""

from __future__ import annotations

import logging
import time

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from agent.api import AssistantError

log = logging.getLogger(__name__)

# Slack's own answers to a token that cannot work, in words an operator can act on.
_TOKEN_PROBLEMS = {
    "invalid_auth": "is not a valid token",
    "not_authed": "is missing",
    "account_inactive": "belongs to a deleted user or a disabled app",
    "token_revoked": "has been revoked",
    "token_expired": "has expired",
}


class SlackAuthError(AssistantError):
    code = "slack_auth"


class SlackAuth:
    def __init__(self, client: AsyncWebClient, *, cache_s: float = 30.0):
        self.client = client
        self.cache_s = cache_s
        self._checked_at = float("-inf")
        self._result: tuple[bool, str] = (False, "not checked yet")

    async def verify(self) -> str:
        """The bot's user id; SlackAuthError with one sentence when Slack refuses the token. A success is
        also readiness's answer for `cache_s` (start-up's check is not repeated by the first /readyz)."""
        try:
            response = await self.client.auth_test()
        except SlackApiError as exc:
            error = exc.response.get("error", "unknown_error") if exc.response is not None else "unknown_error"
            problem = _TOKEN_PROBLEMS.get(error, f"was refused by Slack ({error})")
            raise SlackAuthError(f"SLACK_BOT_TOKEN {problem}; Slack said '{error}' to auth.test.") from None
        except Exception as exc:  # noqa: BLE001 - network and TLS problems: say so in one line
            raise SlackAuthError(f"Slack could not be reached to check SLACK_BOT_TOKEN: {exc}") from None
        user = str(response.get("user_id"))
        self._result, self._checked_at = (True, f"ok as {user}"), time.monotonic()
        return user

    async def check(self) -> tuple[bool, str]:
        """(ok, detail) for /readyz, asking Slack at most once every `cache_s` seconds."""
        now = time.monotonic()
        if now - self._checked_at < self.cache_s:
            return self._result
        try:
            await self.verify()
        except SlackAuthError as exc:
            log.warning("readiness: %s", exc.user_message)
            self._result, self._checked_at = (False, exc.user_message), now
        return self._result

    async def problem(self) -> str | None:
        """None while Slack accepts the token, else why not: a readiness check."""
        ok, detail = await self.check()
        return None if ok else detail
