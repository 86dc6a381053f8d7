"""Work that ignores every request to stop, for the budget tests.

`spin` is CPU-bound pure Python (it never yields, so only killing its process stops it).
`blocking_engine` stands in for the warehouse's engine call: for SQL that `blocks` (by
default: it mentions `runaway`) it blocks until released, never looking at the engine's
interrupt, like a statement the engine cannot cancel. Dry runs (EXPLAIN) pass through.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

RUNAWAY_MARK = "runaway"


def spin(seconds: float | None = None) -> int:
    """Burn CPU (forever when `seconds` is None) without ever checking for cancellation."""
    import time

    count, started = 0, time.monotonic()
    while seconds is None or time.monotonic() - started < seconds:
        count += 1
    return count


def blocking_engine(
    real: Callable,
    release: threading.Event,
    started: Callable[[], None] | None = None,
    blocks: Callable[[str], bool] = lambda sql: RUNAWAY_MARK in sql,
) -> Callable:
    """A replacement for the engine call `real`, whatever its other arguments: the SQL is the one string."""

    def execute(*args):
        sql = next(a for a in args if isinstance(a, str))
        if blocks(sql) and not sql.lstrip().upper().startswith("EXPLAIN"):
            if started is not None:
                started()
            release.wait()
        return real(*args)

    return execute if _is_method(real) else staticmethod(execute)


def _is_method(function: Callable) -> bool:
    """True for a plain function defined in a class body (it takes `self`), False for a staticmethod's."""
    import inspect

    parameters = list(inspect.signature(function).parameters)
    return bool(parameters) and parameters[0] == "self"


def endless_read(semantic, questions: list[str], dialect: str):
    """Stands in for `steps.read_and_compile` in a CPU worker: a question that mentions `runaway` is read
    forever (a pathological parse); any other is read by the real step."""
    from agent.tools import steps  # the worker's own module: the test's patch lives in the bot's process

    if any(RUNAWAY_MARK in question for question in questions):
        spin()
    return steps.read_and_compile(semantic, questions, dialect)
