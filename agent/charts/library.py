"""The parts of matplotlib the renderer uses, imported the cheap way (a command line imports them only
when its answer has a chart, and then waits for them).

Two things make matplotlib's import dearer than it needs to be here:

- Each of its ~100 Artist classes builds, as it is defined, a docstring listing every property its
  `set()` accepts (`matplotlib.artist.kwdoc`, reading each setter's own docstring): about a sixth of
  the import's CPU. Nothing here reads those docstrings, so they are left out. Only documentation
  changes: `help(artist.set)` no longer lists the properties; signatures and behaviour stay.
- The import allocates tens of thousands of objects that live as long as the process, which the
  cyclic collector would scan over and over as they come: it waits while they are made (as at
  start-up, agent/collector.py; nothing is frozen, the import may come late in a process's life).
"""

from __future__ import annotations

from typing import Any

from agent.collector import paused

PROPERTIES_NOT_LISTED = "Properties: see the matplotlib documentation of this class."


def _properties_not_listed(artist: Any) -> str:
    return PROPERTIES_NOT_LISTED


with paused():
    import matplotlib.artist

    # Before the modules that define the Artist classes are imported: each class's docstring is
    # built from this as the class is created (`Artist.__init_subclass__`).
    matplotlib.artist.kwdoc = _properties_not_listed

    from matplotlib.axes import Axes
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine
    from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator

__all__ = [
    "AutoDateLocator",
    "Axes",
    "ConciseDateFormatter",
    "ConstrainedLayoutEngine",
    "Figure",
    "FigureCanvasAgg",
    "FixedLocator",
    "FuncFormatter",
    "MaxNLocator",
]
