"""Agent runs at once, shared round-robin by channel and, within a channel, by person: one person's
fifth question waits behind everyone else's first, and a channel where many people ask at once
(or a workflow posts dozens) never holds every slot while another channel waits.

A semaphore serves waiters in arrival order, so in a burst whoever sent many questions first holds
every slot while others wait (Jain's fairness index 0.82 for 20 people × 5 questions). Here a freed
slot goes to the next channel in turn, to the next person in turn there; both go to the back of
their round. In one channel this is round-robin by person.

Answers to the bot's own questions (Run, Cancel, a choice) wait apart and take a freed slot before
any new question: the person is waiting with the question in front of them, and the run it resumes
was already given its turn once. Among themselves they take turns the same way.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

Waiters = deque[asyncio.Future[None]]
# channels in turn order, each with its people in turn order, each with their waiters in arrival order
Round = OrderedDict[str, OrderedDict[str, Waiters]]


class FairSlots:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self._running = 0
        self._answers: Round = OrderedDict()  # answers to the bot's questions: served first
        self._questions: Round = OrderedDict()

    @asynccontextmanager
    async def slot(self, person: str, channel: str = "", *, answers_bot: bool = False) -> AsyncIterator[None]:
        """`answers_bot`: the run resumes a question the bot asked this person, so it goes ahead of new questions."""
        await self._acquire(person, channel, self._answers if answers_bot else self._questions)
        try:
            yield
        finally:
            self._release()

    def waiting(self, person: str, channel: str | None = None) -> int:
        """Requests of `person` waiting for a slot (in `channel`, or in every channel)."""
        return sum(
            len(people.get(person, ()))
            for waiting in (self._answers, self._questions)
            for people in (waiting.values() if channel is None else [waiting.get(channel, OrderedDict())])
        )

    async def _acquire(self, person: str, channel: str, waiting: Round) -> None:
        if self._running < self.capacity and not self._answers and not self._questions:
            self._running += 1
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting.setdefault(channel, OrderedDict()).setdefault(person, deque()).append(granted)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release()  # the slot was handed over as this waiter was cancelled: pass it on
            else:
                _forget(waiting, person, channel, granted)
            raise

    def _release(self) -> None:
        """Hand the slot straight to the next waiter in turn (so a newcomer cannot jump the queue)."""
        for waiting in (self._answers, self._questions):
            while waiting:
                if _grant_next(waiting):
                    return
        self._running -= 1


def _grant_next(waiting: Round) -> bool:
    """Hand the slot to the next channel's next person in turn; False if that waiter had gone meanwhile."""
    channel, people = next(iter(waiting.items()))
    person, queue = next(iter(people.items()))
    granted = queue.popleft()
    if queue:
        people.move_to_end(person)
    else:
        del people[person]
    if people:
        waiting.move_to_end(channel)
    else:
        del waiting[channel]
    if granted.done():
        return False
    granted.set_result(None)
    return True


def _forget(waiting: Round, person: str, channel: str, granted: asyncio.Future[None]) -> None:
    people = waiting.get(channel)
    queue = people.get(person) if people is not None else None
    if people is None or queue is None or granted not in queue:
        return
    queue.remove(granted)
    if not queue:
        del people[person]
    if not people:
        del waiting[channel]
