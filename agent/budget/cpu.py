"""CPU-heavy steps (parse, guard, fix, explain SQL) run in worker processes under a budget.

A step that overruns is not asked to stop: pebble kills its worker process and starts a
new one, so a runaway parse costs its budget and one worker for that long, never the event
loop (pure-Python parsing in a thread would hold the GIL) or a thread nobody can stop.

Workers come from a forkserver: each is forked from a small clean process that has
already imported the SQL layer, so replacing a killed worker is quick and never forks the
bot's own threads. Results and errors travel back pickled (the typed errors survive).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from typing import Any, TypeVar

from pebble import ProcessExpired, ProcessPool

from agent.errors import BusyError, InputTooLargeError, StepOverrunError

log = logging.getLogger(__name__)

T = TypeVar("T")

# Imported once by the forkserver so each worker starts with them loaded.
_PRELOAD = ["agent.budget.steps"]
# Starting the forkserver and its first workers takes seconds on a busy machine.
START_S = 10.0


class CpuPool:
    def __init__(self, workers: int, budget_s: float):
        self.workers = workers
        self.budget_s = budget_s
        self._pool: ProcessPool | None = None
        self.overruns = 0  # steps stopped from outside since start (a metric)

    def _ensure(self) -> ProcessPool:
        if self._pool is None or not self._pool.active:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_PRELOAD)
            self._pool = ProcessPool(max_workers=self.workers, context=context)
        return self._pool

    async def run(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` in a worker; `what` names the step for the person ("Reading the SQL")."""
        future = self._ensure().schedule(fn, args=args, kwargs=kwargs, timeout=self.budget_s)
        try:
            # The pool's timeout starts when a worker takes the step; the wait for a worker (or for
            # the first workers to start) is bounded too.
            return await asyncio.wait_for(asyncio.wrap_future(future), self.budget_s + max(self.budget_s, START_S))
        except TimeoutError:
            if future.cancelled():  # our own wait ran out first (wait_for cancelled the step)
                raise BusyError(
                    f"{what} is waiting for a free worker; the bot is busy right now. Please try again in a minute."
                ) from None
            self.overruns += 1
            log.warning("%s ran past its %gs budget; its worker was stopped", what, self.budget_s)
            raise StepOverrunError(
                f"{what} took longer than {self.budget_s:g} seconds, so I stopped it. "
                "Please send something shorter or simpler."
            ) from None
        except RecursionError:
            raise InputTooLargeError(f"{what} stopped: the input is nested too deeply for me to read.") from None
        except ProcessExpired as exc:
            log.error("%s: its worker process died (%s)", what, exc)
            raise StepOverrunError(f"{what} failed: the worker running it stopped unexpectedly. Please try again.") from None

    def warm(self) -> None:
        """Start the workers now, so the first person's step does not wait for them."""
        self._ensure().schedule(_nothing)

    def close(self) -> None:
        """Stop every worker now (running steps are abandoned); the next `run` starts a new pool."""
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=5)
            self._pool = None


def _nothing() -> None:
    return None
