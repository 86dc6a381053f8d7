"""Big read-only values steps share (`CpuPool.share`), as a step finds them in its process.

A worker pool writes the values to a file once; a worker reads each file once and keeps it.
An in-process pool hands its own objects over without a file (`keep`).
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

MAX_LOADED = 8  # shared files a worker keeps (the whole semantic model, and a few people's parts)

_loaded: dict[str, tuple[Any, ...]] = {}  # files this worker has read, by path
_kept: dict[str, tuple[Any, ...]] = {}  # values an InProcessCpu shares with steps run in its own process


def shared(path: Path) -> tuple[Any, ...]:
    """The values `CpuPool.share` wrote to `path`, read once per worker process and kept."""
    key = str(path)
    if key in _kept:
        return _kept[key]
    if key not in _loaded:
        if len(_loaded) >= MAX_LOADED:
            _loaded.pop(next(iter(_loaded)))
        with open(path, "rb") as file:
            _loaded[key] = pickle.load(file)
    return _loaded[key]


def keep(path: Path, values: tuple[Any, ...]) -> None:
    """`values` are what `shared(path)` returns in this process, as they are (no file, no copy)."""
    _kept[str(path)] = values


def forget(path: Path) -> None:
    _kept.pop(str(path), None)
