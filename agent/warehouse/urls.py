"""WAREHOUSE_URL -> which engine, which SQL dialect, which optional extra, and how each
engine's own limits are set (pure functions, tested without any server).

Every engine but DuckDB goes through SQLAlchemy 2: one URL grammar, a connection pool with
pre-ping, and bulk reflection (`get_multi_columns`) for introspection; each engine's own
driver is an optional extra so a DuckDB-only install stays small.
"""

from __future__ import annotations

import importlib.util
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from agent.errors import WarehouseError


@dataclass(frozen=True)
class Engine:
    key: str
    label: str
    dialect: str  # sqlglot's name
    extra: str  # pip install '.[extra]'
    module: str  # imported to check the extra is installed
    driver: str  # SQLAlchemy drivername


ENGINES = {
    "postgres": Engine("postgres", "PostgreSQL", "postgres", "postgres", "psycopg", "postgresql+psycopg"),
    "mysql": Engine("mysql", "MySQL/MariaDB", "mysql", "mysql", "pymysql", "mysql+pymysql"),
    "trino": Engine("trino", "Trino", "trino", "trino", "trino.sqlalchemy", "trino"),
    "snowflake": Engine("snowflake", "Snowflake", "snowflake", "snowflake", "snowflake.sqlalchemy", "snowflake"),
    "bigquery": Engine("bigquery", "BigQuery", "bigquery", "bigquery", "sqlalchemy_bigquery", "bigquery"),
    "clickhouse": Engine("clickhouse", "ClickHouse", "clickhouse", "clickhouse", "clickhouse_connect", "clickhousedb"),
}

# URL schemes people write -> engine key (a +driver suffix is accepted and replaced by ours).
_SCHEMES = {
    "postgres": "postgres", "postgresql": "postgres", "pg": "postgres", "redshift": "postgres",
    "mysql": "mysql", "mariadb": "mysql",
    "trino": "trino", "presto": "trino",
    "snowflake": "snowflake",
    "bigquery": "bigquery", "bq": "bigquery",
    "clickhouse": "clickhouse", "clickhousedb": "clickhouse",
}

_PASSWORD = re.compile(r"(?P<head>[a-z][\w+.-]*://[^:/@\s]*:)(?P<secret>[^@\s]+)(?P<tail>@)", re.IGNORECASE)


def mask_url(text: str) -> str:
    """Any URL's password as ***, wherever it appears in `text`."""
    return _PASSWORD.sub(lambda m: m.group("head") + "***" + m.group("tail"), text)


def mask_passwords_in_logs() -> None:
    """Every log record, from any library, has URL passwords masked (installed once)."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "masks_passwords", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if "://" in str(record.msg) or any("://" in str(a) for a in (record.args or ()) if isinstance(a, str)):
            try:
                message = record.getMessage()
            except (TypeError, ValueError):
                return record
            record.msg, record.args = mask_url(message), None
        return record

    factory.masks_passwords = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


def duckdb_path(url: str) -> Path:
    """`duckdb:///abs/path.duckdb` (absolute) and `duckdb://relative/path.duckdb` as a path."""
    parts = urlsplit(url)
    return Path((parts.netloc + parts.path) if parts.netloc else parts.path)


def engine_of(url: str) -> Engine | None:
    """The engine a URL names; None for DuckDB. A scheme nobody knows is a WarehouseError."""
    scheme = urlsplit(url).scheme.lower().split("+", 1)[0]
    if scheme == "duckdb":
        return None
    if scheme not in _SCHEMES:
        known = "duckdb, postgresql, mysql, mariadb, trino, snowflake, bigquery, clickhouse"
        raise WarehouseError(
            f"WAREHOUSE_URL uses the engine '{scheme or '(none)'}', which I do not know; use one of {known}."
        )
    return ENGINES[_SCHEMES[scheme]]


def require_extra(engine: Engine) -> None:
    """A clear sentence when the engine's driver, or SQLAlchemy under it, is not installed; checked
    without importing either, before anything imports them."""
    if any(_missing(module) for module in ("sqlalchemy", engine.module)):
        raise WarehouseError(
            f"WAREHOUSE_URL points at {engine.label}, but its driver is not installed; install it with "
            f"pip install -r requirements/{engine.extra}.txt (or pip install '.[{engine.extra}]' from the repository)."
        )


def _missing(module: str) -> bool:
    top = module.split(".", 1)[0]
    return importlib.util.find_spec(top) is None or ("." in module and _missing_submodule(module))


def _missing_submodule(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:
        return True


@dataclass
class EnginePlan:
    """How to open one engine: the SQLAlchemy URL, driver arguments, and the statements that
    make each new session read-only and bounded by the engine's own timeout."""

    url: str
    connect_args: dict[str, Any] = field(default_factory=dict)
    on_connect: list[str] = field(default_factory=list)
    engine_kwargs: dict[str, Any] = field(default_factory=dict)


def plan(url: str, engine: Engine, *, timeout_s: float, max_bytes_billed: int, connect_timeout_s: float = 5.0) -> EnginePlan:
    """The engine's own limits: PostgreSQL statement_timeout, MySQL max_execution_time,
    Trino query_max_run_time, Snowflake STATEMENT_TIMEOUT_IN_SECONDS, BigQuery job timeout
    and maximum_bytes_billed, ClickHouse max_execution_time and readonly."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    timeout_ms = int(timeout_s * 1000)
    seconds = max(int(round(timeout_s)), 1)
    connect = max(int(connect_timeout_s), 1)
    result = EnginePlan(url="")
    if engine.key == "postgres":
        result.connect_args = {
            "connect_timeout": connect,
            "application_name": "slack-data-assistant",
            "options": f"-c default_transaction_read_only=on -c statement_timeout={timeout_ms} "
            f"-c idle_in_transaction_session_timeout={max(timeout_ms * 3, 60_000)}",
        }
    elif engine.key == "mysql":
        result.connect_args = {
            "connect_timeout": connect,
            "read_timeout": seconds * 3 + 5,  # a last resort if the server never answers
            "charset": "utf8mb4",
        }
        # The timeout statement depends on the server (MySQL or MariaDB): see sql_engine.
        result.on_connect = ["SET SESSION TRANSACTION READ ONLY"]
    elif engine.key == "trino":
        result.connect_args = {
            "session_properties": {"query_max_run_time": f"{seconds}s", "query_max_execution_time": f"{seconds}s"},
            "request_timeout": seconds * 3 + 5,
        }
    elif engine.key == "snowflake":
        result.connect_args = {
            "session_parameters": {
                "STATEMENT_TIMEOUT_IN_SECONDS": seconds,
                "QUERY_TAG": "slack-data-assistant",
                "AUTOCOMMIT": True,
            },
            "login_timeout": connect,
            "network_timeout": seconds * 3 + 5,
        }
    elif engine.key == "bigquery":
        # sqlalchemy-bigquery turns unknown URL parameters into the default QueryJobConfig.
        query.update({"maximum_bytes_billed": str(max_bytes_billed), "job_timeout_ms": str(timeout_ms)})
    elif engine.key == "clickhouse":
        # clickhouse-connect passes unknown URL parameters to the server as settings.
        query.update({
            "readonly": "1", "max_execution_time": str(seconds), "timeout_overflow_mode": "throw",
            "connect_timeout": str(connect),
        })
    scheme = engine.driver
    result.url = urlunsplit((scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))
    return result
