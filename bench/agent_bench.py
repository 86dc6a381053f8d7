"""LLM calls per scenario, rule-based dispatch against the seeds' flow, and graph overhead.

A counting model stands in for the LLM: it emits the tool calls the offline model would
and answers every structured step, so each scenario makes the calls a real LLM would.
Run from the repo root: python bench/agent_bench.py (--smoke: one run per scenario, the bench itself works)
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langchain_core.messages import AIMessage  # noqa: E402

from agent.api import Assistant  # noqa: E402
from agent.chatbi.narrative import Narrative  # noqa: E402
from agent.llm.offline import OfflineChatModel  # noqa: E402
from agent.settings import Settings, load_settings  # noqa: E402
from agent.tools.sql_tools import ExplainNarrative  # noqa: E402
from agent.bootstrap import build_context  # noqa: E402

# kind, message, and what the reply must hold: a run that ends early ("Done.") would count too few calls
SCENARIOS = {
    "data question": ("ask", "Average arrival delay by origin airport", "rows"),
    "SQL-only request": ("ask", "Write me the SQL for the number of flights per carrier", "sql"),
    "fix (/fixsql)": ("Fix SQL Agent", "SELECT orign, count(*) FROM flights GROUP BY orign", "sql"),
    "explain (/explainsql)": ("Explain SQL Agent", "SELECT dest, count(*) FROM flights GROUP BY dest", "text"),
}
RUNS = 15
READ_FOR = ("generate_sql", "execute_sql_and_analyze_result")  # final intents whose question has data to read


class CountingModel(OfflineChatModel):
    """Behaves like an LLM (prose steps included), instantly. As router it reads a data question into
    data_discovery's `reading` in the same call, as the router prompt asks an LLM to."""

    is_offline: bool = False

    async def _route(self, messages):
        answer = await super()._route(messages)
        call = answer.tool_calls[0] if answer.tool_calls else None
        if call is None or call["name"] != "data_discovery" or call["args"].get("final_intent") not in READ_FOR:
            return answer
        reading = await self.reader.read_intent(call["args"]["user_question"])
        args = {**call["args"], "reading": reading.model_dump(mode="json", exclude_defaults=True)}
        return AIMessage(content="", tool_calls=[{**call, "args": args}])


async def _written(value):
    return value


def counting_model(context) -> CountingModel:
    return CountingModel(
        reader_for=context.model.reader_for,  # each run's own view of the data, as the offline model reads it
        structured={
            Narrative.__name__: lambda q: _written(Narrative(answer="The answer is in the table.", insights=[])),
            ExplainNarrative.__name__: lambda q: _written(ExplainNarrative(text="It counts flights per destination.")),
        },
    )


async def run_once(assistant: Assistant, kind: str, text: str, session: str):
    if kind == "ask":
        reply = await assistant.reply(assistant.ask(session, text))
        calls = reply.llm_calls
        if reply.ask_human and reply.ask_human.kind == "confirm_sql":
            reply = await assistant.reply(assistant.resume(session, "run"))
            calls += reply.llm_calls
        return reply, calls
    reply = await assistant.reply(assistant.run_tool(session, kind, {"sql": text}))
    return reply, reply.llm_calls


class SqlClock:
    """Time spent inside the warehouse, to subtract from a run's wall time."""

    def __init__(self, warehouse):
        self.seconds = 0.0
        for name in ("run", "dry_run"):
            original = getattr(warehouse, name)
            setattr(warehouse, name, self._timed(original))

    def _timed(self, function):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

        return timed


async def main(runs: int, settings: Settings) -> None:
    context = build_context(settings)
    model = counting_model(context)
    by_strategy = {
        strategy: Assistant(dataclasses.replace(context, model=model), dispatch_strategy=strategy)
        for strategy in ("rules", "llm")
    }
    print(f"{'scenario':24} {'LLM calls (rules)':>18} {'LLM calls (seeds)':>18}")
    for name, (kind, text, holds) in SCENARIOS.items():
        counts = []
        for strategy, assistant in by_strategy.items():
            reply, calls = await run_once(assistant, kind, text, f"{strategy}-{name}")
            assert reply.error is None, reply.error
            assert getattr(reply, holds), f"{name} ({strategy}): no {holds} in the reply: {reply.text!r}"
            counts.append(calls)
        print(f"{name:24} {counts[0]:>18} {counts[1]:>18}")

    clock = SqlClock(context.warehouse)
    assistant = by_strategy["rules"]
    for name, (kind, text, _) in SCENARIOS.items():
        overheads = []
        for run in range(runs):
            clock.seconds = 0.0
            started = time.perf_counter()
            await run_once(assistant, kind, text, f"overhead-{name}-{run}")
            overheads.append((time.perf_counter() - started - clock.seconds) * 1000)
        print(f"graph overhead, {name}: median {statistics.median(overheads):.1f} ms (SQL time excluded, {runs} runs)")
    context.cpu.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="runs per scenario for the overhead")
    parser.add_argument("--smoke", action="store_true", help="one run per scenario")
    args = parser.parse_args()
    # Smoke checks that the bench runs, not the CPU budget: at load 20 on 2 cores a reader worker's start-up
    # alone outlasted the default wait for a free worker, and the smoke run failed on it.
    overrides = {"cpu_step_budget_s": 120.0} if args.smoke else {}
    asyncio.run(main(1 if args.smoke else args.runs, load_settings(**overrides)))
