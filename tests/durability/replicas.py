"""Real `python -m bot` replicas in HTTP mode, and a Slack stand-in that can hold one call.

Each replica gets its own bot token, so the stand-in can tell which process made a call.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web
from tests.support.slack_requests import SlackSender
from tests.support.slack_standin import SlackStandIn
from tests.support.timeouts import PROCESS_TIMEOUT_S

from tests.durability.conftest import free_port

SECRET = "durability-secret"


@dataclass
class Hold:
    """Hold the first `method` call in `channel` until released; a held call then fails without effect,
    as if it never reached Slack (its caller was killed meanwhile)."""

    method: str
    channel: str
    held_by: str | None = None  # the caller's token
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    apply_after_release: bool = False


@dataclass
class GatedSlack(SlackStandIn):
    holds: list[Hold] = field(default_factory=list)

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        for hold in self.holds:
            if hold.method == method and not hold.arrived.is_set():
                params = await self._params(request)
                if params.get("channel") == hold.channel:
                    hold.held_by = request.headers.get("Authorization", "").removeprefix("Bearer ")
                    hold.arrived.set()
                    await hold.release.wait()
                    if not hold.apply_after_release:
                        return web.json_response({"ok": False, "error": "internal_error"}, status=500)
        return await super()._api(request)


@dataclass
class Replica:
    name: str
    token: str
    port: int
    process: asyncio.subprocess.Process
    session: aiohttp.ClientSession

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def send(self) -> SlackSender:
        return SlackSender(self.url + "/slack/events", SECRET, self.session)

    async def health(self) -> tuple[int, dict]:
        async with self.session.get(self.url + "/healthz") as response:
            return response.status, await response.json()

    async def wait_ready(self) -> None:
        """Until the replica has started: it listens while it builds its agent, saying 503 `starting`."""
        for _ in range(PROCESS_TIMEOUT_S * 10):
            try:
                _, body = await self.health()
                if body.get("not_ready") != ["starting"]:
                    return
            except aiohttp.ClientConnectorError:
                if self.process.returncode is not None:
                    raise AssertionError(
                        f"replica {self.name} exited: {(await self.process.stderr.read())[-3000:]}"
                    ) from None
            await asyncio.sleep(0.1)
        raise AssertionError(f"replica {self.name} did not start")

    async def stop(self, timeout_s: float = 60) -> bytes:
        """SIGTERM, then SIGKILL if it has not exited within `timeout_s`; its stderr."""
        if self.process.returncode is None:
            self.process.terminate()
        try:
            _, stderr = await asyncio.wait_for(self.process.communicate(), timeout_s)
        except TimeoutError:
            self.process.kill()
            _, stderr = await self.process.communicate()
        return stderr


@contextlib.asynccontextmanager
async def replicas_running(names: list[str], **options) -> AsyncIterator[list[Replica]]:
    """Started and ready replicas that are stopped however the block ends: a failed start-up or
    a failing test never leaves a process behind."""
    started: list[Replica] = []
    try:
        for name in names:
            started.append(await start_replica(name, **options))
        await asyncio.gather(*(replica.wait_ready() for replica in started))
        yield started
    finally:
        for replica in started:
            if replica.process.returncode is None:
                await replica.stop(timeout_s=10)


async def start_replica(name: str, *, slack_api_url: str, redis_url: str, data_dir, cwd, session) -> Replica:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_"))}
    token = f"xoxb-{name}"
    env.update(
        BOT_MODE="http", PORT=str(port), SLACK_BOT_TOKEN=token, SLACK_SIGNING_SECRET=SECRET,
        SLACK_API_URL=slack_api_url, DATA_DIR=str(data_dir), REDIS_URL=redis_url, LOG_LEVEL="INFO",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    return Replica(name, token, port, process, session)


async def wait_until(condition, *, tries: int = 600, pause: float = 0.1):
    for _ in range(tries):
        result = condition()
        if result:
            return result
        await asyncio.sleep(pause)
    raise AssertionError("condition not met in time")


def bot_messages(slack: SlackStandIn, channel: str, thread_ts: str) -> list[dict]:
    return [m for m in slack.thread(channel, thread_ts) if m.get("bot_id")]


def is_final(message: dict) -> bool:
    """A reply, not a placeholder: replies carry buttons (Run, feedback, Retry, follow-ups)."""
    return any(block.get("type") == "actions" for block in message.get("blocks", []))
