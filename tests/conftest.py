"""Shared fixtures: one demo warehouse per test session, settings that never touch the network."""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from uuid import uuid4

import hypothesis
import pytest
import redis
from redis.asyncio import Redis

from agent.settings import Settings, load_settings
from agent.warehouse import Warehouse, open_warehouse
from agent.warehouse.demo import demo_path, ensure_demo_warehouse

# Property tests explore the same examples on every run (a CI failure can be replayed) and never
# fail for taking long on a loaded machine; `pytest --hypothesis-profile=default` explores new examples.
hypothesis.settings.register_profile("repeatable", derandomize=True, deadline=None)
hypothesis.settings.load_profile("repeatable")


def pytest_configure(config: pytest.Config) -> None:
    """Where bytecode may not be written (PYTHONDONTWRITEBYTECODE, as on CI, whose venv is installed
    with --no-compile), every Python process a run starts, each xdist worker and each command line or
    bot a test starts, compiled the same modules again: a `python -m agent ask` took 4.9 CPU-s instead
    of 1.8. The run keeps what they compile in a folder of its own, outside the source tree, removed at
    the end; the processes started after this (workers, tests' subprocesses) share it."""
    if not sys.flags.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX") or hasattr(config, "workerinput"):
        return
    folder = tempfile.mkdtemp(prefix="sda-test-bytecode-")
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files whose tests start real processes run first, those starting the most first: each such file
    is a long piece of work for one xdist worker (--dist loadfile), and started last it would be the
    run's tail while the other worker sits idle; the many quick files then fill in behind. Within a
    file the order stays as written. (The config turns off xdist's own reordering, which puts files
    with the fewest tests, these, last.)"""
    starts = Counter(item.path for item in items if item.get_closest_marker("subprocess"))
    items.sort(key=lambda item: -starts[item.path])


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory):
    """This process's data folder, the demo warehouse already in it. Under xdist the demo is built once
    per run and each worker gets its own copy (building it costs seconds of CPU; copying, none)."""
    folder = tmp_path_factory.mktemp("data")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shutil.copyfile(_demo_built_once(tmp_path_factory.getbasetemp().parent), demo_path(folder))
    return folder


def _demo_built_once(run_dir: Path) -> Path:
    """The demo warehouse in this run's folder (the workers' base temps sit in it), built by whichever
    worker comes first while the others wait on the lock; the build itself renames a finished file
    into place, so a file that exists is whole."""
    with open(run_dir / "demo-warehouse.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return ensure_demo_warehouse(run_dir / "demo-warehouse")


@pytest.fixture(scope="session")
def settings(data_dir) -> Settings:
    # Explicit values so a developer's .env or environment cannot leak into the tests.
    return load_settings(
        _env_file=None,
        data_dir=data_dir,
        openai_api_key=None,
        openai_base_url=None,
        redis_url=None,
        warehouse_url=None,
    )


@pytest.fixture(scope="session")
def warehouse(settings) -> Warehouse:
    wh = open_warehouse(settings)
    yield wh
    wh.close()


REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The shared Redis on 127.0.0.1:6379; tests never flush it, they work under their own prefix."""
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
async def redis_prefix(redis_client):
    """A fresh key prefix for one test; its keys are deleted afterwards."""
    prefix = f"sda:test:{uuid4().hex}:"
    yield prefix
    leftovers = [key async for key in redis_client.scan_iter(match=f"{prefix}*", count=1000)]
    if leftovers:
        await redis_client.delete(*leftovers)
