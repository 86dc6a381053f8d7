"""A burst shared between people: 20 people × 5 questions at once, each person's five sent together.

Two parts, both by default (`--part sim` or `--part real` for one):

- sim: the bot's run slots (bot/jobs/fair.py, round-robin by channel, then person; one channel here) against a plain semaphore
  (arrival order), on simulated runs (each holds a slot `--run-ms`; `--slots` at once).
- real: the real bot in HTTP mode in this process over the real agent (offline model, demo
  warehouse, no Redis), Slack's Web API the stand-in from tests/support. Every question is a signed
  app_mention from its person (the demo questions, /work/shared/eval/dev_questions.json's, else a
  few of its own); when the bot asks to confirm the SQL the person presses Run `--think-s` later.
  Timed at the stand-in, which runs in a process of its own as Slack does
  (tests/support/watched_standin.py): from the burst to each final answer (the message with the
  feedback buttons), and from each Run click (sent by the stand-in) to its query's start (the audit record's
  start, in the bot). The same mentions first hit a bare AsyncApp that only acks, for the ack comparison.

Per scheme: when each person got a first answer, answers/s, p50/p95 time to answer, Jain's fairness
index over people's mean waits (1 = everyone waited alike), and replies that are not answers
(refusals, "busy", errors). The real part also polls `/readyz` through the burst and prints the worst
event-loop lag it reported beside the worst a sleeper of the bench's own saw on the same loop.

- soak (`--part soak`, or `all`): the same bot over `--soak` answers (2,000; no Redis), in waves of one
  question from each person, each in a thread of its own; the bot process's resident memory after each
  tenth, against issue 22's ±10% (bench/answer_bench.py's soak is the agent's alone, in-process). Prints figures; the real part exits non-zero unless every question was answered.

    python bench/burst_bench.py [--people 20] [--questions 5] [--slots 4] [--run-ms 50] [--part real]
    python bench/burst_bench.py --part soak [--soak 2000]   # the bot's memory over 2,000 answers
    python bench/burst_bench.py --smoke     # sim 5 x 3, 10 ms runs; real 3 people x 2 questions; soak 6
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: benches reuse tests/support

from bot.jobs.fair import FairSlots  # noqa: E402

QUESTIONS_FILE = Path("/work/shared/eval/dev_questions.json")  # where the team keeps the demo questions
SOAK_TARGET_PCT = 10.0  # issue 22: resident memory flat within ±10% over 2,000 answers without Redis
SOAK_WAVE_S = 60.0  # a wave of the soak not answered by then is stuck (or its people were told to slow down)
FALLBACK_QUESTIONS = ["number of flights by origin", "average departure delay by month",
                      "average arrival delay by origin airport", "number of flights by carrier"]


class ArrivalOrder:
    """What the bot had: a semaphore, served first come first served."""

    def __init__(self, capacity: int):
        self._semaphore = asyncio.Semaphore(capacity)

    def slot(self, person: str) -> AbstractAsyncContextManager[object]:
        return self._semaphore


def jain(values: list[float]) -> float:
    return sum(values) ** 2 / (len(values) * sum(v * v for v in values))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def simulated(slots, people: int, questions: int, run_s: float) -> dict[str, list[float]]:
    """Seconds from the burst to each answer, per person."""
    done: dict[str, list[float]] = {f"U{p}": [] for p in range(people)}
    started = time.perf_counter()

    async def one(person: str) -> None:
        async with slots.slot(person):
            await asyncio.sleep(run_s)
        done[person].append(time.perf_counter() - started)

    await asyncio.gather(*(one(f"U{p}") for p in range(people) for _ in range(questions)))
    return done


async def sim_part(people: int, questions: int, capacity: int, run_s: float) -> None:
    print(f"sim: {people} people x {questions} questions at once, {capacity} runs at once, {run_s * 1000:.0f} ms each")
    print(f"{'scheme':16}{'first answer p50/max s':>24}{'all answers p50/max s':>24}{'Jain':>7}")
    for name, slots in (("arrival order", ArrivalOrder(capacity)), ("round-robin", FairSlots(capacity))):
        done = await simulated(slots, people, questions, run_s)
        first = [min(t) for t in done.values()]
        last = [max(t) for t in done.values()]
        index = jain([statistics.mean(t) for t in done.values()])
        print(f"{name:16}{statistics.median(first):>12.2f}/{max(first):<11.2f}"
              f"{statistics.median(last):>10.2f}/{max(last):<11.2f}{index:>7.2f}")


# -- the real bot -------------------------------------------------------------------------------

CHANNEL = "CBURST"
SECRET = "burst-secret"


def demo_questions() -> list[str]:
    if QUESTIONS_FILE.is_file():
        return [item["q"] for item in json.loads(QUESTIONS_FILE.read_text(encoding="utf-8"))]
    return FALLBACK_QUESTIONS


@dataclass
class Question:
    person: str
    text: str
    ts: str  # the mention's ts: the thread the answer goes to
    answered_at: float | None = None
    not_answer: str | None = None  # what came instead of an answer


@dataclass
class Harness:
    """The bot serving HTTP in this process, a bare AsyncApp beside it, Slack's stand-in in its own process."""

    settings: Any
    assistant: Any
    runtime: Any
    urls: list[str]  # the bot's events URL, the bare app's
    conn: Any  # the pipe to the stand-in
    standin_pid: int | None


@asynccontextmanager
async def bot_over_http(watched: list[tuple[str, str]], think_s: float, timeout_s: float) -> AsyncIterator[Harness]:
    """`watched`: (person, thread ts) of every question the stand-in is to follow."""
    from aiohttp import web
    from pydantic import SecretStr
    from slack_bolt.async_app import AsyncApp
    from tests.support import watched_standin

    from agent.api import Assistant, paused_for_startup
    from bot.http_server import EVENTS_PATH, build_web_app
    from bot.runtime import build_runtime
    from bot.settings import load_bot_settings
    from bot.slack_client import build_web_client

    # Slack's side runs in a process of its own, as Slack does: its work is not the bot's.
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    standin = context.Process(
        target=watched_standin.serve, daemon=True, args=(child_conn, watched, CHANNEL, SECRET, think_s, timeout_s),
    )
    standin.start()
    api_url = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    settings = load_bot_settings(
        _env_file=None, slack_bot_token=SecretStr("xoxb-bench"), slack_signing_secret=SecretStr(SECRET),
        slack_api_url=api_url, openai_api_key=None, redis_url=None, log_level="WARNING",
    )
    # Built as `python -m bot` builds it (bot/__main__.py): the collector paused through start-up and what
    # start-up built frozen after (agent/collector.py). Left in the collector's sight, the agent's few hundred
    # thousand long-lived objects are scanned by every full collection, 0.1-0.5 s each, and one falling
    # inside the burst's acks (it did, in most runs) measured a pause the bot does not have.
    with paused_for_startup():
        assistant = Assistant.from_settings(settings)
        runtime = build_runtime(settings, assistant)
        await runtime.start()
    bare = AsyncApp(client=build_web_client(settings), signing_secret=SECRET, process_before_response=True)

    @bare.event("app_mention")
    async def only_ack() -> None:
        return None

    runners, urls = [], []
    try:
        for web_app in (build_web_app(runtime.app, runtime.readiness, metrics=runtime.metrics,
                                      ack_first=runtime.ack_first), build_web_app(bare)):
            runner = web.AppRunner(web_app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            runners.append(runner)
            urls.append(f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}{EVENTS_PATH}")
        yield Harness(settings, assistant, runtime, urls, conn, standin.pid)
    finally:
        await runtime.close()
        for runner in runners:
            await runner.cleanup()
        conn.send("stop")
        standin.join(timeout=30)
        await assistant.aclose()


async def real_part(people: int, questions: int, think_s: float, timeout_s: float) -> bool:
    import aiohttp
    from tests.support.slack_requests import SlackSender, mention

    from bot.http_server import EVENTS_PATH

    texts = demo_questions()
    burst = {
        f"{1000 + p}.{i:06d}": Question(f"UP{p}", texts[(p * questions + i) % len(texts)], f"{1000 + p}.{i:06d}")
        for p in range(people) for i in range(questions)
    }
    loop = asyncio.get_running_loop()
    async with bot_over_http([(q.person, q.ts) for q in burst.values()], think_s, timeout_s) as bot:
        runtime, conn = bot.runtime, bot.conn
        queries = QueryStarts()
        bot.assistant.on_query(queries.record)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            bot_sender, bare_sender = (SlackSender(url, SECRET, session) for url in bot.urls)
            await warm(bot, bot_sender, bare_sender)

            async def send(sender: SlackSender, question: Question, prefix: str) -> float:
                started = time.perf_counter()
                status, _ = await sender.event(
                    mention(question.text, ts=prefix + question.ts, channel=CHANNEL, user=question.person))
                assert status == 200, status
                return time.perf_counter() - started

            bare_acks = await asyncio.gather(*(send(bare_sender, q, "9") for q in burst.values()))
            conn.send(bot.urls[0])
            cpu = CpuClock(leave_out=bot.standin_pid)
            health = HealthWatch(session, bot.urls[0].removesuffix(EVENTS_PATH) + "/readyz")
            started = time.perf_counter()
            health.start()
            acks = await asyncio.gather(*(send(bot_sender, q, "") for q in burst.values()))
            seen = await loop.run_in_executor(None, conn.recv)  # every answer in, or the time is up
            finished = time.perf_counter()
            await health.stop()
            await runtime.jobs.drain()  # charts and CSVs after the answers
            drained = time.perf_counter()
            spent = cpu.spent()
    for q in burst.values():
        q.answered_at, q.not_answer = seen["answered"][q.ts], seen["not_answers"][q.ts]
    for text in sorted(set(seen["notices"])):
        print(f"notice seen ({seen['notices'].count(text)}x): {text}")
    ok = report(burst, started, finished, drained, list(acks), list(bare_acks), seen["click_acks"], people,
                questions, think_s)
    queries.report(seen["clicked_at"])
    health.report(bot.settings.loop_lag_limit_s)
    answers = max(1, sum(1 for q in burst.values() if q.answered_at))
    print("CPU per answer (what a loaded machine does not change much): " + ", ".join(
        f"{name} {seconds / answers * 1e3:.0f} ms" for name, seconds in spent.items()))
    return ok


def rss_mib(pid: int | str = "self") -> float:
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def soak_part(answers: int, people: int, think_s: float, timeout_s: float) -> bool:
    """The bot's own memory over many answers (no Redis): waves of one question from each of `people`,
    each new question in a thread of its own, each wave answered (charts and CSVs attached) before the
    next; the process's resident memory after a tenth of the answers and at every tenth after. A
    question answered otherwise (told to slow down, an error) ends the soak: its figures would not hold."""
    import aiohttp
    from tests.support.slack_requests import SlackSender, mention

    texts = demo_questions()
    waves = max(1, -(-answers // people))
    # Ten times as many people as ask in a wave, each asking every tenth wave: one person asking in every
    # wave would meet USER_RATE_LIMIT_PER_MINUTE and be told to slow down instead of answered.
    soak = [Question(f"US{n % (people * 10)}", texts[n % len(texts)], f"{2000 + n // people}.{n % people:06d}")
            for n in range(waves * people)]
    async with bot_over_http([(q.person, q.ts) for q in soak], think_s, timeout_s) as bot:
        registry = bot.runtime.metrics.registry

        def delivered() -> float:
            return registry.get_sample_value("sda_answers_total", {"kind": "answer"}) or 0.0

        def errors() -> float:
            return registry.get_sample_value("sda_answers_total", {"kind": "error"}) or 0.0

        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            sender = SlackSender(bot.urls[0], SECRET, session)
            await warm(bot, sender, SlackSender(bot.urls[1], SECRET, session))
            bot.conn.send(bot.urls[0])
            every = max(1, waves // 10)
            print(f"soak: {len(soak)} answers through the bot (HTTP, offline model, demo warehouse, no Redis), "
                  f"{waves} waves of {people} people; sessions kept at most {bot.settings.memory_sessions_max}")
            start = now = None
            deadline = time.monotonic() + timeout_s
            for wave in range(waves):
                asked = soak[wave * people:(wave + 1) * people]
                expected = delivered() + len(asked)
                statuses = await asyncio.gather(*(sender.event(
                    mention(q.text, ts=q.ts, channel=CHANNEL, user=q.person)) for q in asked))
                assert all(status == 200 for status, _ in statuses), statuses
                wave_deadline = min(deadline, time.monotonic() + SOAK_WAVE_S)
                while delivered() < expected:
                    if errors():
                        print(f"soak: wave {wave + 1}: {errors():.0f} error replies")
                        return False
                    if time.monotonic() > wave_deadline:  # told to slow down, or stuck
                        print(f"soak: wave {wave + 1} not all answered in time ({delivered():.0f} answers)")
                        return False
                    await asyncio.sleep(0.05)
                if (wave + 1) % every == 0:
                    await bot.runtime.jobs.drain()
                    gc.collect()
                    now = rss_mib()
                    if start is None:
                        start = now
                    store = bot.runtime.store
                    print(f"  after {(wave + 1) * people:5d}: {now:.0f} MiB ({(now - start) / start * 100:+.1f}%), "
                          f"sessions kept {getattr(bot.assistant.graph.checkpointer, 'sessions', '?')}, "
                          f"threads kept {getattr(store, 'threads', '?')}")
        seen = await asyncio.get_running_loop().run_in_executor(None, bot.conn.recv)  # the stand-in's view
    missing = [ts for ts, at in seen["answered"].items() if at is None]
    if missing:
        print(f"soak: {len(missing)} questions the stand-in saw no answer to")
        return False
    assert start is not None and now is not None
    change = (now - start) / start * 100
    print(f"soak: {change:+.1f}% from the first tenth to the end; target ±{SOAK_TARGET_PCT:g}%: "
          f"{'met' if abs(change) <= SOAK_TARGET_PCT else 'not met'}")
    return True


class QueryStarts:
    """When the agent asked the warehouse for each query (its audit record's start), by session: beside
    the stand-in's time of each Run click, how long a person who pressed Run waited for their query to
    start while the burst's other questions were still being worked on."""

    def __init__(self) -> None:
        self.started: dict[str, list[float]] = {}  # session id -> when each of its queries started

    def record(self, record: dict[str, Any]) -> None:
        if record.get("session_id") and record.get("duration_ms") is not None:
            self.started.setdefault(record["session_id"], []).append(
                time.perf_counter() - record["duration_ms"] / 1000)

    def report(self, clicked_at: dict[str, float]) -> None:
        from bot.sessions import new_session_id

        waits = []
        for ts, clicked in clicked_at.items():
            after = [at for at in self.started.get(new_session_id(CHANNEL, ts), []) if at >= clicked]
            if after:
                waits.append(min(after) - clicked)
        if not waits:
            print("Run click to its query's start: no click was followed by its query")
            return
        print(f"Run click to its query's start ({len(waits)} of {len(clicked_at)} clicks): median "
              f"{statistics.median(waits) * 1e3:.0f} ms, p95 {pct(waits, .95) * 1e3:.0f} ms, "
              f"p99 {pct(waits, .99) * 1e3:.0f} ms, max {max(waits) * 1e3:.0f} ms")


class HealthWatch:
    """What /readyz says through the burst (polled every `every_s`), beside the event loop's lag as a
    sleeper of the bench's own sees it on the same loop: /readyz reports the lag honestly when its
    worst figure is the loop's worst, and it says 503 whenever the loop lagged past the limit."""

    def __init__(self, session: Any, url: str, every_s: float = 0.25) -> None:
        self.session, self.url, self.every_s = session, url, every_s
        self.answers: list[tuple[int, float, list[str]]] = []  # status, reported lag, why not ready
        self.lags: list[float] = []  # the bench's own sleeper: how late it woke, each time
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._poll()), asyncio.create_task(self._sleeper())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _poll(self) -> None:
        while True:
            async with self.session.get(self.url) as response:
                body = await response.json()
            self.answers.append((response.status, body.get("loop_lag_s", 0.0), body.get("not_ready", [])))
            await asyncio.sleep(self.every_s)

    async def _sleeper(self) -> None:
        interval = 0.05
        while True:
            due = time.perf_counter() + interval
            await asyncio.sleep(interval)
            self.lags.append(max(0.0, time.perf_counter() - due))

    def report(self, limit_s: float) -> None:
        if not self.answers:
            print("/readyz during the burst: no answer")
            return
        ok = sum(1 for status, _, _ in self.answers if status == 200)
        reasons = sorted({why for _, _, whys in self.answers for why in whys})
        worst_reported = max(lag for _, lag, _ in self.answers)
        worst_seen = max(self.lags, default=0.0)
        print(f"/readyz during the burst: {len(self.answers)} polls, {ok} said 200, {len(self.answers) - ok} 503"
              f"{' (' + ', '.join(reasons) + ')' if reasons else ''}; loop lag it reported max {worst_reported:.2f} s, "
              f"the loop's own max {worst_seen:.2f} s (limit {limit_s:g} s)")


class CpuClock:
    """CPU time spent from now on: the event loop's own thread, this whole process (its threads run the
    queries), and its child processes (the CPU pool's workers and their forkserver) but `leave_out`."""

    def __init__(self, leave_out: int | None) -> None:
        self.leave_out = leave_out
        self._start = self._now()

    def _children(self) -> float:
        ticks = os.sysconf("SC_CLK_TCK")
        parents: dict[int, int] = {}
        times: dict[int, float] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # the process ended meanwhile
            pid = int(stat.parent.name)
            if pid == self.leave_out:
                continue
            parents[pid], times[pid] = int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks
        ours, total = {os.getpid()}, 0.0
        changed = True  # to a fixed point: grandchildren (the forkserver's workers) come in on a later pass
        while changed:
            changed = False
            for pid, parent in parents.items():
                if parent in ours and pid not in ours:
                    ours.add(pid)
                    total += times[pid]
                    changed = True
        return total

    def _now(self) -> dict[str, float]:
        return {"event loop": time.thread_time(), "process": time.process_time(), "CPU workers": self._children()}

    def spent(self) -> dict[str, float]:
        now = self._now()
        return {name: now[name] - self._start[name] for name in now}


async def warm(bot: Harness, bot_sender: Any, bare_sender: Any) -> None:
    """The first answer pays imports, the CPU workers' start and caches, and each app's first event its
    own first use (Bolt's and the listeners' paths): not part of a burst, as a bot serving people has
    answered before. Both apps get one event, as in bench/ack_bench.py."""
    from tests.support.slack_requests import mention

    session = "burst-warm"
    reply = await bot.assistant.reply(bot.assistant.ask(session, "number of flights by origin"))
    if reply.ask_human and reply.ask_human.kind == "confirm_sql":
        await bot.assistant.reply(bot.assistant.resume(session, "run"))
    await bot_sender.event(mention("number of flights by origin", ts="1.1", channel="CWARM", user="UWARM"))
    await bare_sender.event(mention("warm", ts="1.1", channel="CWARM"))
    await bot.runtime.jobs.drain()  # the bot's reply (a confirmation nobody presses) is out


def report(burst: dict[str, Question], started: float, finished: float, drained: float, acks: list[float],
           bare_acks: list[float], click_acks: list[float], people: int, questions: int, think_s: float) -> bool:
    answered = [q for q in burst.values() if q.answered_at]
    waits = {q.person: [] for q in burst.values()}
    for q in answered:
        waits[q.person].append(q.answered_at - started)
    times = [t for per in waits.values() for t in per]
    kinds: dict[str, int] = {}
    for q in burst.values():
        if not q.answered_at:
            kinds[q.not_answer or "no reply"] = kinds.get(q.not_answer or "no reply", 0) + 1
    print(f"real: {people} people x {questions} questions at once through the bot (HTTP, offline model, demo "
          f"warehouse, in-process jobs); each SQL confirmation's Run pressed {think_s:g} s after it shows")
    if times:
        span = max(times)
        first = [min(t) for t in waits.values() if t]
        print(f"answered {len(answered)}/{len(burst)} in {span:.1f} s: {len(answered) / span:.1f} answers/s "
              f"(charts and CSVs done {drained - started:.1f} s after the burst)")
        print(f"time to answer p50 {pct(times, .5):.2f} s, p95 {pct(times, .95):.2f} s, max {max(times):.2f} s")
        print(f"first answer per person p50 {statistics.median(first):.2f} s, max {max(first):.2f} s")
        if all(waits.values()):
            print(f"Jain's index over people's mean waits {jain([statistics.mean(t) for t in waits.values()]):.3f}")
    print("not answers: " + (", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "0"))
    print(f"ack ms p50/p99: bare AsyncApp {pct(bare_acks, .5) * 1e3:.1f}/{pct(bare_acks, .99) * 1e3:.1f}, "
          f"bot {pct(acks, .5) * 1e3:.1f}/{pct(acks, .99) * 1e3:.1f} "
          f"(p99 ratio {pct(acks, .99) / pct(bare_acks, .99):.2f}); Run clicks during the burst "
          f"{pct(click_acks, .5) * 1e3:.1f}/{pct(click_acks, .99) * 1e3:.1f}" if click_acks else "")
    return len(answered) == len(burst)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=20)
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--slots", type=int, default=4, help="sim: runs at once")
    parser.add_argument("--run-ms", type=float, default=50, help="sim: each run's length")
    parser.add_argument("--part", choices=("sim", "real", "soak", "both", "all"), default="both",
                        help="both: sim and real; all: and the soak")
    parser.add_argument("--think-s", type=float, default=0.5, help="real: the person reads the SQL this long, then presses Run")
    parser.add_argument("--timeout", type=float, default=300, help="real: give up waiting for answers after this")
    parser.add_argument("--soak", type=int, default=2000, help="soak: answers, in waves of --people questions")
    parser.add_argument("--smoke", action="store_true", help="sim 5 x 3 with 10 ms runs; real 3 x 2; soak 6 answers")
    args = parser.parse_args()
    sim_size = (5, 3) if args.smoke else (args.people, args.questions)
    real_size = (3, 2) if args.smoke else (args.people, args.questions)
    soak_size = (6, 3) if args.smoke else (args.soak, args.people)
    if args.smoke:
        args.run_ms = 10
    if args.part in ("sim", "both", "all"):
        asyncio.run(sim_part(*sim_size, args.slots, args.run_ms / 1000))
    if args.part in ("real", "both", "all") and not asyncio.run(real_part(*real_size, args.think_s, args.timeout)):
        raise SystemExit("not every question of the burst was answered")
    if (args.part in ("soak", "all") or args.smoke) and not asyncio.run(
            soak_part(*soak_size, args.think_s, max(args.timeout, float(soak_size[0])))):
        raise SystemExit("not every question of the soak was answered")
