"""Daemon threads kept a while after their work, so a blocking call seldom waits for one to start.

Starting a thread waits until the new thread runs: on a loaded machine that is milliseconds of the
event loop's time for every warehouse call (three a question). A thread that has finished its work
waits up to `idle_s` for more and ends after that. Threads stay daemons, never an executor's: work
left running (an abandoned query) holds its own thread until it ends, and never keeps the process
alive at exit. A thread whose work changed its CPU priority (a costly query runs niced; only root
may undo that) ends with that work, so the next call runs at the process's own priority.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

IDLE_S = 30.0

Work = Callable[[], None]


class DaemonThreads:
    def __init__(self, idle_s: float = IDLE_S):
        self.idle_s = idle_s
        self._handed: queue.SimpleQueue[tuple[Work, str]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        # Threads waiting for work that none has been promised yet. Every thread waiting is either
        # counted here or has work promised it (in `_handed`, or about to be).
        self._idle = 0
        self._busy = 0  # work handed out and not yet done

    @property
    def idle(self) -> int:
        return self._idle

    @property
    def busy(self) -> int:
        return self._busy

    def run(self, work: Work, name: str) -> None:
        """`work()` on a waiting thread, or on a new one when none waits; `work` handles its own errors."""
        with self._lock:
            self._busy += 1
            if self._idle:
                self._idle -= 1
                self._handed.put((work, name))
                return
        threading.Thread(target=self._serve, args=(work, name), name=name, daemon=True).start()

    def _serve(self, work: Work, name: str) -> None:
        priority = _priority()
        while True:
            threading.current_thread().name = name
            try:
                work()
            except BaseException:  # noqa: BLE001 - the work reports its own outcome; this is a bug in it
                log.exception("work on thread %s raised", name)
                self._done(keep=False)
                return
            if not self._done(keep=_priority() == priority):
                return
            try:
                work, name = self._handed.get(timeout=self.idle_s)
            except queue.Empty:
                with self._lock:
                    if self._idle:  # nothing promised to a waiting thread: this one may go
                        self._idle -= 1
                        return
                work, name = self._handed.get()  # every waiting thread was promised work: ours is coming

    def _done(self, *, keep: bool) -> bool:
        """One piece of work done; with `keep`, the thread waits for more (it counts as idle first)."""
        with self._lock:
            self._busy -= 1
            if keep:
                self._idle += 1
        return keep


def _priority() -> int | None:
    """This thread's niceness (Linux keeps one per thread); None where it cannot be read."""
    with contextlib.suppress(OSError, AttributeError):
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    return None
