"""The reader's word look-ups kept on disk, so a new process need not load the libraries' tables.

Reading a semantic model asks lemminflect and wordfreq about a few hundred words; answering them
loads both libraries' whole tables first (about a CPU-second), which a command line asking one
question pays at every start, and the bot at every restart. Snowball's stemmer is cheaper, yet not
free: importing it imports all of its thirty-odd languages, and it stems a few hundred words at about
60 µs each (some 30 ms together). The answers are kept in one JSON file under DATA_DIR/cache named by
the libraries' versions (an upgrade starts a new file), so the next process reads them from there; a
word not in it is looked up in the libraries, which load then.

The file holds plain JSON values (`words` turns them back into its types); at most MAX_ENTRIES
per kind, the oldest dropped first. Writes replace the file whole, so a reader never sees half of
one; two processes writing at once lose at most each other's new words.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FORMAT = 1  # bump when what a kind stores changes
MAX_ENTRIES = 20_000  # per kind: a model's words and the questions' words, a few hundred KiB of JSON
MISSING = object()


def file_name() -> str:
    """The cache file's name for the installed libraries."""
    versions = []
    for package in ("lemminflect", "wordfreq", "snowballstemmer"):
        try:
            versions.append(f"{package}-{version(package)}")
        except PackageNotFoundError:
            versions.append(f"{package}-unknown")
    return f"words-{FORMAT}-{'-'.join(versions)}.json"


class WordCache:
    def __init__(self) -> None:
        self._tables: dict[str, dict[str, Any]] = {}
        self._path: Path | None = None
        self._unsaved = False
        self._lock = threading.Lock()

    @property
    def path(self) -> Path | None:
        return self._path

    def use(self, folder: Path) -> None:
        """Keep the cache in `folder` from now on, adding what its file already holds."""
        path = folder / file_name()
        with self._lock:
            if path == self._path:
                return
            self._path = path
            stored = _read(path)
            known = {kind: len(table) for kind, table in self._tables.items()}
            for kind, table in stored.items():
                self._tables[kind] = {**table, **self._tables.get(kind, {})}
            # Words this process looked up before that the file lacks: save them there too.
            self._unsaved = any(len(stored.get(kind, {})) < count for kind, count in known.items())

    def get(self, kind: str, word: str) -> Any:
        """The stored value, or MISSING."""
        return self._tables.get(kind, {}).get(word, MISSING)

    def put(self, kind: str, word: str, value: Any) -> None:
        with self._lock:
            table = self._tables.setdefault(kind, {})
            table[word] = value
            while len(table) > MAX_ENTRIES:
                del table[next(iter(table))]
            self._unsaved = True

    def save(self) -> None:
        """Write the file if this process learned words since it was read; a failure is logged, not raised
        (the cache only saves time)."""
        with self._lock:
            if self._path is None or not self._unsaved:
                return
            path, text = self._path, json.dumps(self._tables, separators=(",", ":"), sort_keys=True)
            self._unsaved = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=path.name, suffix=".tmp",
                                             delete=False, encoding="utf-8") as out:
                out.write(text)
            os.replace(out.name, path)
        except OSError as exc:
            log.info("the reader's word cache was not saved to %s: %s", path, exc)


def _read(path: Path) -> dict[str, dict[str, Any]]:
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.info("the reader's word cache %s could not be read (%s); starting it again", path, exc)
        return {}
    if not isinstance(stored, dict) or not all(isinstance(t, dict) for t in stored.values()):
        return {}
    return stored
