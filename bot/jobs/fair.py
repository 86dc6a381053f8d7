"""Agent runs at once, shared round-robin by person: one person's fifth question waits behind
everyone else's first, never the other way round.

A semaphore serves waiters in arrival order, so in a burst whoever sent many questions first holds
every slot while others wait (Jain's fairness index 0.82 for 20 people × 5 questions). Here a freed
slot goes to the next person in turn, and that person goes to the back of the round.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class FairSlots:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self._running = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()  # people in turn order

    @asynccontextmanager
    async def slot(self, person: str) -> AsyncIterator[None]:
        await self._acquire(person)
        try:
            yield
        finally:
            self._release()

    def waiting(self, person: str) -> int:
        return len(self._waiting.get(person, ()))

    async def _acquire(self, person: str) -> None:
        if self._running < self.capacity and not self._waiting:
            self._running += 1
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(person, deque()).append(granted)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release()  # the slot was handed over as this waiter was cancelled: pass it on
            else:
                self._forget(person, granted)
            raise

    def _release(self) -> None:
        """Hand the slot straight to the next person in turn (so a newcomer cannot jump the queue)."""
        while self._waiting:
            person, queue = next(iter(self._waiting.items()))
            granted = queue.popleft()
            if queue:
                self._waiting.move_to_end(person)
            else:
                del self._waiting[person]
            if not granted.done():
                granted.set_result(None)
                return
        self._running -= 1

    def _forget(self, person: str, granted: asyncio.Future[None]) -> None:
        queue = self._waiting.get(person)
        if queue is not None and granted in queue:
            queue.remove(granted)
            if not queue:
                del self._waiting[person]
