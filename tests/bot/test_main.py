"""`python -m bot`: mode selection, and HTTP mode as a real process against the Web API stand-in."""

from __future__ import annotations

import asyncio
import os
import socket
import sys

import aiohttp
import pytest
from pydantic import SecretStr

from bot.__main__ import choose_mode
from tests.support.slack_requests import SlackSender, mention
from tests.support.timeouts import PROCESS_TIMEOUT_S

SECRET = "main-secret"


@pytest.mark.parametrize(
    ("overrides", "mode"),
    [
        ({}, "console"),
        ({"slack_bot_token": SecretStr("xoxb"), "slack_app_token": SecretStr("xapp")}, "socket"),
        ({"slack_bot_token": SecretStr("xoxb")}, "http"),
        ({"slack_bot_token": SecretStr("xoxb"), "slack_app_token": SecretStr("xapp"), "bot_mode": "http"}, "http"),
    ],
)
def test_mode_follows_the_tokens_unless_bot_mode_says(settings, overrides, mode):
    assert choose_mode(settings.model_copy(update=overrides)) == mode


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.subprocess
async def test_http_mode_process_serves_health_and_answers_a_signed_mention(slack, settings, tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_"))}
    env.update(
        BOT_MODE="http", PORT=str(port), SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET=SECRET,
        SLACK_API_URL=slack.api_url, DATA_DIR=str(settings.data_dir),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(PROCESS_TIMEOUT_S * 10):  # wait for the bot to be ready (start-up loads the warehouse)
                try:
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                        if response.status == 200:
                            break
                        assert (await response.json())["not_ready"] == ["starting"]  # listening while it starts
                        await asyncio.sleep(0.1)
                except aiohttp.ClientConnectorError:
                    assert process.returncode is None, (await process.stderr.read()).decode()[-2000:]
                    await asyncio.sleep(0.1)
            sender = SlackSender(f"http://127.0.0.1:{port}/slack/events", SECRET, session)
            status, _ = await sender.event(mention("average arrival delay by origin", ts="100.1"))
            assert status == 200
            for _ in range(PROCESS_TIMEOUT_S * 10):  # the process answers in the background; wait for the reply to land
                thread = slack.thread("C1", "100.1")
                if thread and any(b.get("type") == "actions" for b in thread[-1]["blocks"]):
                    break
                await asyncio.sleep(0.1)
            assert thread and "Working on it" not in thread[-1]["text"]
    finally:
        process.terminate()
        _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode()[-2000:]
    assert b"Traceback" not in stderr


@pytest.mark.subprocess
async def test_console_mode_answers_and_leaves_cleanly(settings, tmp_path):
    """No tokens: the console answers a question and, on quit, closes the warehouse before exiting
    (no 'nanobind: leaked' noise from DuckDB connections left open)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_"))}
    env.update(DATA_DIR=str(settings.data_dir))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(b"how many flights left JFK in March\nquit\n"), PROCESS_TIMEOUT_S)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, err.decode()[-2000:]
    assert "Shall I run this query?" in out.decode() or "flights" in out.decode().lower()
    assert "nanobind" not in err.decode() and "Traceback" not in err.decode()


# `python -m bot`, but reporting each start of the CPU workers and whether the HTTP port took
# connections by then.
REPORTING_WORKER_START = """
import os, socket, sys
from agent.budget import cpu

real_warm = cpu.CpuPool.warm

def warm(self):
    with socket.socket() as probe:
        listening = probe.connect_ex(("127.0.0.1", int(os.environ["PORT"]))) == 0
    print(f"workers starting; listening={listening}", file=sys.stderr, flush=True)
    real_warm(self)

cpu.CpuPool.warm = warm
from bot.__main__ import main
sys.exit(main())
"""


@pytest.mark.subprocess
async def test_http_mode_starts_its_cpu_workers_once_it_listens_and_is_ready_without_them(slack, settings, tmp_path):
    """The workers' start (a process importing the SQL layer and matplotlib) would compete with the
    bot's own start for the CPU; /readyz does not wait for them, a first step would."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_"))}
    env.update(
        BOT_MODE="http", PORT=str(port), SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET=SECRET,
        SLACK_API_URL=slack.api_url, DATA_DIR=str(settings.data_dir),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", REPORTING_WORKER_START, cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(PROCESS_TIMEOUT_S * 10):
                try:
                    async with session.get(f"http://127.0.0.1:{port}/readyz") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientConnectorError:
                    assert process.returncode is None, (await process.stderr.read()).decode()[-2000:]
                await asyncio.sleep(0.1)
            else:
                pytest.fail("/readyz never answered 200")
        # Ready first; the graph and then the workers are started after that (bot/__main__.py).
        seen = b""
        while b"workers starting" not in seen:
            line = await asyncio.wait_for(process.stderr.readline(), PROCESS_TIMEOUT_S)
            assert line, "the bot stopped before it started its workers"
            seen += line
    finally:
        process.terminate()
        _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode()[-2000:]
    starts = [line for line in (seen + stderr).decode().splitlines() if line.startswith("workers starting")]
    assert starts == ["workers starting; listening=True"]


async def test_the_bolt_app_is_built_without_walking_the_stack(bot_settings, fake_agent, monkeypatch):
    """Bolt names an unnamed app after its caller's file through inspect.stack(), which reads the source of
    every frame (a tenth of a second of the start before /readyz); the app is given that name itself."""
    import inspect

    from bot.runtime import build_runtime

    def no_stack(*args, **kwargs):
        raise AssertionError("inspect.stack() called while building the app")

    monkeypatch.setattr(inspect, "stack", no_stack)
    runtime = build_runtime(bot_settings, fake_agent)
    try:
        assert runtime.app.name == "app.py"  # what Bolt named it from the stack: bot/listeners/app.py
    finally:
        await runtime.close()


# `python -m bot` whose agent is built only once the test writes a line to its stdin: start-up held
# at the point where the HTTP server listens and the agent is not built yet.
HELD_BEFORE_THE_AGENT = """
import sys
from agent.api import Assistant

real_starting = Assistant.starting

def held(cls, *args, **kwargs):
    print("building the agent", file=sys.stderr, flush=True)
    sys.stdin.readline()
    return real_starting(*args, **kwargs)

Assistant.starting = classmethod(held)
from bot.__main__ import main
sys.exit(main())
"""


@pytest.mark.subprocess
async def test_http_mode_listens_while_it_starts_and_says_ready_only_once_it_can_serve_an_event(
    slack, settings, tmp_path
):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_", "HOST"))}
    env.update(
        BOT_MODE="http", PORT=str(port), SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET=SECRET,
        SLACK_API_URL=slack.api_url, DATA_DIR=str(settings.data_dir),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HELD_BEFORE_THE_AGENT, cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None and process.stderr is not None
    url = f"http://127.0.0.1:{port}"
    try:
        while (line := await asyncio.wait_for(process.stderr.readline(), PROCESS_TIMEOUT_S)) != b"building the agent\n":
            assert line, "the bot stopped before it built its agent"
        async with aiohttp.ClientSession() as session:
            # Held before the agent is built (its start begins as the server's does), yet listening: alive,
            # not ready, no event served.
            for _ in range(PROCESS_TIMEOUT_S * 10):
                try:
                    async with session.get(url + "/livez") as live:
                        assert live.status == 200
                        break
                except aiohttp.ClientConnectorError:
                    await asyncio.sleep(0.1)
            else:
                pytest.fail("never listened while the agent was held")
            async with session.get(url + "/readyz") as ready:
                assert ready.status == 503 and (await ready.json())["not_ready"] == ["starting"]
            status, _ = await SlackSender(url + "/slack/events", SECRET, session).event(
                mention("how many flights", ts="700.1"))
            assert status == 503  # Slack sends it again later
            process.stdin.write(b"go\n")
            await process.stdin.drain()
            for _ in range(PROCESS_TIMEOUT_S * 10):
                async with session.get(url + "/readyz") as ready:
                    if ready.status == 200:
                        break
                await asyncio.sleep(0.1)
            else:
                pytest.fail("/readyz never answered 200 once the agent was built")
            status, _ = await SlackSender(url + "/slack/events", SECRET, session).event(
                mention("how many flights", ts="700.2"))
            assert status == 200
    finally:
        process.terminate()
        _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode()[-2000:]
    assert b"Traceback" not in stderr


async def test_a_mention_is_matched_by_the_first_listener_bolt_tries(bot_settings, fake_agent):
    """Bolt tries its listeners in order until one matches; a burst of mentions is not checked against the
    rarer listeners (the Home tab, the context change, commands, clicks) on the way to each ack."""
    import json

    from slack_bolt.request.async_request import AsyncBoltRequest
    from slack_bolt.response import BoltResponse

    from bot.runtime import build_runtime
    from tests.support.slack_requests import mention

    runtime = build_runtime(bot_settings, fake_agent)
    try:
        for event, first in ((mention("hi", ts="1.1", channel="C1"), 0), ({**mention("hi", ts="1.2", channel="C1"),
                                                                            "type": "message"}, 1)):
            body = {"type": "event_callback", "team_id": "T1", "api_app_id": "A1", "event": event}
            request = AsyncBoltRequest(body=json.dumps(body), headers={"content-type": "application/json"})
            matched = [n for n, listener in enumerate(runtime.app._async_listeners)
                       if await listener.async_matches(req=request, resp=BoltResponse(status=200))]
            assert matched[:1] == [first], matched
    finally:
        await runtime.close()
