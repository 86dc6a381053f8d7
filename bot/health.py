"""Is this process alive, and is it ready to take requests? One place that knows, for /livez,
/readyz and any metrics endpoint (read `Readiness.state`).

Ready means: shared state (Redis, when configured) answers, the warehouse answers a trivial
query, its slots are not all held by work that would not stop and the job slots are not all
held by runs past their deadline (wedged), the thread pool and the CPU workers still finish
work that waits for them (stuck, not busy: `threads`, `cpu`), and the event loop is not lagging
(every request waits that long before it is even looked at). The report also says how many
warehouse slots are held past their budget (`warehouse_slots.overdue`), wedged or not. Checks are
cached briefly so a load balancer polling often costs one check per interval.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

FIRST_READY_DELAY_S = 0.05  # `on_first_ready` runs this long after the first ready report is handed back


class LoopLag:
    """How late the event loop wakes a sleeper, measured continuously by a tiny task. The sleeper wakes
    often (every 50 ms, a few microseconds each): a stall that begins while it sleeps is seen only from
    its wake-up time on, so a sleeper of 250 ms saw a 0.2 s stall as 0.04 s or nothing."""

    def __init__(self, interval_s: float = 0.05, *, window_s: float = 2.0):
        self.interval_s = interval_s
        self._window = max(1, round(window_s / interval_s))  # the measurements of the last `window_s`
        self._recent: list[float] = []
        self._task: asyncio.Task[None] | None = None
        self._due: float | None = None  # when the sleeper should wake next (monotonic)

    @property
    def lag_s(self) -> float:
        """The worst lag of the last few measurements (one late wake-up is enough to notice), and of
        the wake-up still owed: read right after a stall, before the sleeper has run again, the
        stall itself is the lag (a request handled then waited that long too)."""
        overdue = 0.0 if self._due is None else max(0.0, time.monotonic() - self._due)
        return max(overdue, *self._recent) if self._recent else overdue

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._measure(), name="loop-lag")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        self._due = None

    async def _measure(self) -> None:
        while True:
            self._due = time.monotonic() + self.interval_s
            await asyncio.sleep(self.interval_s)
            self._recent = [*self._recent[-(self._window - 1):], max(0.0, time.monotonic() - self._due)]


class ThreadPoolProbe:
    """Does the event loop's thread pool still take work? Blocking calls (warehouse fetches, chart
    drawing, reading files) wait there; a pool whose threads never come back answers nobody while the
    loop itself looks healthy. A no-op is kept in the pool's queue: when it has waited longer than
    `budget_s`, the pool is stuck, not busy (every task put there ends within its own time limit)."""

    def __init__(self, budget_s: float):
        self.budget_s = budget_s
        self._pending: asyncio.Future[None] | None = None
        self._sent_at = 0.0

    async def problem(self) -> str | None:
        if self._pending is None or self._pending.done():
            self._pending = asyncio.get_running_loop().run_in_executor(None, _nothing)
            self._sent_at = time.monotonic()
            await asyncio.wait([self._pending], timeout=0.2)  # an idle pool answers at once
        waited = time.monotonic() - self._sent_at
        if self._pending.done() or waited <= self.budget_s:
            return None
        return f"the thread pool has taken no work for {waited:.0f} s"


def _nothing() -> None:
    return None


AgentHealth = Callable[[], Awaitable[dict[str, Any]]]
# One more thing readiness depends on: None when fine, else a short reason (e.g. Slack refusing the token).
Check = Callable[[], Awaitable[str | None]]


class Readiness:
    def __init__(
        self,
        *,
        agent_health: AgentHealth | None,
        redis_up: Callable[[], bool] | None = None,
        jobs_wedged: Callable[[], bool] | None = None,
        checks: dict[str, Check] | None = None,
        lag: LoopLag | None = None,
        lag_limit_s: float = 2.0,
        cache_s: float = 2.0,
    ):
        self._agent_health = agent_health
        self._redis_up = redis_up
        self._jobs_wedged = jobs_wedged
        self._checks = dict(checks or {})
        self.lag = lag or LoopLag()
        self._lag_limit_s = lag_limit_s
        self._cache_s = cache_s
        self._checked_at = -float("inf")
        self._report: dict[str, Any] = {"ready": False, "checked": False}
        self._checking: asyncio.Task[dict[str, Any]] | None = None
        # Called once, by the first report that says ready (start-up defers work until then: bot/__main__.py).
        self.on_first_ready: Callable[[], None] | None = None

    @property
    def state(self) -> dict[str, Any]:
        """The latest values, as numbers a metrics endpoint can export."""
        report = self._with_lag(self._report)
        return {
            "ready": bool(report.get("ready")),
            "wedged": bool(report.get("wedged")),
            "loop_lag_seconds": self.lag.lag_s,
            "redis_up": report.get("redis") != "down",
            "warehouse_up": report.get("warehouse") in ("up", "busy"),
            "warehouse_abandoned_total": (report.get("warehouse_slots") or {}).get("abandoned_total", 0),
            "warehouse_slots_overdue": (report.get("warehouse_slots") or {}).get("overdue", 0),
            "cpu_overruns_total": report.get("cpu_overruns", 0),
        }

    def start(self) -> None:
        self.lag.start()

    async def close(self) -> None:
        await self.lag.close()
        if self._checking is not None:
            self._checking.cancel()
            await asyncio.gather(self._checking, return_exceptions=True)

    async def check(self) -> dict[str, Any]:
        """The readiness report (`ready` and why not); callers share one check. What the checks found is
        at most `cache_s` old; the loop's lag is always as of now (measuring it costs nothing, and a
        report cached before a stall would say ready through it)."""
        if time.monotonic() - self._checked_at < self._cache_s:
            return self._with_lag(self._report)
        if self._checking is None or self._checking.done():
            self._checking = asyncio.create_task(self._check(), name="readiness-check")
        return self._with_lag(await asyncio.shield(self._checking))

    def _with_lag(self, report: dict[str, Any]) -> dict[str, Any]:
        """`report` with the event loop's lag as of now, and ready or not by it."""
        if not report.get("checked"):
            return report
        lag = self.lag.lag_s
        problems = [p for p in report.get("not_ready", []) if p != "loop_lag"]
        if lag > self._lag_limit_s:
            problems.append("loop_lag")
        fresh = {k: v for k, v in report.items() if k != "not_ready"}
        fresh.update(loop_lag_s=round(lag, 3), ready=not problems)
        if problems:
            fresh["not_ready"] = problems
        return fresh

    async def _check(self) -> dict[str, Any]:
        report: dict[str, Any] = {"checked": True}
        problems = []
        if self._redis_up is not None:
            report["redis"] = "up" if self._redis_up() else "down"
            if report["redis"] == "down":
                problems.append("redis")
        if self._agent_health is not None:
            try:
                agent = await self._agent_health()
            except Exception:
                log.exception("readiness: the agent's health check failed")
                agent = {"warehouse": "error", "wedged": False}
            report["warehouse"] = agent.get("warehouse", "unknown")
            if agent.get("warehouse_problem"):
                report["warehouse_problem"] = agent["warehouse_problem"]
            report["wedged"] = bool(agent.get("wedged"))
            report["warehouse_slots"] = agent.get("warehouse_slots")
            report["cpu_overruns"] = agent.get("cpu_overruns", 0)
            # "busy": every slot is taken by queries still within their budget; that is load, not failure.
            if report["warehouse"] not in ("up", "busy"):
                problems.append("warehouse")
            if report["wedged"]:
                problems.append("wedged")
            if agent.get("agent_problem"):  # the graph could not be built: nothing would be answered
                report["agent"] = agent["agent_problem"]
                problems.append("agent")
            report["cpu"] = agent.get("cpu_problem") or "up"
            if agent.get("cpu_problem"):
                problems.append("cpu")
        for name, check in self._checks.items():
            try:
                problem = await check()
            except Exception:
                log.exception("readiness: the %s check failed", name)
                problem = "the check failed"
            report[name] = "up" if problem is None else problem
            if problem is not None:
                problems.append(name)
        if self._jobs_wedged is not None and self._jobs_wedged():
            report["wedged"] = True
            problems.append("jobs_wedged")
        report["loop_lag_s"] = round(self.lag.lag_s, 3)
        if self.lag.lag_s > self._lag_limit_s:
            problems.append("loop_lag")
        report["ready"] = not problems
        if problems:
            report["not_ready"] = problems
        if problems != self._report.get("not_ready", []) and self._report.get("checked"):
            log.warning("readiness changed: %s", "ready" if not problems else "not ready (" + ", ".join(problems) + ")")
        self._report, self._checked_at = report, time.monotonic()
        if report["ready"] and self.on_first_ready is not None:
            # A moment later, once this answer is out: what it starts would compete with sending it.
            first, self.on_first_ready = self.on_first_ready, None
            asyncio.get_running_loop().call_later(FIRST_READY_DELAY_S, first)
        return report
