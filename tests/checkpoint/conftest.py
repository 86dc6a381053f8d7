"""A real Redis on 127.0.0.1:6379, one fresh key prefix per test, removed afterwards."""

from __future__ import annotations

from uuid import uuid4

import pytest
import redis
from redis.asyncio import Redis

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="session")
def redis_url() -> str:
    probe = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        probe.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip(
            "no Redis answers on 127.0.0.1:6379 (start one: redis-server --daemonize yes "
            "--bind 127.0.0.1 --port 6379 --save '' --appendonly no)"
        )
    finally:
        probe.close()
    return REDIS_URL


@pytest.fixture
async def redis_client(redis_url):
    client = Redis.from_url(redis_url, decode_responses=False)
    yield client
    await client.aclose()


@pytest.fixture
async def key_prefix(redis_client):
    prefix = f"sda:test:{uuid4().hex}:"
    yield prefix
    leftovers = [key async for key in redis_client.scan_iter(match=f"{prefix}*", count=1000)]
    if leftovers:
        await redis_client.delete(*leftovers)
