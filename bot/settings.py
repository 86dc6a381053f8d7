"""The bot's settings (Slack, HTTP, the job queue) on top of the agent's: one object, one loader.

A bot process passes its BotSettings to the agent too; it is an agent Settings with more fields.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SecretStr, field_validator

from agent.api import Settings, load_settings

# Every Redis key the bot writes starts with this (jobs, thread mapping, ledger, dedupe).
DEFAULT_KEY_PREFIX = "sda:bot:"


class BotSettings(Settings):
    # Slack
    slack_bot_token: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    bot_mode: Literal["auto", "socket", "http", "console"] = "auto"
    host: str = "127.0.0.1"  # HTTP mode's listen address; the Docker image sets 0.0.0.0
    port: int = Field(default=3000, ge=1, le=65535)
    user_rate_limit_per_minute: int = Field(default=20, ge=0)
    user_concurrency: int = Field(default=2, ge=0)  # one person's requests running at once (0: off)
    user_queue_max: int = Field(default=5, ge=0)  # past that, one person's requests waiting their turn (0: refused)
    loop_lag_limit_s: float = Field(default=2.0, gt=0)  # /readyz fails while the event loop lags more

    # Shared state and the job queue
    redis_key_prefix: str = DEFAULT_KEY_PREFIX
    job_lease_s: float = Field(default=10.0, gt=0)  # a dead worker's job is taken over after this
    worker_concurrency: int = Field(default=16, ge=1)  # agent runs at once per bot process
    job_max_deliveries: int = Field(default=5, ge=1)
    shutdown_grace_s: int = Field(default=30, ge=0)

    @field_validator("slack_api_url")
    @classmethod
    def _api_url_ends_with_slash(cls, value: str) -> str:
        return value if value.endswith("/") else value + "/"

    @property
    def has_slack(self) -> bool:
        return self.slack_bot_token is not None and bool(self.slack_bot_token.get_secret_value())


def load_bot_settings(**overrides: Any) -> BotSettings:
    return load_settings(BotSettings, **overrides)
