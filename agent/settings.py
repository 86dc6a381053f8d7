"""The one settings object: read from the environment and `.env`, built once at start.

Nothing else in the code base reads the environment; entry points call `load_settings()`
and pass the result down.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from agent.errors import SettingsError


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    # Slack
    slack_bot_token: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    bot_mode: Literal["auto", "socket", "http", "console"] = "auto"
    port: int = Field(default=3000, ge=1, le=65535)

    # LLM
    openai_api_key: SecretStr | None = None
    openai_base_url: str | None = None
    llm_model: str = "gpt-4.1-mini"
    llm_timeout_s: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)

    # State and data
    redis_url: str | None = None
    redis_key_prefix: str = "sda:bot:"
    job_lease_s: float = Field(default=10.0, gt=0)  # a dead worker's job is taken over after this
    worker_concurrency: int = Field(default=16, ge=1)  # agent runs at once per bot process
    job_max_deliveries: int = Field(default=5, ge=1)
    shutdown_grace_s: int = Field(default=30, ge=0)
    warehouse_url: str | None = None
    data_dir: Path = Path("data")
    # a dbt project (or folder of dbt Semantic Layer YAML); unset means the demo's own model
    semantic_model_path: Path | None = None

    # Query limits
    query_timeout_s: float = Field(default=20.0, gt=0)
    query_row_cap: int = Field(default=10_000, ge=1)
    query_memory_limit: str = "1GB"
    query_threads: int = Field(default=2, ge=1)

    # Agent behaviour
    max_execute_second: float = Field(default=120.0, gt=0)
    confirm_before_run: bool = True
    session_idle_ttl_s: int = Field(default=7 * 24 * 3600, ge=60)
    user_rate_limit_per_minute: int = Field(default=20, ge=0)

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("query_memory_limit")
    @classmethod
    def _memory_limit_has_unit(cls, value: str) -> str:
        import re

        if not re.fullmatch(r"\s*\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*", value, re.I):
            raise ValueError("expected a size such as 512MB or 2GB")
        return value.strip()

    @field_validator("slack_api_url")
    @classmethod
    def _api_url_ends_with_slash(cls, value: str) -> str:
        return value if value.endswith("/") else value + "/"

    @property
    def has_llm(self) -> bool:
        return self.openai_api_key is not None and bool(self.openai_api_key.get_secret_value())

    @property
    def has_slack(self) -> bool:
        return self.slack_bot_token is not None and bool(self.slack_bot_token.get_secret_value())


def load_settings(**overrides) -> Settings:
    """Build the settings once; a bad value stops start-up with a message naming the variable."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            variable = "_".join(str(part) for part in err["loc"]).upper() or "settings"
            problems.append(f"{variable}: {err['msg']}")
        raise SettingsError("Invalid configuration: " + "; ".join(problems)) from None
