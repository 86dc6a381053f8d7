"""The Web API client: Slack's own async retry handlers for 429 Retry-After and dropped connections."""

from __future__ import annotations

from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.settings import BotSettings


def build_web_client(settings: BotSettings) -> AsyncWebClient:
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    return AsyncWebClient(
        token=token,
        base_url=settings.slack_api_url,
        timeout=30,
        retry_handlers=[
            AsyncConnectionErrorRetryHandler(max_retry_count=2),
            AsyncRateLimitErrorRetryHandler(max_retry_count=3),
        ],
    )
