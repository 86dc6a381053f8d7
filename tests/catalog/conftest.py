"""The shipped catalog, loaded once, and its raw YAML for tests that break a copy of it."""

from __future__ import annotations

import copy

import pytest
import yaml

from agent.catalog import DEFAULT_CATALOG, Catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog.load(DEFAULT_CATALOG)


@pytest.fixture(scope="session")
def _raw_catalog() -> dict:
    return yaml.safe_load(DEFAULT_CATALOG.read_text(encoding="utf-8"))


@pytest.fixture
def raw_catalog(_raw_catalog) -> dict:
    """A private deep copy a test may break."""
    return copy.deepcopy(_raw_catalog)
