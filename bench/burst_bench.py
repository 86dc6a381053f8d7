"""A burst shared between people: 20 people × 5 questions at once, each person's five sent together.

The bot's run slots (bot/jobs/fair.py, round-robin by person) against a plain semaphore (arrival
order), in the same run, on the same simulated runs (each holds a slot `--run-ms`; `--slots` at once,
as a loaded machine manages). Per scheme: when each person got a first answer and all of theirs, and
Jain's fairness index over people's mean waits (1 = everyone waited alike). Prints figures; asserts nothing.

    python bench/burst_bench.py [--people 20] [--questions 5] [--slots 4] [--run-ms 50]
    python bench/burst_bench.py --smoke     # 5 people x 3 questions, 10 ms runs
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from contextlib import AbstractAsyncContextManager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.jobs.fair import FairSlots  # noqa: E402


class ArrivalOrder:
    """What the bot had: a semaphore, served first come first served."""

    def __init__(self, capacity: int):
        self._semaphore = asyncio.Semaphore(capacity)

    def slot(self, person: str) -> AbstractAsyncContextManager[object]:
        return self._semaphore


def jain(values: list[float]) -> float:
    return sum(values) ** 2 / (len(values) * sum(v * v for v in values))


async def burst(slots, people: int, questions: int, run_s: float) -> dict[str, list[float]]:
    """Seconds from the burst to each answer, per person."""
    done: dict[str, list[float]] = {f"U{p}": [] for p in range(people)}
    started = time.perf_counter()

    async def one(person: str) -> None:
        async with slots.slot(person):
            await asyncio.sleep(run_s)
        done[person].append(time.perf_counter() - started)

    await asyncio.gather(*(one(f"U{p}") for p in range(people) for _ in range(questions)))
    return done


async def main(people: int, questions: int, capacity: int, run_s: float) -> None:
    print(f"{people} people x {questions} questions at once, {capacity} runs at once, {run_s * 1000:.0f} ms each")
    print(f"{'scheme':16}{'first answer p50/max s':>24}{'all answers p50/max s':>24}{'Jain':>7}")
    for name, slots in (("arrival order", ArrivalOrder(capacity)), ("round-robin", FairSlots(capacity))):
        done = await burst(slots, people, questions, run_s)
        first = [min(t) for t in done.values()]
        last = [max(t) for t in done.values()]
        index = jain([statistics.mean(t) for t in done.values()])
        print(f"{name:16}{statistics.median(first):>12.2f}/{max(first):<11.2f}"
              f"{statistics.median(last):>10.2f}/{max(last):<11.2f}{index:>7.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=20)
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--slots", type=int, default=4)
    parser.add_argument("--run-ms", type=float, default=50)
    parser.add_argument("--smoke", action="store_true", help="5 people x 3 questions, 10 ms runs")
    args = parser.parse_args()
    if args.smoke:
        args.people, args.questions, args.run_ms = 5, 3, 10
    asyncio.run(main(args.people, args.questions, args.slots, args.run_ms / 1000))
