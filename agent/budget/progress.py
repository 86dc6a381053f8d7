"""Is work that waits still moving? A pool whose work never ends answers nobody while everything
else looks healthy; a busy pool still finishes something now and then.

`stalled_s` is how long there has been work in flight with none of it finishing: 0 while idle or
moving. Readiness compares it with the longest any one piece of work may take (its budget): past
that the pool is stuck, not busy. Safe across threads (pools report completions from their own).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Progress:
    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self._in_flight = 0
        self._moved_at = clock()
        self._given_up = False  # work was given up on unfinished since anything last finished

    def started(self) -> None:
        with self._lock:
            if self._in_flight == 0 and not self._given_up:
                self._moved_at = self._clock()  # idle time is not a stall
            self._in_flight += 1

    def finished(self) -> None:
        """One piece of work ended (done, failed or stopped by its budget): the pool moved."""
        with self._lock:
            self._in_flight = max(0, self._in_flight - 1)
            self._moved_at = self._clock()
            self._given_up = False

    def given_up(self) -> None:
        """One piece of work was withdrawn before it ended (it never got a worker): no movement, and
        the wait goes on counting for the next piece."""
        with self._lock:
            self._in_flight = max(0, self._in_flight - 1)
            self._given_up = True

    @property
    def stalled_s(self) -> float:
        with self._lock:
            return 0.0 if self._in_flight == 0 else max(0.0, self._clock() - self._moved_at)
