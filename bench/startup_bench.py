"""Start-up of the command line, beside `python -c pass` in the same run: time to the first output
of `python -m agent ask …` (its "… Working on it", printed before the agent is imported), to the
first step of the agent's work ("… Understanding your request…", after the imports and the
context are built), and to the answer. Prints medians; asserts nothing.

    python bench/startup_bench.py [--runs 5] [--question "number of flights by origin"]
"""

from __future__ import annotations

import argparse
import os
import selectors
import statistics
import subprocess
import sys
import time


def timings(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(first output, first output that is an agent step, exit), in seconds from the start."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    selector = selectors.DefaultSelector()
    assert process.stdout is not None and process.stderr is not None
    selector.register(process.stdout, selectors.EVENT_READ)
    selector.register(process.stderr, selectors.EVENT_READ)
    first = step = None
    seen = b""
    open_streams = 2
    while open_streams:
        for key, _ in selector.select():
            chunk = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                selector.unregister(key.fileobj)
                open_streams -= 1
            else:
                now = time.perf_counter() - started
                first = now if first is None else first
                seen += chunk
                if step is None and seen.count("…".encode()) >= 2:
                    step = now
    process.wait()
    total = time.perf_counter() - started
    return (first if first is not None else total), (step if step is not None else total), total


def main(runs: int, question: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "REDIS_"))}
    ask = [sys.executable, "-m", "agent", "ask", question, "--yes"]
    timings(ask, env)  # the demo warehouse is built on the very first run
    bare, firsts, steps, totals = [], [], [], []
    for _ in range(runs):
        bare.append(timings([sys.executable, "-c", "pass"], env)[2])
        first, step, total = timings(ask, env)
        firsts.append(first)
        steps.append(step)
        totals.append(total)
    print(f"{runs} runs, median seconds")
    print(f"python -c pass                  {statistics.median(bare):6.2f}")
    print(f"agent ask: first output         {statistics.median(firsts):6.2f}")
    print(f"agent ask: first step of work   {statistics.median(steps):6.2f}")
    print(f"agent ask: answered and exited  {statistics.median(totals):6.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--question", default="number of flights by origin")
    args = parser.parse_args()
    main(args.runs, args.question)
