"""Tests that start processes leave none behind, even when their set-up fails."""

from __future__ import annotations

import aiohttp
import pytest

from tests.durability import replicas
from tests.durability.replicas import GatedSlack

pytestmark = pytest.mark.subprocess


async def test_a_replica_whose_start_up_fails_is_not_left_behind(monkeypatch, settings, tmp_path):
    started: list[replicas.Replica] = []
    real_start = replicas.start_replica

    async def recording_start(*args, **kwargs):
        started.append(await real_start(*args, **kwargs))
        return started[-1]

    async def never_ready(self):
        raise AssertionError(f"replica {self.name} did not start")

    monkeypatch.setattr(replicas, "start_replica", recording_start)
    monkeypatch.setattr(replicas.Replica, "wait_ready", never_ready)
    slack = await GatedSlack().start()
    try:
        async with aiohttp.ClientSession() as session:
            with pytest.raises(AssertionError, match="did not start"):
                async with replicas.replicas_running(
                    ["doomed"], slack_api_url=slack.api_url, redis_url="redis://127.0.0.1:9/0",
                    data_dir=settings.data_dir, cwd=tmp_path, session=session,
                ):
                    pytest.fail("a replica that never became ready was handed to the test")
    finally:
        await slack.close()
    assert len(started) == 1 and started[0].process.returncode is not None
