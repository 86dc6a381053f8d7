"""SIGTERM stops `python -m bot` within SHUTDOWN_GRACE_S plus a margin, even while a statement
that ignores cancellation runs; with Redis the unfinished job goes back to the queue.

The process is `python -m bot` with its engine call replaced by one that never ends
(tests/support/runaway_bot.py), in HTTP mode on HOST against the Web API stand-in. It is
killed in `finally` whatever the test saw, so no process outlives a failure.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.__main__ import EXIT_MARGIN_S
from tests.support.slack_requests import SlackSender, mention
from tests.support.timeouts import PROCESS_TIMEOUT_S

pytestmark = pytest.mark.subprocess

SECRET = "stop-secret"
GRACE_S = 2
HOST = "127.0.0.2"  # not the default: the server must listen where HOST says, and only there
REPO = Path(__file__).resolve().parents[2]
GENEROUS_S = 120


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


async def start_bot(
    slack, settings, tmp_path, *, module: str = "tests.support.runaway_bot", **extra_env
) -> tuple[asyncio.subprocess.Process, int, Path]:
    port = free_port()
    started = tmp_path / "runaway-started"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_", "HOST"))}
    env.update(
        BOT_MODE="http", HOST=HOST, PORT=str(port), SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET=SECRET,
        SLACK_API_URL=slack.api_url, DATA_DIR=str(settings.data_dir), SHUTDOWN_GRACE_S=str(GRACE_S),
        QUERY_TIMEOUT_S="600", CONFIRM_BEFORE_RUN="false", RUNAWAY_STARTED=str(started),
        PYTHONPATH=str(REPO), **extra_env,
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", module, cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    return process, port, started


async def wait_until_ready(process, session: aiohttp.ClientSession, url: str) -> None:
    """Until /readyz says 200: the server listens (and /livez answers) while the bot is still being built."""
    for _ in range(PROCESS_TIMEOUT_S * 10):
        try:
            async with session.get(url + "/readyz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientConnectorError:
            pass
        assert process.returncode is None, (await process.stderr.read()).decode()[-2000:]
        await asyncio.sleep(0.1)
    raise AssertionError("the bot never became ready")


async def run_into_a_runaway_then_stop(slack, settings, tmp_path, **extra_env) -> tuple[float, int, bytes]:
    """(seconds from SIGTERM to exit, exit status, stderr)."""
    process, port, started = await start_bot(slack, settings, tmp_path, **extra_env)
    url = f"http://{HOST}:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            await wait_until_ready(process, session, url)
            try:
                async with session.get(f"http://127.0.0.1:{port}/livez"):
                    raise AssertionError("the server also listens on 127.0.0.1; HOST was not honoured")
            except aiohttp.ClientConnectorError:
                pass
            status, _ = await SlackSender(url + "/slack/events", SECRET, session).event(
                mention("number of flights by origin", ts="500.1")
            )
            assert status == 200
            for _ in range(GENEROUS_S * 10):
                if started.exists():
                    break
                assert process.returncode is None, (await process.stderr.read()).decode()[-2000:]
                await asyncio.sleep(0.1)
            assert started.exists(), "the question never reached the warehouse"
        loop = asyncio.get_running_loop()
        signalled = loop.time()
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), GRACE_S + EXIT_MARGIN_S + GENEROUS_S)
        return loop.time() - signalled, process.returncode, stderr
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_sigterm_during_a_runaway_statement_stops_the_process(slack, settings, tmp_path):
    took, status, stderr = await run_into_a_runaway_then_stop(slack, settings, tmp_path)
    assert status == 0, stderr.decode()[-3000:]
    assert took < GRACE_S + EXIT_MARGIN_S + 10  # generous: a hung stop takes forever, not a few seconds more
    assert b"Traceback" not in stderr


async def test_sigterm_hands_the_unfinished_job_back_to_the_queue(slack, settings, tmp_path, redis_url, redis_prefix, redis_client):
    took, status, stderr = await run_into_a_runaway_then_stop(
        slack, settings, tmp_path, REDIS_URL=redis_url, REDIS_KEY_PREFIX=redis_prefix, JOB_LEASE_S="5"
    )
    assert status == 0, stderr.decode()[-3000:]
    assert b"handed back 1 unfinished job(s)" in stderr
    pending = await redis_client.xpending_range(f"{redis_prefix}jobs", "workers", "-", "+", 10)
    assert len(pending) == 1 and pending[0]["time_since_delivered"] >= 5000  # idle past the lease: any worker takes it


async def test_sigterm_while_the_engine_runs_a_long_statement_exits_0_quietly(slack, settings, tmp_path):
    """The real `python -m bot` and DuckDB's own statement (no stand-in): a cross join of flights with
    itself runs for minutes. Past the grace period the bot interrupts it and closes the busy connection:
    exit 0 without a traceback (it exited 1 after 21.8 s with `ResourceInUseException: connection is
    busy` at close)."""
    process, port, _ = await start_bot(slack, settings, tmp_path, module="bot")
    url = f"http://{HOST}:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            await wait_until_ready(process, session, url)
            status, _ = await SlackSender(url + "/slack/events", SECRET, session).event(
                mention("run this: SELECT count(*) AS n FROM flights a CROSS JOIN flights b", ts="600.1")
            )
            assert status == 200
            await _until_a_slot_stays_busy(process, session, url)
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), GRACE_S + EXIT_MARGIN_S + GENEROUS_S)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    # 0, not the exit-anyway timer's 1: the stop finished within the grace period and its margin
    assert process.returncode == 0, stderr.decode()[-3000:]
    assert b"Traceback" not in stderr and b"ResourceInUse" not in stderr, stderr.decode()[-3000:]


async def _until_a_slot_stays_busy(process, session: aiohttp.ClientSession, url: str) -> None:
    """/readyz shows a warehouse slot taken across several checks: the long statement, not a quick dry run."""
    seen = 0
    for _ in range(GENEROUS_S * 4):
        assert process.returncode is None, (await process.stderr.read()).decode()[-2000:]
        async with session.get(url + "/readyz") as response:
            report = await response.json()
        seen = seen + 1 if (report.get("warehouse_slots") or {}).get("busy", 0) >= 1 else 0
        if seen >= 8:  # four seconds: two readiness checks past the 2 s cache
            return
        await asyncio.sleep(0.5)
    raise AssertionError("the statement never reached the warehouse")
