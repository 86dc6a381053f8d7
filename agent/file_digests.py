"""Files' SHA-256 digests, kept in a data folder from one start to the next while the files are unchanged.

A start names the groundwork it keeps (agent/groundwork_cache.py) by the content of the warehouse file
and of the agent's code: reading and hashing those 13 MB was 0.04 CPU-s of every start, for files that
change only when someone replaces them. So each digest is kept with the size, modification time,
change time and inode the file had, and is used again while all four are the same. The change time is
set by the system at every write (`touch -d` and archive tools set the modification time back, never
this one). A file written in the last few seconds is hashed but its digest not kept: another write
within the clock's resolution could leave all four as they were.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

SETTLED_NS = 2_000_000_000  # a file unchanged for this long has a time stamp no later write can repeat
CHUNK = 1 << 20


class FileDigests:
    """The digests kept in `kept_at` (JSON), used while their files are unchanged; `save` keeps new ones."""

    def __init__(self, kept_at: Path) -> None:
        self.kept_at = kept_at
        self._kept = _read(kept_at)
        self._changed = False

    def digest(self, path: Path) -> bytes:
        """The SHA-256 of the file's content."""
        stat = path.stat()
        stamp = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]
        key = str(path.absolute())
        kept = self._kept.get(key)
        if kept is not None and kept[0] == stamp:
            return bytes.fromhex(kept[1])
        digest = _sha256(path)
        if time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) > SETTLED_NS:
            self._kept[key] = (stamp, digest.hex())
            self._changed = True
        return digest

    def save(self) -> None:
        """Keep the digests for the next start (files that are gone dropped); a folder that cannot be
        written only costs the next start the hashing."""
        if not self._changed:
            return
        kept = {key: entry for key, entry in self._kept.items() if os.path.exists(key)}
        try:
            self.kept_at.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=self.kept_at.parent, prefix=".digests-", delete=False) as partial:
                json.dump(kept, partial)
            os.replace(partial.name, self.kept_at)  # whole or not at all: a start reading it never sees half
        except OSError as exc:
            log.info("could not keep the files' digests in %s: %s", self.kept_at.parent, exc)
        self._changed = False


def _read(path: Path) -> dict[str, tuple[list[int], str]]:
    """The kept digests; none when the file is missing or not what `save` writes (then it is replaced)."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(kept, dict):
        return {}
    return {key: (entry[0], entry[1]) for key, entry in kept.items()
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], list) and isinstance(entry[1], str)}


def _sha256(path: Path) -> bytes:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.digest()
