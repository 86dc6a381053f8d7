"""Charts drawn lately, by what they draw: the same spec over the same columns and rows is the same PNG.

A chart is a pure function of its spec, columns and rows (`render_png` draws nothing else: no date, no
session, no person), and drawing one costs ~80 ms of a CPU worker, more than the rest of its answer's
CPU. A crowd asks the same few questions ("flights by origin" from five people, a Retry, the demo's
suggested prompts) over the same data, so the same picture is asked for again and again; it is drawn
once and the bytes kept. Keyed by a digest of the spec's JSON with the columns and rows pickled (as they
are to reach the worker): inputs that pickle alike are alike, and equal inputs that pickle differently
(an int for a float) only miss.
Bounded in count and in bytes, least recently used first out; imports no matplotlib.
"""

from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from agent.charts.spec import ChartSpec

# A PNG of the default size is 20-80 KB: at most a few MiB kept.
MAX_CHARTS = 64
MAX_BYTES = 4 * 2**20


def chart_key(spec: ChartSpec, columns: Sequence[str], rows: Sequence[Any]) -> bytes:
    """What the chart draws, as a digest."""
    data = pickle.dumps((spec.model_dump_json(), list(columns), rows), protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.blake2b(data, digest_size=20).digest()


class DrawnCharts:
    def __init__(self, max_charts: int = MAX_CHARTS, max_bytes: int = MAX_BYTES) -> None:
        self.max_charts, self.max_bytes = max_charts, max_bytes
        self._pngs: OrderedDict[bytes, bytes] = OrderedDict()
        self._bytes = 0

    def get(self, key: bytes) -> bytes | None:
        png = self._pngs.get(key)
        if png is not None:
            self._pngs.move_to_end(key)
        return png

    def keep(self, key: bytes, png: bytes) -> None:
        if len(png) > self.max_bytes:
            return
        old = self._pngs.pop(key, None)
        self._bytes += len(png) - (len(old) if old is not None else 0)
        self._pngs[key] = png
        while len(self._pngs) > self.max_charts or self._bytes > self.max_bytes:
            _, dropped = self._pngs.popitem(last=False)
            self._bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._pngs)
