"""CPU-heavy steps (parse, guard, fix, explain SQL, read a question) run in worker processes under a budget.

A step that overruns is not asked to stop: pebble kills its worker process and starts a
new one, so a runaway parse costs its budget and one worker for that long, never the event
loop (pure-Python parsing in a thread would hold the GIL) or a thread nobody can stop.

Workers come from a forkserver: each is forked from a small clean process that has
already imported what the pool preloads (the steps and the SQL layer), so replacing a
killed worker is quick and never forks the bot's own threads. Results and errors travel back pickled (the typed errors survive).
Big read-only inputs many steps share (the semantic model and its values) are written once
to a file (`share`); a worker loads each file once and keeps it, and hands the step the values
(`agent.budget.sharing`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import hashlib
import logging
import multiprocessing
import pickle
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from agent.budget.progress import Progress
from agent.budget.sharing import SharedFile
from agent.errors import BusyError, InputTooLargeError, StepOverrunError

if TYPE_CHECKING:
    from pebble import ProcessPool

log = logging.getLogger(__name__)

T = TypeVar("T")

# Starting the forkserver and its first workers takes seconds on a busy machine.
START_S = 10.0
# Shared files kept at once (one per semantic model view: the whole model, or one person's part).
MAX_SHARED = 64
# Results of pure steps kept (`run_pure`): a question is read by the router, discovery and
# generate_sql in turn, and asked again by others; a few hundred readings are a few hundred KiB.
MAX_MEMO = 256


class CpuPool:
    """`preload`: the modules the forkserver imports once, so each worker starts with them loaded
    (otherwise a new worker pays their import inside its first step's budget, and on a loaded machine
    an overrun kills the worker, whose replacement pays it again). The forkserver is one per process:
    the first pool to start it decides, so every pool of a process names the same modules."""

    def __init__(
        self, workers: int, budget_s: float, *, preload: Sequence[str], progress: Progress | None = None
    ):
        self.workers = workers
        self.budget_s = budget_s
        self.preload = list(preload)
        self.progress = progress or Progress()
        self._pool: ProcessPool | None = None
        self._started = False  # `_pool` has its workers (a new pool starts them on first use, for seconds)
        self._starting = threading.Lock()  # one pool, however many threads ask at once
        self._warming: threading.Thread | None = None
        self._lock = threading.Lock()
        self.overruns = 0  # steps stopped from outside since start (a metric)
        self._shared_dir: tempfile.TemporaryDirectory[str] | None = None
        # id()s of the shared values -> (the values, kept so the ids stay theirs; their file)
        self._shared: dict[tuple[int, ...], tuple[tuple[Any, ...], Path]] = {}
        self._memo: OrderedDict[tuple[Hashable, ...], Any] = OrderedDict()

    def _ensure(self) -> ProcessPool:
        """The running pool, started now if need be (this waits for the forkserver's imports)."""
        # pebble (and its multiprocessing machinery, ~0.015 CPU-s) only once a pool starts: a command line
        # runs its steps in-process and never starts one; the bot starts it once it serves.
        from pebble import ProcessPool

        with self._starting:
            if self._pool is None or not self._pool.active:  # `active` starts a new pool's workers
                self._started = False
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(self.preload)
                self._pool = ProcessPool(max_workers=self.workers, context=context)
                if not self._pool.active:
                    raise RuntimeError("the CPU worker pool did not start")
            self._started = True
            return self._pool

    async def run(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` in a worker; `what` names the step for the person ("Reading the SQL")."""
        self.progress.started()  # waiting for the workers to start is waiting for the step
        try:
            pool = self._pool
            if pool is None or not self._started or not pool.active:
                # Starting workers waits for the forkserver's imports (seconds): never on the event loop.
                pool = await asyncio.wait_for(asyncio.to_thread(self._ensure), self._wait_s)
            future: concurrent.futures.Future[T] = pool.schedule(fn, args=args, kwargs=kwargs, timeout=self.budget_s)
        except BaseException as exc:
            self.progress.given_up()
            raise (_busy(what) if isinstance(exc, TimeoutError) else exc) from None
        future.add_done_callback(lambda f: self.progress.given_up() if f.cancelled() else self.progress.finished())
        try:
            # The pool's timeout starts when a worker takes the step; the wait for a worker (or for
            # the first workers to start) is bounded too.
            return await asyncio.wait_for(asyncio.wrap_future(future), self._wait_s)
        except BaseException as exc:
            raise self._failure(what, future, exc) from None

    async def run_pure(self, what: str, fn: Callable[..., T], *args: Hashable) -> T:
        """`run` for a step whose result follows from its arguments alone (a shared file is named by
        its content): the same step asked again is answered from the last MAX_MEMO results, without a
        worker. Each caller gets its own copy, so changing it changes nobody else's."""
        key = (fn, *args)
        if key in self._memo:
            self._memo.move_to_end(key)
            remembered: T = self._memo[key]  # the key starts with `fn`: what `fn` returned
            return copy.deepcopy(remembered)
        result = await self.run(what, fn, *args)
        self._memo[key] = result
        if len(self._memo) > MAX_MEMO:
            self._memo.popitem(last=False)
        return copy.deepcopy(result)

    async def run_sharing(self, what: str, fn: Callable[..., T], shared: tuple[Any, ...], *args: Any) -> T:
        """`run`, `fn` handed first `shared` (big read-only values: a semantic model and its values), which
        travel to its worker as a file written once (`share`): one call to share them and run it."""
        return await self.run(what, fn, self.share(*shared), *args)

    def share(self, *values: Any) -> Any:
        """`values` as a step argument that arrives in the worker as `values` (`sharing.SharedFile`: a file
        holding them pickled, loaded once per worker); written once per set of objects, so pass the same
        objects again to reuse it."""
        with self._lock:
            key = tuple(id(v) for v in values)
            known = self._shared.get(key)
            if known is not None and all(a is b for a, b in zip(known[0], values)):
                return SharedFile(known[1])
            data = pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)
            if self._shared_dir is None:
                self._shared_dir = tempfile.TemporaryDirectory(prefix="cpu-shared-")
            path = Path(self._shared_dir.name) / f"{hashlib.sha256(data).hexdigest()[:32]}.pickle"
            if not path.exists():
                partial = path.with_suffix(".partial")
                partial.write_bytes(data)
                partial.replace(path)  # a worker never reads a half-written file
            if len(self._shared) >= MAX_SHARED:
                self._shared.pop(next(iter(self._shared)))
            self._shared[key] = (values, path)
            return SharedFile(path)

    @property
    def _wait_s(self) -> float:
        return self.budget_s + max(self.budget_s, START_S)

    def problem(self) -> str | None:
        """None while steps finish; a reason once steps have waited past the longest a step may take (its
        budget, then its worker's replacement) with none finishing: the workers are stuck, not busy."""
        stalled_s = self.progress.stalled_s
        if stalled_s <= self._wait_s:
            return None
        return f"the CPU workers have finished no step for {stalled_s:.0f} s"

    def _failure(self, what: str, future: concurrent.futures.Future[Any], exc: BaseException) -> BaseException:
        """What the person is told when a step did not return its result."""
        if isinstance(exc, TimeoutError):
            if future.cancelled():  # our own wait ran out first (the step never reached a worker)
                return _busy(what)
            self.overruns += 1
            log.warning("%s ran past its %gs budget; its worker was stopped", what, self.budget_s)
            return StepOverrunError(
                f"{what} took longer than {self.budget_s:g} seconds, so I stopped it. "
                "Please send something shorter or simpler."
            )
        if isinstance(exc, RecursionError):
            return InputTooLargeError(f"{what} stopped: the input is nested too deeply for me to read.")
        from pebble import ProcessExpired  # imported with the pool whose step this was

        if isinstance(exc, ProcessExpired):
            log.error("%s: its worker process died (%s)", what, exc)
            return StepOverrunError(f"{what} failed: the worker running it stopped unexpectedly. Please try again.")
        return exc

    def warm(self) -> None:
        """Start the workers now, on a thread of their own, so the first person's step does not wait for
        them and the caller does not either: the forkserver imports the SQL layer, the word data and
        matplotlib before it forks the first worker, seconds the bot would otherwise spend unready."""
        self._warming = threading.Thread(target=self._ensure, name="cpu-pool-start", daemon=True)
        self._warming.start()

    def close(self) -> None:
        """Stop every worker now (running steps are abandoned); the next `run` starts a new pool."""
        if self._warming is not None:  # a pool still starting is stopped once it has started
            self._warming.join(timeout=START_S)
            self._warming = None
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=5)
            self._pool = None


def _busy(what: str) -> BusyError:
    return BusyError(f"{what} is waiting for a free worker; the bot is busy right now. Please try again in a minute.")
