"""Big read-only values steps share (`CpuPool.share`), as a step receives them in its process.

A worker pool writes the values to a file once (`SharedFile`); the file travels to a worker by its
path and arrives there as the values, read once per worker and kept. An in-process pool hands its
own objects over as they are. Either way a step is handed the values, never a name to look up.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_LOADED = 8  # shared files a worker keeps (the whole semantic model, and a few people's parts)

_loaded: dict[str, tuple[Any, ...]] = {}  # files this worker has read, by path


@dataclass(frozen=True)
class SharedFile:
    """Values `CpuPool.share` wrote to `path`. Pickled for a worker it is its path alone, and unpickled
    there it is the values themselves (`shared`): the step is handed them."""

    path: Path

    def __reduce__(self) -> tuple[Callable[[Path], tuple[Any, ...]], tuple[Path]]:
        return shared, (self.path,)


def shared(path: Path) -> tuple[Any, ...]:
    """The values `CpuPool.share` wrote to `path`, read once per worker process and kept."""
    key = str(path)
    if key not in _loaded:
        if len(_loaded) >= MAX_LOADED:
            _loaded.pop(next(iter(_loaded)))
        with open(path, "rb") as file:
            _loaded[key] = pickle.load(file)
    return _loaded[key]
