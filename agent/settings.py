"""The agent's settings (warehouse, LLM, limits): read from the environment and `.env`, built once.

Nothing else in the code base reads the environment; entry points call `load_settings()`
and pass the result down. The bot's own settings (Slack, HTTP, queue) extend these in
bot/settings.py and load through the same `load_settings`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar, overload

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from agent.errors import SettingsError


# How long an idle session (its checkpoints, the bot's thread mapping) is kept.
SESSION_IDLE_TTL_S = 7 * 24 * 3600


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    # LLM
    openai_api_key: SecretStr | None = None
    openai_base_url: str | None = None
    llm_model: str = "gpt-4.1-mini"
    llm_timeout_s: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)

    # State and data
    redis_url: str | None = None
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
    # A question waiting for the person (confirm, clarify) expires after this; answering it then says so.
    pending_ttl_s: int = Field(default=7 * 24 * 3600, ge=1)
    session_idle_ttl_s: int = Field(default=SESSION_IDLE_TTL_S, ge=60)

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("query_memory_limit")
    @classmethod
    def _memory_limit_has_unit(cls, value: str) -> str:
        import re

        if not re.fullmatch(r"\s*\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*", value, re.I):
            raise ValueError("expected a size such as 512MB or 2GB")
        return value.strip()

    @property
    def has_llm(self) -> bool:
        return self.openai_api_key is not None and bool(self.openai_api_key.get_secret_value())


SettingsT = TypeVar("SettingsT", bound=Settings)


@overload
def load_settings(**overrides: Any) -> Settings: ...


@overload
def load_settings(kind: type[SettingsT], /, **overrides: Any) -> SettingsT: ...


def load_settings(kind: type[Settings] = Settings, /, **overrides: Any) -> Settings:
    """Build the settings once; a bad value stops start-up with a message naming the variable."""
    try:
        return kind(**overrides)
    except ValidationError as exc:
        problems: list[str] = []
        for err in exc.errors():
            variable = "_".join(str(part) for part in err["loc"]).upper() or "settings"
            problems.append(f"{variable}: {err['msg']}")
        raise SettingsError("Invalid configuration: " + "; ".join(problems)) from None
