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

from agent.budget.inputs import MAX_SQL_CHARS, MAX_SQL_DEPTH
from agent.budget.machine import usable_cpus
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
    warehouse_schemas: str = ""  # comma-separated; empty: the engine's default schema
    warehouse_allow_system_tables: bool = False
    warehouse_pool_size: int = Field(default=4, ge=1, le=64)
    catalog_path: Path | None = None  # the team's catalog YAML, overlaid on the introspected one
    catalog_ttl_s: float = Field(default=3600.0, ge=0)  # 0: read the schema once
    data_dir: Path = Path("data")
    # a dbt project (or folder of dbt Semantic Layer YAML); unset: the demo's, or one bootstrapped from the schema
    semantic_model_path: Path | None = None

    # Query limits
    query_timeout_s: float = Field(default=20.0, gt=0)
    query_row_cap: int = Field(default=10_000, ge=1)
    query_memory_limit: str = "1GB"
    query_result_bytes: int = Field(default=50_000_000, ge=1_000)  # result size brought back
    # Results one request (a person's question, its follow-up reads included) brings back over all its
    # queries: two queries' worth, so six people's questions hold at most ~0.6 GB of rows between them.
    request_result_bytes: int = Field(default=100_000_000, ge=1_000)
    query_temp_disk_bytes: int = Field(default=2_000_000_000, ge=0)  # temporary disk one query may fill; 0: the engine's
    query_max_bytes_billed: int = Field(default=10_000_000_000, ge=0)  # BigQuery cost cap
    query_threads: int = Field(default=2, ge=1)
    warehouse_slots: int = Field(default=4, ge=1)  # warehouse calls at once per process
    # The most of the slots one person, or one channel, holds at once (at least one slot).
    warehouse_slot_share: float = Field(default=0.5, gt=0, le=1)
    # A query whose plan expects more rows than this at some step is costly: it never takes the last free slot.
    warehouse_costly_rows: int = Field(default=100_000_000, ge=1)
    # Engines that estimate bytes scanned, not rows (Snowflake, BigQuery): past this a query is costly.
    # About what reading WAREHOUSE_COSTLY_ROWS values of one 8-10 byte column takes.
    warehouse_costly_bytes: int = Field(default=1_000_000_000, ge=1)

    # Budgets: what one request may cost, enforced from outside the work
    max_question_chars: int = Field(default=2000, ge=1)
    max_sql_chars: int = Field(default=MAX_SQL_CHARS, ge=1)
    max_sql_depth: int = Field(default=MAX_SQL_DEPTH, ge=1)  # brackets and CASE; sqlglot recurses once per level
    # Worker processes for parse, guard, fix, explain, the question's reading and the chart: one per CPU
    # this process may use (its affinity, at most its container's CPU quota), so a burst uses every core.
    cpu_workers: int = Field(default_factory=usable_cpus, ge=1)
    cpu_step_budget_s: float = Field(default=10.0, gt=0)

    # Agent behaviour
    max_execute_second: float = Field(default=120.0, gt=0)
    confirm_before_run: bool = True
    # A question waiting for the person (confirm, clarify) expires after this; answering it then says so.
    pending_ttl_s: int = Field(default=7 * 24 * 3600, ge=1)
    session_idle_ttl_s: int = Field(default=SESSION_IDLE_TTL_S, ge=60)
    memory_sessions_max: int = Field(default=300, ge=1)  # without REDIS_URL: sessions kept (least recently used go)

    # Access policy and audit trail
    policy_path: Path | None = None  # YAML: who may read which schemas, tables and columns
    audit_path: str = ""  # JSON lines; empty: DATA_DIR/audit.jsonl; "-": stdout
    audit_stream_key: str = "sda:audit"  # with REDIS_URL, a capped stream as well
    audit_stream_maxlen: int = Field(default=100_000, ge=100)
    # with REDIS_URL: learned words and verified queries live under `{prefix}:{workspace}:…`
    learning_key_prefix: str = "sda:learned"

    # Tracing: off unless a LangSmith key is set
    langsmith_api_key: SecretStr | None = None
    langsmith_endpoint: str = "https://api.smith.langchain.com"
    langsmith_project: str = "slack-data-assistant"

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["text", "json"] = "text"

    @field_validator("query_memory_limit")
    @classmethod
    def _memory_limit_has_unit(cls, value: str) -> str:
        import re

        if not re.fullmatch(r"\s*\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*", value, re.I):
            raise ValueError("expected a size such as 512MB or 2GB")
        return value.strip()

    @property
    def warehouse_schema_list(self) -> list[str]:
        return [s.strip() for s in self.warehouse_schemas.split(",") if s.strip()]

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
