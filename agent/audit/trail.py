"""Audit records as JSON lines (a file, or stdout for a container's log collector) and, with
Redis, a capped stream (`XADD … MAXLEN ~ N`) every replica writes to and `audit tail` reads.

A record that cannot be written is logged as an error and the query's answer still goes out:
the trail must not become a way to take the bot down, and the error line says what was lost.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TextIO

from pydantic import BaseModel, Field

from agent.errors import AssistantError
from agent.settings import Settings

log = logging.getLogger(__name__)


class AuditError(AssistantError):
    code = "audit"


class AuditRecord(BaseModel):
    ts: str = Field(default_factory=lambda: dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds"))
    request_id: str | None = None
    session_id: str | None = None
    user: str | None = None
    channel: str | None = None
    # what was done when it is no query: 'vocabulary.learn', 'verified.save', … (with `detail`)
    action: str | None = None
    workspace: str | None = None
    detail: dict[str, Any] | None = None
    sql: str = ""
    executed_sql: str | None = None  # when it differs from `sql` (masked columns rewritten)
    tables: list[str] = Field(default_factory=list)
    rows: int | None = None
    duration_ms: float | None = None
    outcome: Literal["ok", "refused", "error"]
    error_code: str | None = None
    error: str | None = None


class JsonLinesSink:
    def __init__(self, target: Path | TextIO):
        self._lock = threading.Lock()
        self._stream: TextIO | None = None
        self._path: Path | None = None
        if isinstance(target, Path):
            target.parent.mkdir(parents=True, exist_ok=True)
            self._path = target
        else:
            self._stream = target

    def write(self, line: str) -> None:
        with self._lock:
            if self._stream is not None:
                self._stream.write(line + "\n")
                self._stream.flush()
                return
            assert self._path is not None
            with self._path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")

    def close(self) -> None:
        pass


class RedisStreamSink:
    def __init__(self, url: str, key: str, maxlen: int):
        import redis

        self.key, self.maxlen = key, maxlen
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def write(self, line: str) -> None:
        self._client.xadd(self.key, {"record": line}, maxlen=self.maxlen, approximate=True)

    def close(self) -> None:
        self._client.close()


class AuditTrail:
    def __init__(self, sinks: list[Any]):
        self.sinks = sinks
        self.listeners: list[Callable[[dict[str, Any]], None]] = []  # e.g. the bot's query-duration metric

    @classmethod
    def from_settings(cls, settings: Settings) -> "AuditTrail":
        sinks: list[Any] = [JsonLinesSink(sys.stdout if settings.audit_path == "-" else audit_file(settings))]
        if settings.redis_url:
            sinks.append(RedisStreamSink(settings.redis_url, settings.audit_stream_key, settings.audit_stream_maxlen))
        return cls(sinks)

    def record(self, record: AuditRecord) -> None:
        line = record.model_dump_json()
        for sink in self.sinks:
            try:
                sink.write(line)
            except Exception as exc:  # noqa: BLE001 - any sink failure is logged, never raised
                log.error("audit record not written to %s (request %s): %s",
                          type(sink).__name__, record.request_id, exc)
        for listener in self.listeners:
            try:
                listener(record.model_dump())
            except Exception:  # noqa: BLE001 - an observer must not fail the query it observes
                log.exception("audit listener failed (request %s)", record.request_id)

    def close(self) -> None:
        for sink in self.sinks:
            sink.close()


def audit_file(settings: Settings) -> Path:
    return Path(settings.audit_path) if settings.audit_path else Path(settings.data_dir) / "audit.jsonl"


def read_tail(settings: Settings, count: int) -> list[dict[str, Any]]:
    """The newest `count` records, oldest first: from the Redis stream when set, else the file."""
    if settings.redis_url:
        import redis

        client = redis.Redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=5)
        try:
            entries = client.xrevrange(settings.audit_stream_key, count=count)
        except redis.RedisError as exc:
            raise AuditError(f"The audit stream {settings.audit_stream_key} could not be read from REDIS_URL: {exc}") from None
        finally:
            client.close()
        # redis-py types the reply and each entry's fields as optional; a stream read returns both.
        return [json.loads(fields[b"record"]) for _, fields in reversed(entries or []) if fields is not None]
    if settings.audit_path == "-":
        raise AuditError("AUDIT_PATH is '-' (stdout): read the records where stdout is collected.")
    path = audit_file(settings)
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        lines = deque(handle, maxlen=count)
    return [json.loads(line) for line in lines if line.strip()]
