"""Fixtures for the semantic path: the shipped model and the demo warehouse's values."""

from __future__ import annotations

import pytest

from agent.semantic.model.layer import load_layer
from agent.semantic.model.values import ValueIndex


@pytest.fixture(scope="session")
def model():
    return load_layer()


@pytest.fixture(scope="session")
def values(warehouse, model):
    return ValueIndex.from_warehouse(warehouse, model)


@pytest.fixture(scope="session")
def ask(model, values):
    from agent.semantic.nlq.extract import extract_intent

    return lambda question: extract_intent(question, model, values)
