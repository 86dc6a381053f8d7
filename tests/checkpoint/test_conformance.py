"""The official langgraph-checkpoint-conformance suite, one pytest case per capability."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.capabilities import Capability

from checkpoint_redis import AsyncRedisSaver


@pytest.mark.parametrize("capability", [c.value for c in Capability])
async def test_conformance(capability, redis_client, key_prefix):
    @checkpointer_test(name="AsyncRedisSaver")
    async def saver_factory():
        yield AsyncRedisSaver(redis_client, prefix=key_prefix, ttl_seconds=3600)

    report = await validate(saver_factory, capabilities={capability})

    result = report.results[capability]
    assert result.detected, f"{capability} is not implemented"
    assert result.passed, "\n".join(result.failures)
    assert result.tests_failed == 0 and result.tests_passed > 0
    print(f"{capability}: {result.tests_passed} passed, {result.tests_failed} failed")
