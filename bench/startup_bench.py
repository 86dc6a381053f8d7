"""Start-up of the command line, beside `python -c pass` in the same run. For `python -m agent ask …`:

- first output: any byte (its "… Working on it", printed before the agent is imported);
- first real step: the first step line that comes from work on the question (today "… Reading it
  as: …", the question's reading from the warehouse's semantic model, before the graph is imported);
- supervisor's first step: the first step the LangGraph supervisor streams ("… Understanding your
  request…"), after the graph, tools and chat model are imported and built;
- last output: its answer printed, with the CPU seconds of the process itself (its critical path);
- answered: the process has printed its answer and exited; its CPU seconds then include the process
  it forked to draw the chart (agent/budget/ahead.py), which works on the other core meanwhile.

And for the bot, `python -m bot` in HTTP mode against the local Web API stand-in (tests/support): the
time from its start to the first `/readyz` that answers 200 (polled every 20 ms; it says 503 `starting`
while the agent is built), on the data folder the runs before it have warmed.

Prints medians over the runs and their ratio to `python -c pass`, and beside each the CPU seconds
the process had used by then (from /proc, so a loaded machine's waiting is left out), then issue 22's
targets beside them (answered ≤ 1.5 s, /readyz < 1 s); asserts nothing. The load average is printed
first: on a shared machine only the ratios of one run compare, and the CPU seconds. Without bytecode
(installed with --no-compile, and PYTHONDONTWRITEBYTECODE set) every start compiles the imports again,
about a second more: the bench says so; `python -m compileall -q .` and the site-packages fix it.

    python bench/startup_bench.py [--runs 5] [--question "number of flights by origin"]
    python bench/startup_bench.py --smoke     # one run: the bench itself works
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import selectors
import statistics
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.slack_standin import SlackStandIn  # noqa: E402

STEP = "… "
ACK = "… Working on it"
READING = "… Reading it as:"


def cpu_seconds(pid: int) -> float:
    """CPU (user + system) a live process has used, on Linux; 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timings(command: list[str], env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """(seconds from the start, CPU seconds used) at the first output, the first real step, the
    supervisor's first step and exit."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    selector = selectors.DefaultSelector()
    assert process.stdout is not None and process.stderr is not None
    selector.register(process.stdout, selectors.EVENT_READ)
    selector.register(process.stderr, selectors.EVENT_READ)
    seen: dict[str, tuple[float, float]] = {}
    pending = b""  # stderr not yet ended by a newline
    open_streams = 2
    while open_streams:
        for key, _ in selector.select():
            chunk = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                selector.unregister(key.fileobj)
                open_streams -= 1
                continue
            now = (time.perf_counter() - started, cpu_seconds(process.pid))
            seen.setdefault("first output", now)
            seen["last output"] = now  # the process's own CPU, without the chart's process
            if key.fileobj is not process.stderr:
                continue
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in (raw.decode(errors="replace") for raw in lines):
                if not line.startswith(STEP) or line.startswith(ACK):
                    continue
                seen.setdefault("first real step", now)
                if not line.startswith(READING):
                    seen.setdefault("supervisor's first step", now)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    total = (time.perf_counter() - started, usage.ru_utime + usage.ru_stime)
    return {name: seen.get(name, total) for name in MEASURES[:-1]} | {"answered and exited": total}


MEASURES = ["first output", "first real step", "supervisor's first step", "last output", "answered and exited"]
READY_LIMIT_S = 120.0
TARGET_ANSWERED_S = 1.5  # issue 22: `python -m agent ask …` answered
TARGET_READY_S = 1.0  # issue 22: the bot's first /readyz 200 on a warm data folder


def bytecode_missing() -> list[str]:
    """Modules the start imports whose bytecode is not cached, so each start compiles them."""
    import importlib.util

    missing = []
    for name in ("agent.api", "langchain_core.runnables.base", "matplotlib.figure"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin and spec.cached and not Path(spec.cached).exists():
            missing.append(name)
    return missing


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def ready_after(env: dict[str, str]) -> tuple[float, float]:
    """(seconds, CPU seconds) from starting `python -m bot` in HTTP mode to its first /readyz 200."""
    slack = await SlackStandIn().start()
    port = _free_port()
    env = {k: v for k, v in env.items() if not k.startswith(("SLACK_", "BOT_", "HOST", "PORT"))}
    env.update(BOT_MODE="http", HOST="127.0.0.1", PORT=str(port), SLACK_BOT_TOKEN="xoxb-bench",
               SLACK_SIGNING_SECRET="bench-secret", SLACK_API_URL=slack.api_url, LOG_LEVEL="WARNING")
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
            while time.perf_counter() - started < READY_LIMIT_S:
                if process.returncode is not None:
                    raise SystemExit(f"python -m bot exited with {process.returncode} before it was ready")
                try:
                    async with session.get(f"http://127.0.0.1:{port}/readyz") as response:
                        if response.status == 200:
                            return time.perf_counter() - started, cpu_seconds(process.pid)
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.02)
        raise SystemExit(f"/readyz never answered 200 within {READY_LIMIT_S:g} s")
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 60)
        await slack.close()


def main(runs: int, question: str, warm: bool = True) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "REDIS_"))}
    ask = [sys.executable, "-m", "agent", "ask", question, "--yes"]
    if warm:
        timings(ask, env)  # the demo warehouse is built on the very first run
    bare: list[tuple[float, float]] = []
    asks: dict[str, list[tuple[float, float]]] = {name: [] for name in MEASURES}
    ready: list[tuple[float, float]] = []
    for _ in range(runs):
        bare.append(timings([sys.executable, "-c", "pass"], env)["answered and exited"])
        for name, seconds in timings(ask, env).items():
            asks[name].append(seconds)
        ready.append(asyncio.run(ready_after(env)))
    base, base_cpu = (statistics.median(b[i] for b in bare) for i in (0, 1))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if missing := bytecode_missing():
        print(f"no cached bytecode for {', '.join(missing)}: every start compiles them (python -m compileall)")
    print(f"{runs} runs, median seconds (× python -c pass) and CPU seconds used by then; question: {question!r}")
    print(f"python -c pass                     {base:6.2f}            cpu {base_cpu:5.2f}")
    for name in MEASURES:
        wall, cpu = (statistics.median(a[i] for a in asks[name]) for i in (0, 1))
        print(f"agent ask: {name:<24}{wall:6.2f}  ({wall / base:5.1f}×)  cpu {cpu:5.2f}")
    answered = statistics.median(a[0] for a in asks["answered and exited"])
    wall, cpu = (statistics.median(r[i] for r in ready) for i in (0, 1))
    print(f"python -m bot: first /readyz 200   {wall:6.2f}  ({wall / base:5.1f}×)  cpu {cpu:5.2f}")
    print(f"targets: answered ≤ {TARGET_ANSWERED_S:g} s ({'met' if answered <= TARGET_ANSWERED_S else 'not met'}), "
          f"/readyz < {TARGET_READY_S:g} s ({'met' if wall < TARGET_READY_S else 'not met'}) at this load")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--question", default="number of flights by origin")
    parser.add_argument("--smoke", action="store_true", help="one run, no warm-up run")
    args = parser.parse_args()
    main(1 if args.smoke else args.runs, args.question, warm=not args.smoke)
