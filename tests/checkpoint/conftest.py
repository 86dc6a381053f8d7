"""The checkpointer's tests use the shared Redis fixtures (tests/conftest.py) under this name."""

import pytest


@pytest.fixture
def key_prefix(redis_prefix):
    return redis_prefix
