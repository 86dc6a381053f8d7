"""Acks before agent work. Slack wants every request acknowledged within 3 s; a job's first
message can wait a moment. During a burst, the jobs queued by the first requests would share
the one event loop with the acks still to be sent, and each ack would wait behind their Slack
calls. So a job starts once requests have stopped arriving for `quiet_s`, or `max_wait_s` after the
first of them at most, so a steady stream of requests cannot starve the work.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator

QUIET_S = 0.02
MAX_WAIT_S = 1.0


class AckFirst:
    def __init__(self, quiet_s: float = QUIET_S, max_wait_s: float = MAX_WAIT_S):
        self.quiet_s = quiet_s
        self.max_wait_s = max_wait_s
        self._in_flight = 0
        self._last_request = float("-inf")
        self._quiet: asyncio.Event | None = None  # made inside the running loop, on first use
        self._timer: asyncio.TimerHandle | None = None
        # Set when the gate closes: however busy it stays, it opens max_wait_s later. Kept on the gate, not
        # per waiting job: a job's wait is one await on the event, no timeout task of its own, so the jobs
        # queued by a burst cost the acks still to send as little as they can.
        self._deadline: asyncio.TimerHandle | None = None

    def _event(self) -> asyncio.Event:
        if self._quiet is None:
            self._quiet = asyncio.Event()
            self._quiet.set()
        return self._quiet

    @contextlib.contextmanager
    def acknowledging(self) -> Iterator[None]:
        """Around the handling of one request, up to its response."""
        self._in_flight += 1
        quiet = self._event()
        if quiet.is_set():
            quiet.clear()
            self._deadline = asyncio.get_running_loop().call_later(self.max_wait_s, self._open)
        try:
            yield
        finally:
            self._in_flight -= 1
            self._last_request = time.monotonic()
            if self._timer is None:
                self._timer = asyncio.get_running_loop().call_later(self.quiet_s, self._check)

    def _check(self) -> None:
        self._timer = None
        quiet_for = time.monotonic() - self._last_request
        if self._in_flight == 0 and quiet_for >= self.quiet_s:
            self._open()
        elif not self._event().is_set():  # requests still arriving: look again once the newest is quiet_s old
            delay = max(self.quiet_s - quiet_for, 0.001)
            self._timer = asyncio.get_running_loop().call_later(delay, self._check)

    def _open(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._event().set()

    def is_open(self) -> bool:
        return self._event().is_set()

    async def wait(self) -> None:
        quiet = self._event()
        if not quiet.is_set():
            await quiet.wait()
