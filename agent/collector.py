"""The cyclic garbage collector during start-up and at exit.

Importing the agent and building it allocates a few hundred thousand objects (modules, classes,
pydantic schemas, the semantic model) that live as long as the process. The collector is triggered
by allocation counts, so during start-up it scans them over and over, and the interpreter's exit
scans them once more, finding almost nothing to free: measured with `gc.callbacks` on
`python -m agent ask`, about a third of the command's CPU time. So collection waits while start-up
runs, and what exists then is frozen: out of the collector's sight for good, so later collections
scan only the objects the work itself makes.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused_for_startup() -> Iterator[None]:
    """No collection inside (start-up: imports and long-lived objects); on leaving, what exists is
    frozen and collection resumes as it was before."""
    with paused():
        try:
            yield
        finally:
            gc.freeze()


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No collection inside; on leaving, collection resumes as it was before and nothing is frozen: for
    a late import (a library loaded when first needed) in a process whose other objects may still
    become garbage, which a freeze would keep for good."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def freeze_before_exit() -> None:
    """The process is about to end: the interpreter's exit then frees what remains without scanning
    it for cycles first (what a cycle holds is returned to the system with the process anyway)."""
    gc.freeze()
