"""Where learned words and verified queries live: per workspace, in Redis when REDIS_URL is set (every
replica reads the same keys), else in one JSON file per workspace under DATA_DIR.

Each workspace has a version that changes with every write, so a reader checks one small value per
question (a Redis GET, a file's stat) and reads the words again only when someone taught or forgot one.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from agent.errors import AssistantError
from agent.settings import Settings

DEFAULT_WORKSPACE = "default"  # the command line's, and a surface that names none
Kind = Literal["metric", "dimension", "entity", "definition", "context"]  # context: the word only names the data


class LearningStoreError(AssistantError):
    code = "learning_store"


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


class LearnedWord(BaseModel):
    """A word the team taught: it means the model element `kind`/`name` (shown as `label`)."""

    word: str  # lower case, single spaces
    kind: Kind
    name: str  # the metric's, dimension's or table's name in the semantic model
    label: str  # what the person picked, as the bot showed it
    table: str | None = None  # the semantic model (table) a dimension belongs to, for the dbt export
    definition: dict[str, Any] | None = None  # kind "definition": the condition or measure it names
    taught_by: str | None = None
    taught_at: str = Field(default_factory=now_iso)


class VerifiedQuery(BaseModel):
    """A question a person confirmed was answered right, with the reading that answered it."""

    name: str
    question: str
    phrasings: list[str] = Field(default_factory=list)
    intent: dict[str, Any]  # the StructuredIntent, as JSON
    tables: list[str] = Field(default_factory=list)  # what it reads, for the access policy
    saved_by: str | None = None
    saved_at: str = Field(default_factory=now_iso)


def normal_word(text: str) -> str:
    return " ".join(text.lower().split())


class LearningStore(Protocol):
    def version(self, workspace: str) -> str: ...
    def words(self, workspace: str) -> dict[str, LearnedWord]: ...
    def put_word(self, workspace: str, word: LearnedWord) -> None: ...
    def forget_word(self, workspace: str, word: str) -> LearnedWord | None: ...
    def queries(self, workspace: str) -> dict[str, VerifiedQuery]: ...
    def put_query(self, workspace: str, query: VerifiedQuery) -> None: ...
    def forget_query(self, workspace: str, name: str) -> VerifiedQuery | None: ...
    def close(self) -> None: ...


class RedisLearningStore:
    """`{prefix}:{workspace}:words` and `:queries` (hashes of JSON) and `:version` (a counter)."""

    def __init__(self, url: str, prefix: str):
        import redis

        self.prefix = prefix
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def _key(self, workspace: str, part: str) -> str:
        return f"{self.prefix}:{workspace}:{part}"

    @contextlib.contextmanager
    def _calls(self) -> Iterator[None]:
        import redis

        try:
            yield
        except redis.RedisError as exc:
            raise LearningStoreError("The learned words could not be read or saved (Redis did not answer).",
                                     detail=str(exc)) from None

    def version(self, workspace: str) -> str:
        with self._calls():
            raw = self._client.get(self._key(workspace, "version"))
        return _text(raw) if raw else "0"

    def _read(self, workspace: str, part: str) -> dict[str, str]:
        with self._calls():
            raw: dict[bytes, bytes] = self._client.hgetall(self._key(workspace, part))  # type: ignore[assignment]
        return {_text(k): _text(v) for k, v in raw.items()}

    def _write(self, workspace: str, part: str, key: str, value: str | None) -> str | None:
        """Set (or with None, delete) one entry and bump the version in one transaction; the old value."""
        with self._calls():
            pipe = self._client.pipeline(transaction=True)
            pipe.hget(self._key(workspace, part), key)
            if value is None:
                pipe.hdel(self._key(workspace, part), key)
            else:
                pipe.hset(self._key(workspace, part), key, value)
            pipe.incr(self._key(workspace, "version"))
            old = pipe.execute()[0]
        return _text(old) if old else None

    def words(self, workspace: str) -> dict[str, LearnedWord]:
        return {k: LearnedWord.model_validate_json(v) for k, v in self._read(workspace, "words").items()}

    def put_word(self, workspace: str, word: LearnedWord) -> None:
        self._write(workspace, "words", word.word, word.model_dump_json())

    def forget_word(self, workspace: str, word: str) -> LearnedWord | None:
        if normal_word(word) not in self._read(workspace, "words"):
            return None
        old = self._write(workspace, "words", normal_word(word), None)
        return LearnedWord.model_validate_json(old) if old else None

    def queries(self, workspace: str) -> dict[str, VerifiedQuery]:
        return {k: VerifiedQuery.model_validate_json(v) for k, v in self._read(workspace, "queries").items()}

    def put_query(self, workspace: str, query: VerifiedQuery) -> None:
        self._write(workspace, "queries", query.name, query.model_dump_json())

    def forget_query(self, workspace: str, name: str) -> VerifiedQuery | None:
        if name not in self._read(workspace, "queries"):
            return None
        old = self._write(workspace, "queries", name, None)
        return VerifiedQuery.model_validate_json(old) if old else None

    def close(self) -> None:
        self._client.close()


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


class FileLearningStore:
    """`DATA_DIR/learned/<workspace>.json`; writes hold an exclusive lock and replace the file whole,
    so another process on the same folder never reads half a file."""

    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, workspace: str) -> Path:
        return self.folder / f"{_SAFE.sub('_', workspace)}.json"

    def version(self, workspace: str) -> str:
        try:
            stat = self._path(workspace).stat()
        except FileNotFoundError:
            return "0"
        return f"{stat.st_mtime_ns}:{stat.st_size}:{stat.st_ino}"

    def _load(self, workspace: str) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self._path(workspace).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {"words": {}, "queries": {}}
        except (OSError, ValueError) as exc:
            raise LearningStoreError("The learned words could not be read.", detail=f"{self._path(workspace)}: {exc}") from None
        return {"words": data.get("words") or {}, "queries": data.get("queries") or {}}

    @contextlib.contextmanager
    def _changing(self, workspace: str) -> Iterator[dict[str, dict[str, Any]]]:
        self.folder.mkdir(parents=True, exist_ok=True)
        lock_path = self._path(workspace).with_suffix(".lock")
        with lock_path.open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data = self._load(workspace)
            yield data
            partial = self._path(workspace).with_suffix(f".{os.getpid()}.partial")
            partial.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            partial.replace(self._path(workspace))

    def words(self, workspace: str) -> dict[str, LearnedWord]:
        return {k: LearnedWord.model_validate(v) for k, v in self._load(workspace)["words"].items()}

    def put_word(self, workspace: str, word: LearnedWord) -> None:
        with self._changing(workspace) as data:
            data["words"][word.word] = word.model_dump()

    def forget_word(self, workspace: str, word: str) -> LearnedWord | None:
        with self._changing(workspace) as data:
            old = data["words"].pop(normal_word(word), None)
        return LearnedWord.model_validate(old) if old else None

    def queries(self, workspace: str) -> dict[str, VerifiedQuery]:
        return {k: VerifiedQuery.model_validate(v) for k, v in self._load(workspace)["queries"].items()}

    def put_query(self, workspace: str, query: VerifiedQuery) -> None:
        with self._changing(workspace) as data:
            data["queries"][query.name] = query.model_dump()

    def forget_query(self, workspace: str, name: str) -> VerifiedQuery | None:
        with self._changing(workspace) as data:
            old = data["queries"].pop(name, None)
        return VerifiedQuery.model_validate(old) if old else None

    def close(self) -> None:
        pass


def open_store(settings: Settings) -> LearningStore:
    if settings.redis_url:
        return RedisLearningStore(settings.redis_url, settings.learning_key_prefix)
    return FileLearningStore(Path(settings.data_dir) / "learned")
