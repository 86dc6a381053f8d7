"""Fixtures: the main Redis on 127.0.0.1:6379 under a fresh key prefix (never flushed), a
private redis-server that a test may stop and start, and the Slack Web API stand-in."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
import redis

from tests.support.slack_standin import SlackStandIn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def main_redis_url(redis_url) -> str:
    return redis_url


@pytest.fixture
def prefix(redis_prefix) -> str:
    return redis_prefix


class PrivateRedis:
    """A redis-server of our own (free port, temp dir): the one a test may stop and start again."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> PrivateRedis:
        self.process = subprocess.Popen(  # noqa: ASYNC220 - a long-lived child, stopped synchronously too
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        try:
            for _ in range(100):
                try:
                    client.ping()
                    return self
                except redis.exceptions.ConnectionError:
                    await asyncio.sleep(0.05)
        finally:
            client.close()
        raise RuntimeError("private redis-server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture(scope="module")
async def private_redis(tmp_path_factory):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = await PrivateRedis(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
async def slack():
    standin = await SlackStandIn().start()
    yield standin
    await standin.close()
