"""Ack latency under load, and time to first visible feedback. Prints figures; asserts nothing.

100 concurrent signed app_mention events hit the bot's real HTTP endpoint while every agent
run takes 2 s (a fake agent that sleeps); the same 100 events hit a bare AsyncApp that only
acks, in the same run, for comparison, over several rounds (the verdict is the geometric mean
of the per-round ratios). Slack's Web API is the stand-in from tests/support. The bot is started,
served and stopped as `python -m bot` does it (bot/__main__.py): built with the collector paused,
`runtime.start()` (the descriptor table grown ahead, the Web API's connections kept), readiness and
metrics served beside the events, and `runtime.shutdown` with the grace period at the end.

    python bench/ack_bench.py [--events 100] [--agent-seconds 2] [--rounds 6]
    python bench/ack_bench.py --smoke      # 10 events, 0.2 s runs, 2 rounds: the bench itself works
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path

import aiohttp
from aiohttp import web
from pydantic import SecretStr
from slack_bolt.async_app import AsyncApp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: benches reuse tests/support

from tests.support.slack_requests import SlackSender, mention  # noqa: E402
from tests.support.slack_standin import SlackStandIn  # noqa: E402

from agent.api import (  # noqa: E402
    AgentReply, AskHuman, Chart, ChatContext, LearnOffer, Progress, SuggestedPrompt, paused_for_startup,
)
from bot.agent_port import AgentPort  # noqa: E402
from bot.settings import load_bot_settings  # noqa: E402
from bot.http_server import EVENTS_PATH, build_web_app  # noqa: E402
from bot.runtime import build_runtime  # noqa: E402
from bot.slack_client import build_web_client  # noqa: E402

SECRET = "bench-secret"


class SleepyAgent:
    """The bot's whole AgentPort (bot/agent_port.py): every run sleeps, then answers "Done."."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    async def _run(self, session_id: str, ctx: ChatContext | None):
        yield Progress(step="think", status="started", label="Thinking…")
        await asyncio.sleep(self.seconds)
        yield AgentReply(session_id=session_id, text="Done.", request_id=ctx.request_id if ctx else None)

    def ask(self, session_id: str, text: str, context: ChatContext | None = None):
        return self._run(session_id, context)

    def resume(self, session_id: str, choice: str, context: ChatContext | None = None, *, edited_sql: str | None = None):
        return self._run(session_id, context)

    def run_tool(self, session_id: str, agent_name: str, args: dict, context: ChatContext | None = None):
        return self._run(session_id, context)

    async def draw_chart(self, reply: AgentReply) -> Chart | None:
        return None

    async def pending(self, session_id: str) -> AskHuman | None:
        return None

    async def may_answer(self, session_id: str, context: ChatContext) -> bool:
        return True

    def suggested_prompts(self, n: int = 4, context: ChatContext | None = None) -> list[SuggestedPrompt]:
        return []

    async def health(self) -> dict:
        return {"warehouse": "up", "wedged": False}

    async def save_verified(self, session_id: str, context: ChatContext) -> AgentReply:
        return AgentReply(session_id=session_id, text="Saved.")

    async def learn_word(self, session_id: str, offer: LearnOffer, context: ChatContext) -> AgentReply:
        return AgentReply(session_id=session_id, text="Remembered.")


def port_methods_missing(agent: object) -> list[str]:
    """What the bot calls on its agent that `agent` lacks: the bench fails loudly, not at the first event."""
    wanted = [name for name in dir(AgentPort) if not name.startswith("_")]
    return [name for name in wanted if not callable(getattr(agent, name, None))]


async def serve(web_app: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}{EVENTS_PATH}"


async def fire(sender: SlackSender, n: int, prefix: str) -> tuple[list[float], dict[str, float]]:
    sent_at: dict[str, float] = {}

    async def one(i: int) -> float:
        ts = f"{prefix}{i}.000001"
        sent_at[ts] = time.perf_counter()
        # One person each, as 100 people asking at once (one person's requests beyond USER_CONCURRENCY get a "wait").
        status, _ = await sender.event(mention(f"question {i}", ts=ts, channel="CBENCH", user=f"UB{i}"))
        assert status == 200, status
        return time.perf_counter() - sent_at[ts]

    latencies = await asyncio.gather(*(one(i) for i in range(n)))
    return list(latencies), sent_at


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(events: int, agent_seconds: float, rounds: int) -> None:
    agent = SleepyAgent(agent_seconds)
    if missing := port_methods_missing(agent):
        raise SystemExit(f"SleepyAgent does not follow bot/agent_port.py: missing {', '.join(missing)}")
    slack = await SlackStandIn().start()
    settings = load_bot_settings(
        _env_file=None,
        slack_bot_token=SecretStr("xoxb-bench"),
        slack_signing_secret=SecretStr(SECRET),
        slack_api_url=slack.api_url,
        openai_api_key=None,
        redis_url=None,
        user_rate_limit_per_minute=0,
        log_level="WARNING",
    )
    with paused_for_startup():  # what start-up builds lives as long as the process (agent/collector.py)
        runtime = build_runtime(settings, agent)
        await runtime.start()
    bare = AsyncApp(client=build_web_client(settings), signing_secret=SECRET, process_before_response=True)

    @bare.event("app_mention")
    async def only_ack():
        return None

    bot_runner, bot_url = await serve(build_web_app(runtime.app, runtime.readiness, metrics=runtime.metrics,
                                                    ack_first=runtime.ack_first))
    bare_runner, bare_url = await serve(build_web_app(bare))
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        # Warm both apps (auth.test, connection pools) so the figures are steady-state.
        await SlackSender(bot_url, SECRET, session).event(mention("warm", ts="1.1", channel="CWARM"))
        await SlackSender(bare_url, SECRET, session).event(mention("warm", ts="1.1", channel="CWARM"))
        await runtime.jobs.drain()

        # Rounds alternate which app goes first (the second burst of a round pays more), and on a
        # shared machine one burst's figures swing: the verdict is the geometric mean of the
        # per-round ratios over an even number of rounds, so the order effect cancels.
        bare_lat: list[float] = []
        bot_lat: list[float] = []
        ratios: list[tuple[float, float]] = []
        for r in range(rounds):
            order = [("bare", bare_url), ("bot", bot_url)]
            this_round: dict[str, list[float]] = {}
            for name, url in order if r % 2 == 0 else order[::-1]:
                gc.collect()
                await asyncio.sleep(0.5)  # let the previous burst's sockets and tasks settle
                latencies, sent = await fire(SlackSender(url, SECRET, session), events, f"{r + 2}{name == 'bot':d}")
                this_round[name] = latencies
                if name == "bot":
                    sent_at = sent
                    started = time.perf_counter()
                    await runtime.jobs.drain()
                    all_done = time.perf_counter() - started
            bare_lat += this_round["bare"]
            bot_lat += this_round["bot"]
            ratios.append((statistics.median(this_round["bot"]) / statistics.median(this_round["bare"]),
                           pct(this_round["bot"], .99) / pct(this_round["bare"], .99)))

    first_feedback = [  # the last round's bot burst
        call.at - sent_at[call.params["thread_ts"]]
        for call in slack.calls_to("chat.postMessage")
        if call.params.get("channel") == "CBENCH" and call.params["thread_ts"] in sent_at
    ]
    answered = sum(1 for m in slack.messages.values() if m["channel"] == "CBENCH" and m["text"] == "Done.")

    print(f"{events} concurrent signed app_mention events, agent run {agent_seconds:.1f} s each, {rounds} rounds")
    print(f"{'':28}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for name, values in (("ack: bare AsyncApp (ack only)", bare_lat), ("ack: this bot", bot_lat)):
        print(f"{name:28}{pct(values, .5) * 1e3:10.1f}{pct(values, .99) * 1e3:10.1f}{max(values) * 1e3:10.1f}")
    print(f"{'first feedback (placeholder)':28}{pct(first_feedback, .5) * 1e3:10.1f}"
          f"{pct(first_feedback, .99) * 1e3:10.1f}{max(first_feedback) * 1e3:10.1f}")
    print("per round, bot/bare p50 and p99: " + ", ".join(f"{a:.2f}/{b:.2f}" for a, b in ratios))
    print(f"ack ratio bot/bare, geometric mean over rounds: p50 {statistics.geometric_mean(a for a, _ in ratios):.2f}, "
          f"p99 {statistics.geometric_mean(b for _, b in ratios):.2f}")
    print(f"answers delivered: {answered}/{events * rounds}; last round all done {all_done:.2f} s after its last ack")

    await bot_runner.cleanup()  # as the bot stops: no new requests, then the running answers finish
    await runtime.shutdown(settings.shutdown_grace_s)
    await bare_runner.cleanup()
    await slack.close()
    if answered != events * rounds:  # figures of a bot that did not answer are worth nothing
        raise SystemExit(f"only {answered} of {events * rounds} questions were answered")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--agent-seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=6, help="an even number balances the order")
    parser.add_argument("--smoke", action="store_true", help="10 events, 0.2 s runs, 2 rounds")
    args = parser.parse_args()
    if args.smoke:
        args.events, args.agent_seconds, args.rounds = 10, 0.2, 2
    asyncio.run(main(args.events, args.agent_seconds, args.rounds))
