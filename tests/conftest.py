"""Shared fixtures: one demo warehouse per test session, settings that never touch the network."""

from __future__ import annotations

import pytest

from agent.settings import Settings, load_settings
from agent.warehouse import Warehouse


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="session")
def settings(data_dir) -> Settings:
    # Explicit values so a developer's .env or environment cannot leak into the tests.
    return load_settings(
        _env_file=None,
        data_dir=data_dir,
        openai_api_key=None,
        openai_base_url=None,
        slack_bot_token=None,
        slack_app_token=None,
        slack_signing_secret=None,
        redis_url=None,
        warehouse_url=None,
    )


@pytest.fixture(scope="session")
def warehouse(settings) -> Warehouse:
    wh = Warehouse.from_settings(settings)
    yield wh
    wh.close()
