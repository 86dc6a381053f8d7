"""Blocking warehouse calls, each on its own thread, at most `slots` at once, under a budget.

The engine is asked to stop first (its own interrupt at the query time limit); a call that
does not stop by its budget is abandoned: the caller gets a clear error at once, and the
thread keeps its slot until it really ends, because it really is still using the engine.
So a runaway statement costs its budget and one slot, and each person may hold at most
one abandoned slot: their next query is refused until it ends, and other people's queries
take the free slots. When every slot is held past its budget the pool is wedged, which
readiness reports.

Runaways from many people cannot starve the others: one person, one channel, and all the
queries the engine estimates costly together, hold at most `per_holder` slots at once (a
share of them), and the last free slot is kept for a person holding none whose query is not
estimated costly. That person never waits behind shares: an ordinary question gets a slot
while others' runaways hold the rest, and shares the engine's threads with fewer of them.

Threads are daemons and never asyncio's default executor: an abandoned call must neither
block other `to_thread` work nor keep the process alive at exit. A thread whose call has ended
waits a while for the next (`DaemonThreads`), so a call seldom waits for a thread to start.

`call_blocking` is the same for code with no event loop to await on (start-up reads of the
schema and values, before the bot serves anyone; reads from a thread): it waits on its own
thread, and takes its slot without queueing for one, as nothing else runs then. Called from
work already on a slot (a query's schema check), it simply runs: the slot's budget holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from agent.budget.threads import DaemonThreads
from agent.errors import BusyError, QueryTimeoutError

log = logging.getLogger(__name__)

T = TypeVar("T")

_on_slot = threading.local()  # `active` is True on a thread while it does a slot's work
_threads = DaemonThreads()


@dataclass
class _Call:
    owner: str | None
    started: float
    budget_s: float
    abandoned: bool = False
    channel: str | None = None
    costly: bool = False

    def overdue(self, now: float) -> bool:
        return now - self.started > self.budget_s


class BlockingSlots:
    def __init__(self, slots: int, *, share: float = 1.0, clock: Callable[[], float] = time.monotonic):
        self.slots = slots
        # Most slots one person, or one channel, holds at once (at least one, or nobody could run anything).
        self.per_holder = max(1, math.floor(slots * share))
        # Slots that only people holding none, with a query not estimated costly, may take.
        self.kept = 1 if slots > 1 else 0
        self._clock = clock
        self._calls: dict[int, _Call] = {}
        self._ids = itertools.count()
        self._freed: asyncio.Event | None = None
        self._waiting_loop: asyncio.AbstractEventLoop | None = None  # where `_freed` is awaited
        self.abandoned_total = 0  # calls given up on since start (a metric)
        self.waiting = 0  # callers waiting for a slot right now

    async def call(
        self,
        fn: Callable[..., T],
        *args: Any,
        budget_s: float,
        owner: str | None = None,
        channel: str | None = None,
        costly: bool = False,
        **kwargs: Any,
    ) -> T:
        """`fn(*args, **kwargs)` on a slot. `owner` (a person) and `channel` each hold at most `per_holder`
        slots; `costly` calls (the engine's estimate) too, all together, and never the last free slot."""
        loop = asyncio.get_running_loop()
        self._refuse_if_holding_runaway(owner)
        call_id = await self._take_slot(owner, channel, costly, budget_s, self._clock() + budget_s)
        # The budget counts from the slot on, as the engine's own time limit does: a call that waited
        # for its slot is not abandoned before the engine had the chance to stop it.
        deadline = self._calls[call_id].started + budget_s
        result: asyncio.Future[T] = loop.create_future()
        _threads.run(lambda: self._work(loop, call_id, result, fn, args, kwargs), f"blocking-{call_id}")
        try:
            return await asyncio.wait_for(asyncio.shield(result), max(0.0, deadline - self._clock()))
        except TimeoutError:
            self._abandon(call_id, "did not stop within its budget")
            raise QueryTimeoutError(
                f"The query did not stop within {budget_s:g} seconds, so I gave up on it. "
                "Try a narrower filter or a smaller time range."
            ) from None
        except asyncio.CancelledError:
            self._abandon(call_id, "was cancelled by its caller")
            raise

    def call_blocking(self, fn: Callable[..., T], *args: Any, budget_s: float, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` on a thread of its own; QueryTimeoutError when it does not return within
        `budget_s` (the thread keeps its slot until it ends). On the event loop's thread it holds the loop
        for up to `budget_s`: async code uses `call`."""
        if getattr(_on_slot, "active", False):
            return fn(*args, **kwargs)
        done = threading.Event()
        values: list[T] = []  # what fn returned, or
        errors: list[BaseException] = []  # what it raised
        call_id = next(self._ids)
        self._calls[call_id] = _Call(None, self._clock(), budget_s)

        def work() -> None:
            _on_slot.active = True
            try:
                values.append(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the caller, who decides what the person is told
                errors.append(exc)
            finally:
                _on_slot.active = False  # the thread may do other work next
                call = self._calls.pop(call_id, None)
                if call is not None and call.abandoned:
                    log.warning("an abandoned blocking call ended after %.0fs; its slot is free again",
                                self._clock() - call.started)
                done.set()
                loop = self._waiting_loop
                if loop is not None:
                    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits on it
                        loop.call_soon_threadsafe(self._wake)

        _threads.run(work, f"blocking-{call_id}")
        if not done.wait(budget_s):
            self._abandon(call_id, "did not stop within its budget")
            raise QueryTimeoutError(
                f"The warehouse did not answer within {budget_s:g} seconds, so I gave up waiting for it."
            )
        if errors:
            raise errors[0]
        return values[0]

    def snapshot(self) -> dict[str, Any]:
        """Slots in use, how many are held past their budget and for how long past it at most (wedged:
        all of them), and how many callers wait for one."""
        now = self._clock()
        past = [now - c.started - c.budget_s for c in self._calls.values() if c.overdue(now)]
        return {
            "slots": self.slots,
            "busy": len(self._calls),
            "waiting": self.waiting,
            "overdue": len(past),
            "overdue_longest_s": round(max(past, default=0.0), 1),
            "abandoned_total": self.abandoned_total,
            "wedged": len(past) >= self.slots,
        }

    # -- internals ---------------------------------------------------------------------------

    def _refuse_if_holding_runaway(self, owner: str | None) -> None:
        if owner is not None and any(c.owner == owner and c.abandoned for c in self._calls.values()):
            raise BusyError(
                "Your earlier query is still running past its time limit, so I am not starting another "
                "one for you until it ends. Please try again in a few minutes."
            )

    def _may_take(self, owner: str | None, channel: str | None, costly: bool) -> bool:
        free = self.slots - len(self._calls)
        if free <= 0:
            return False
        mine = sum(1 for c in self._calls.values() if owner is not None and c.owner == owner)
        if mine >= self.per_holder:
            return False
        if mine == 0 and not costly:
            return True  # what the kept slot is for; others' shares never hold this person up
        if free <= self.kept:
            return False
        if costly and sum(1 for c in self._calls.values() if c.costly) >= self.per_holder:
            return False  # costly work shares the engine's threads too: together it gets one holder's share
        return channel is None or sum(1 for c in self._calls.values() if c.channel == channel) < self.per_holder

    async def _take_slot(
        self, owner: str | None, channel: str | None, costly: bool, budget_s: float, deadline: float
    ) -> int:
        while not self._may_take(owner, channel, costly):
            self._freed = self._freed or asyncio.Event()
            self._waiting_loop = asyncio.get_running_loop()
            self.waiting += 1
            try:
                await asyncio.wait_for(self._freed.wait(), max(0.0, deadline - self._clock()))
            except TimeoutError:
                raise self._busy(owner) from None
            finally:
                self.waiting -= 1
        call_id = next(self._ids)
        self._calls[call_id] = _Call(owner, self._clock(), budget_s, channel=channel, costly=costly)
        return call_id

    def _busy(self, owner: str | None) -> BusyError:
        if owner is not None and sum(1 for c in self._calls.values() if c.owner == owner) >= self.per_holder:
            return BusyError(
                f"Your other queries hold {self.per_holder} warehouse slots, as many as one person may use at "
                "once, and none finished in time for this one. Please try again when they have."
            )
        return BusyError("The warehouse is busy with other queries right now; please try again in a minute.")

    def _work(
        self,
        loop: asyncio.AbstractEventLoop,
        call_id: int,
        result: asyncio.Future[T],
        fn: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        _on_slot.active = True
        try:
            value = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the caller, who decides what the person is told
            error = exc

            def settle(future: asyncio.Future[T]) -> None:
                future.set_exception(error)
        else:

            def settle(future: asyncio.Future[T]) -> None:
                future.set_result(value)
        finally:
            _on_slot.active = False  # the thread may do other work next
        try:
            loop.call_soon_threadsafe(self._finish, call_id, result, settle)
        except RuntimeError:
            pass  # the loop is gone (the process is stopping): nobody waits for this any more

    def _finish(self, call_id: int, result: asyncio.Future[T], settle: Callable[[asyncio.Future[T]], None]) -> None:
        call = self._calls.pop(call_id, None)
        if call is not None and call.abandoned:
            log.warning("an abandoned blocking call ended after %.0fs; its slot is free again", self._clock() - call.started)
        self._wake()
        if result.done() or (call is not None and call.abandoned):
            return  # nobody waits for an abandoned call's outcome
        settle(result)

    def _wake(self) -> None:
        """Let callers waiting for a slot look again (on the loop they wait on)."""
        if self._freed is not None:
            self._freed.set()
            self._freed = None

    def _abandon(self, call_id: int, why: str) -> None:
        call = self._calls.get(call_id)
        if call is None or call.abandoned:
            return
        call.abandoned = True
        self.abandoned_total += 1
        log.warning("a blocking call %s; abandoning its thread (it keeps its slot until it ends)", why)


async def off_slot(fn: Callable[..., T], *args: Any, budget_s: float, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` on a daemon thread, outside the slots, for quick calls (a plan's
    estimate) that must not queue behind the work the slots hold; QueryTimeoutError past `budget_s`
    (the thread is left to end on its own)."""
    loop = asyncio.get_running_loop()
    result: asyncio.Future[T] = loop.create_future()

    def work() -> None:
        try:
            value = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the caller
            error = exc

            def settle() -> None:
                if not result.done():
                    result.set_exception(error)
        else:

            def settle() -> None:
                if not result.done():
                    result.set_result(value)

        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits for this any more
            loop.call_soon_threadsafe(settle)

    _threads.run(work, "off-slot")
    try:
        return await asyncio.wait_for(result, budget_s)
    except TimeoutError:
        raise QueryTimeoutError(f"The warehouse did not answer within {budget_s:g} seconds.") from None
