"""One warm answer against the query's own time, where the rest goes, and memory over many answers.

In-process, offline model, demo warehouse, no Redis (sessions in this process). Per question:
- answer: the question asked → the reply with its text, table and SQL (what is posted first);
- chart: the wait for that reply's PNG (posted after it); a chart drawn lately is kept, so the same
  question asked again waits for no drawing (agent/charts/drawn.py);
- drawn: the same chart's PNG drawn anew in a CPU worker, what a chart not drawn lately costs;
- query: time inside the warehouse during the answer (the same SQL's own time);
and the median answer's ratio to the query. The soak is the memory of a long-running process: the
sessions it keeps are bounded (at most MEMORY_SESSIONS_MAX, each idle at most SESSION_IDLE_TTL_S), and
a bot that has run a while holds a full store. So it first answers MEMORY_SESSIONS_MAX questions in new
sessions and prints what filling the store cost (resident memory after the warm-up, then with the store
full: a one-off, bounded by the setting), then answers `--soak` questions more in new sessions (each
pushing the least recently used out), printing resident memory every tenth against the full store's,
and the change over the whole soak against issue 22's target, flat within ±10% over 2,000 answers; it
prints the change from the warm-up too (the fill included). Resident memory at the start depends on
DATA_DIR/cache: a first start there builds what later ones read back (the word tables, the demo's
groundwork) and was measured ~190 MiB larger, so the same growth is a smaller percentage of it.
Prints figures; asserts nothing.

    python bench/answer_bench.py [--runs 20] [--soak 2000]
    python bench/answer_bench.py --smoke     # two runs, a 20-answer soak: the bench itself works
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.api import AgentReply, Assistant  # noqa: E402
from agent.settings import load_settings  # noqa: E402

QUESTIONS = ["number of flights by origin", "average departure delay by month"]
SOAK_TARGET_PCT = 10.0  # issue 22: resident memory flat within ±10% over 2,000 answers without Redis


class SqlClock:
    """Time spent inside the warehouse (the query's own time)."""

    def __init__(self, warehouse):
        self.seconds = 0.0
        for name in ("run", "dry_run"):
            setattr(warehouse, name, self._timed(getattr(warehouse, name)))

    def _timed(self, function):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

        return timed


def rss_mib() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def answer(assistant: Assistant, session: str, question: str) -> tuple[AgentReply, float, float]:
    """The reply, seconds to it, and seconds to its chart after it."""
    started = time.perf_counter()
    reply = await assistant.reply(assistant.ask(session, question))
    if reply.ask_human and reply.ask_human.kind == "confirm_sql":
        reply = await assistant.reply(assistant.resume(session, "run"))
    answered = time.perf_counter()
    assert reply.error is None, reply.error
    await assistant.draw_chart(reply)
    return reply, answered - started, time.perf_counter() - answered


async def drawn_anew(assistant: Assistant, reply: AgentReply) -> float:
    """Seconds to draw the reply's chart in a CPU worker, whether or not it was drawn lately."""
    from agent.tools import steps

    if reply.chart is None:
        return 0.0
    started = time.perf_counter()
    await assistant.context.cpu.run(steps.DRAWING_CHART, steps.draw_chart, reply.chart.spec, reply.columns, reply.rows)
    return time.perf_counter() - started


async def main(runs: int, soak: int) -> None:
    assistant = Assistant.from_settings(load_settings())
    clock = SqlClock(assistant.context.warehouse)
    try:
        for question in QUESTIONS:
            await answer(assistant, f"warm-{question}", question)  # imports, first workers, caches
            answers, charts, draws, queries = [], [], [], []
            for run in range(runs):
                clock.seconds = 0.0
                reply, answer_s, chart_s = await answer(assistant, f"run-{run}-{question}", question)
                answers.append(answer_s * 1000)
                charts.append(chart_s * 1000)
                queries.append(clock.seconds * 1000)
                draws.append(await drawn_anew(assistant, reply) * 1000)
            a, c, d, q = (statistics.median(x) for x in (answers, charts, draws, queries))
            print(f"{question!r}: answer {a:.0f} ms, then chart {c:.0f} ms (drawn anew {d:.0f} ms); query {q:.1f} ms; "
                  f"answer = {a / max(q, 0.001):.0f}x query, target {2 * q + 100:.0f} ms (medians of {runs})")
        gc.collect()
        warm = rss_mib()
        saver = assistant.graph.checkpointer
        cap = assistant.settings.memory_sessions_max
        fill = min(cap, soak)  # a smoke run's soak fills only part of the store
        for n in range(1, fill + 1):
            await answer(assistant, f"fill-{n}", QUESTIONS[n % len(QUESTIONS)])
        gc.collect()
        start = rss_mib()
        kept = getattr(saver, "sessions", "?")
        print(f"store: {warm:.0f} MiB after the warm-up, {start:.0f} MiB with {kept} sessions kept "
              f"(at most {cap}): {start - warm:+.0f} MiB to fill it, once")
        print(f"soak: {soak} answers more, in new sessions, from {start:.0f} MiB")
        now = start
        for n in range(1, soak + 1):
            await answer(assistant, f"soak-{n}", QUESTIONS[n % len(QUESTIONS)])
            if n % max(soak // 10, 1) == 0:
                gc.collect()
                now = rss_mib()
                kept = getattr(saver, "sessions", "?")
                print(f"  after {n:5d}: {now:.0f} MiB ({(now - start) / start * 100:+.1f}%), {kept} sessions kept")
        change = (now - start) / start * 100
        filled = "the store full" if fill == cap else f"{fill} sessions kept first (the store not full)"
        print(f"soak: {change:+.1f}% over {soak} answers with {filled}; {(now - warm) / warm * 100:+.1f}% "
              f"from the warm-up, its filling included; target ±{SOAK_TARGET_PCT:g}%: "
              f"{'met' if abs(change) <= SOAK_TARGET_PCT else 'not met'}")
    finally:
        await assistant.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--soak", type=int, default=2000)
    parser.add_argument("--smoke", action="store_true", help="two runs and a 20-answer soak")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.soak = 2, 20
    asyncio.run(main(args.runs, args.soak))
