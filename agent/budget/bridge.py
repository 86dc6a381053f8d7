"""Budgeted async work for code that runs on a thread of its own during a run.

The offline chat model's callbacks (the router's recognisers, its structured answers) are
plain functions LangChain calls on an executor thread. A warehouse call they make must still
take a warehouse slot and its budget, which live on the run's event loop: `on_run_loop`
hands the call to that loop and waits for it, and the budget bounds the wait.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

# The event loop of the run in progress (set beside RUN_CONTEXT; executor threads inherit it).
RUN_LOOP: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("run_loop", default=None)


def on_run_loop(work: Callable[[], Coroutine[Any, Any, T]], outside: Callable[[], T]) -> T:
    """`work()` awaited on the run's loop from this thread; `outside()` when there is no run to hand it
    to (a script or a test calling the callback directly) or when this thread is the loop's own."""
    loop = RUN_LOOP.get()
    if loop is None or loop.is_closed() or _on_a_loop():
        return outside()
    return asyncio.run_coroutine_threadsafe(work(), loop).result()


def _on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
