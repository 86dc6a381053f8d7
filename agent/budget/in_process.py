"""CPU steps in the calling process, for a command line's one question: no worker pool to start.

A forkserver and two workers, each importing the SQL layer and the reader's word data, cost more
CPU than answering one question; a command line that asks once and exits has nothing else to run
while a step does, so the step runs where it is asked. Its budget is still kept: an interval timer
(SIGALRM) interrupts a step that runs past it, which works for the pure-Python parse this is for.
The shared values (`share`) are the process's own objects, handed to the step as they are.
A step that needs a process of its own (`own_process`: a fix's probes open the warehouse file their
own way) gets one worker, started when such a step first comes.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, TypeVar

from agent.budget.ahead import StepAhead
from agent.budget.cpu import CpuPool
from agent.budget.progress import Progress
from agent.errors import InputTooLargeError, StepOverrunError

log = logging.getLogger(__name__)

T = TypeVar("T")


class _Overrun(BaseException):
    """Raised inside a step by the timer; a BaseException, so the step's own `except Exception` keeps out."""


class InProcessCpu(CpuPool):
    def __init__(
        self,
        budget_s: float,
        *,
        preload: Sequence[str],
        own_process: frozenset[Callable[..., Any]] = frozenset(),
        ahead: dict[Callable[..., Any], StepAhead] | None = None,
        progress: Progress | None = None,
    ):
        # The one worker starts only if a step in `own_process` comes.
        super().__init__(workers=1, budget_s=budget_s, preload=preload, progress=progress)
        self.own_process = own_process
        self.ahead = dict(ahead or {})

    async def run(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if fn in self.own_process:
            return await super().run(what, fn, *args, **kwargs)
        ahead = self.ahead.pop(fn, None)
        self.progress.started()
        try:
            if ahead is not None:
                result: T = await self._ahead(ahead, what, args, kwargs)  # what `fn` returns, from its process
                return result
            return self._within_budget(what, fn, args, kwargs)
        finally:
            self.progress.finished()

    async def _ahead(self, ahead: StepAhead, what: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            # On a thread: the step waits for another process, the event loop need not.
            return await asyncio.to_thread(ahead.run, what, self.budget_s, args, kwargs)
        finally:
            self.overruns += ahead.overran

    def _within_budget(self, what: str, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        if threading.current_thread() is not threading.main_thread():
            # Only the main thread receives signals; a command line runs its loop there, so this is a
            # caller that should have a worker pool: said, and the step still runs.
            log.warning("%s runs in-process outside the main thread, without its %gs budget", what, self.budget_s)
            return fn(*args, **kwargs)

        def overrun(signum: int, frame: FrameType | None) -> None:
            raise _Overrun

        previous = signal.signal(signal.SIGALRM, overrun)
        signal.setitimer(signal.ITIMER_REAL, self.budget_s)
        try:
            return fn(*args, **kwargs)
        except _Overrun:
            self.overruns += 1
            log.warning("%s ran past its %gs budget; it was stopped", what, self.budget_s)
            raise StepOverrunError(
                f"{what} took longer than {self.budget_s:g} seconds, so I stopped it. "
                "Please send something shorter or simpler."
            ) from None
        except RecursionError:
            raise InputTooLargeError(f"{what} stopped: the input is nested too deeply for me to read.") from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def share(self, *values: Any) -> Any:
        """`values` themselves: a step run here is handed these very objects (nothing pickled, no file)."""
        return values

    def warm(self) -> None:
        """Nothing to start: the one worker starts only if a step needs it."""

    def close(self) -> None:
        super().close()
        for ahead in self.ahead.values():  # a guess that did not come true: its process is stopped
            ahead.close()
        self.ahead.clear()
