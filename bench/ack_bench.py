"""Ack latency under load, and time to first visible feedback. Prints figures; asserts nothing.

100 concurrent signed app_mention events hit the bot's real HTTP endpoint while every agent
run takes 2 s (a fake agent that sleeps); the same 100 events hit a bare AsyncApp that only
acks, in the same run, for comparison. Slack's Web API is the stand-in from tests/bot.

    /tmp/venv/bin/python bench/ack_bench.py [--events 100] [--agent-seconds 2]
"""

from __future__ import annotations

import argparse
import asyncio
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

from agent.api import AgentReply, Progress  # noqa: E402
from bot.settings import load_bot_settings  # noqa: E402
from bot.http_server import EVENTS_PATH, build_web_app  # noqa: E402
from bot.runtime import build_runtime  # noqa: E402
from bot.slack_client import build_web_client  # noqa: E402

SECRET = "bench-secret"


class SleepyAgent:
    def __init__(self, seconds: float):
        self.seconds = seconds

    async def _run(self, session_id, ctx):
        yield Progress(step="think", status="started", label="Thinking…")
        await asyncio.sleep(self.seconds)
        yield AgentReply(session_id=session_id, text="Done.", request_id=ctx.request_id)

    def ask(self, session_id, text, ctx):
        return self._run(session_id, ctx)

    async def pending(self, session_id):
        return None


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
        status, _ = await sender.event(mention(f"question {i}", ts=ts, channel="CBENCH"))
        assert status == 200, status
        return time.perf_counter() - sent_at[ts]

    latencies = await asyncio.gather(*(one(i) for i in range(n)))
    return list(latencies), sent_at


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(events: int, agent_seconds: float) -> None:
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
    runtime = build_runtime(settings, SleepyAgent(agent_seconds))
    bare = AsyncApp(client=build_web_client(settings), signing_secret=SECRET, process_before_response=True)

    @bare.event("app_mention")
    async def only_ack():
        return None

    bot_runner, bot_url = await serve(build_web_app(runtime.app))
    bare_runner, bare_url = await serve(build_web_app(bare))
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        # Warm both apps (auth.test, connection pools) so the figures are steady-state.
        await SlackSender(bot_url, SECRET, session).event(mention("warm", ts="1.1", channel="CWARM"))
        await SlackSender(bare_url, SECRET, session).event(mention("warm", ts="1.1", channel="CWARM"))
        await runtime.jobs.drain()

        bare_lat, _ = await fire(SlackSender(bare_url, SECRET, session), events, "8")
        bot_lat, sent_at = await fire(SlackSender(bot_url, SECRET, session), events, "9")
        started = time.perf_counter()
        await runtime.jobs.drain()
        all_done = time.perf_counter() - started

    first_feedback = [
        call.at - sent_at[call.params["thread_ts"]]
        for call in slack.calls_to("chat.postMessage")
        if call.params.get("channel") == "CBENCH"
    ]
    answered = sum(1 for m in slack.messages.values() if m["channel"] == "CBENCH" and m["text"] == "Done.")

    print(f"{events} concurrent signed app_mention events, agent run {agent_seconds:.1f} s each")
    print(f"{'':28}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for name, values in (("ack: bare AsyncApp (ack only)", bare_lat), ("ack: this bot", bot_lat)):
        print(f"{name:28}{pct(values, .5) * 1e3:10.1f}{pct(values, .99) * 1e3:10.1f}{max(values) * 1e3:10.1f}")
    print(f"{'first feedback (placeholder)':28}{pct(first_feedback, .5) * 1e3:10.1f}"
          f"{pct(first_feedback, .99) * 1e3:10.1f}{max(first_feedback) * 1e3:10.1f}")
    print(f"ack p50 ratio bot/bare: {statistics.median(bot_lat) / statistics.median(bare_lat):.2f}")
    print(f"answers delivered: {answered}/{events}; all done {all_done:.2f} s after the last ack")

    await runtime.close()
    await bot_runner.cleanup()
    await bare_runner.cleanup()
    await slack.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--agent-seconds", type=float, default=2.0)
    args = parser.parse_args()
    asyncio.run(main(args.events, args.agent_seconds))
