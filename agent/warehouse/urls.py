"""WAREHOUSE_URL -> which engine (agent/warehouse/engines/), which optional extra, and the
SQLAlchemy URL carrying each engine's own limits (pure functions, tested without any server).

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
from agent.warehouse.engines import ENGINES, SCHEMES, ServerEngine, SessionLimits


Engine = ServerEngine  # one class per engine, in agent/warehouse/engines/<name>.py

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
    if scheme not in SCHEMES:
        known = ", ".join(["duckdb", *SCHEMES])
        raise WarehouseError(
            f"WAREHOUSE_URL uses the engine '{scheme or '(none)'}', which I do not know; use one of {known}."
        )
    return ENGINES[SCHEMES[scheme]]


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
    """How to open one engine: the SQLAlchemy URL, driver arguments, and the limits each new
    session sets (the engine's `on_connect`)."""

    url: str
    connect_args: dict[str, Any] = field(default_factory=dict)
    limits: SessionLimits = field(default_factory=lambda: SessionLimits(timeout_s=20.0))


def plan(url: str, engine: Engine, *, timeout_s: float, max_bytes_billed: int, connect_timeout_s: float = 5.0,
         temp_disk_bytes: int = 0) -> EnginePlan:
    """The SQLAlchemy URL and driver arguments carrying the engine's own limits (each engine's
    module says which: PostgreSQL statement_timeout, MySQL max_execution_time, Trino
    query_max_run_time, Snowflake STATEMENT_TIMEOUT_IN_SECONDS, BigQuery job timeout and
    maximum_bytes_billed, ClickHouse max_execution_time and readonly)."""
    parts = urlsplit(url)
    limits = SessionLimits(timeout_s=timeout_s, connect_timeout_s=connect_timeout_s,
                           max_bytes_billed=max_bytes_billed, temp_disk_bytes=temp_disk_bytes)
    query = {**dict(parse_qsl(parts.query)), **engine.url_params(limits)}
    return EnginePlan(
        url=urlunsplit((engine.driver, parts.netloc, parts.path, urlencode(query), parts.fragment)),
        connect_args=engine.connect_args(limits),
        limits=limits,
    )
