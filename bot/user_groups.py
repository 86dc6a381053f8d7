"""A person's Slack user groups (ids and handles), so the access policy can name them.

Read with `usergroups.list` (scope `usergroups:read`) and kept for `ttl_s`; without the scope,
or while Slack is unreachable, people simply have no Slack groups (the policy's own `groups`
still apply) and the log says why once.
"""

from __future__ import annotations

import asyncio
import logging
import time

from slack_sdk.web.async_client import AsyncWebClient

from bot.slack_client import WEB_API_FAILURES, slack_error

log = logging.getLogger(__name__)

TTL_S = 600.0


class UserGroups:
    def __init__(self, client: AsyncWebClient, *, ttl_s: float = TTL_S):
        self.client = client
        self.ttl_s = ttl_s
        self._by_user: dict[str, list[str]] = {}
        self._read_at = float("-inf")
        self._lock = asyncio.Lock()
        self._warned = False

    async def of(self, user: str | None) -> list[str]:
        if user is None:
            return []
        if time.monotonic() - self._read_at >= self.ttl_s:
            async with self._lock:
                if time.monotonic() - self._read_at >= self.ttl_s:
                    await self._refresh()
        return self._by_user.get(user, [])

    async def _refresh(self) -> None:
        self._read_at = time.monotonic()
        try:
            response = await self.client.usergroups_list(include_users=True)
        except WEB_API_FAILURES as exc:
            if not self._warned:
                log.warning("Slack user groups are not available to the access policy (%s); "
                            "only the policy file's groups apply", slack_error(exc))
                self._warned = True
            return
        by_user: dict[str, list[str]] = {}
        for group in response.get("usergroups") or []:
            names = [name for name in (group.get("id"), group.get("handle")) if name]
            for member in group.get("users") or []:
                by_user.setdefault(member, []).extend(names)
        self._by_user = by_user
