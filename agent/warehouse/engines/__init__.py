"""Every server engine, one module each: the registry finds the `ServerEngine` subclasses defined in
this package's modules (importing them loads no driver)."""

from __future__ import annotations

import importlib
import pkgutil

from agent.warehouse.engines.base import ServerEngine, SessionLimits


def _discover() -> dict[str, ServerEngine]:
    found: dict[str, ServerEngine] = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name == "base":
            continue
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        for value in vars(loaded).values():
            if isinstance(value, type) and issubclass(value, ServerEngine) and value.key and value.__module__ == loaded.__name__:
                found[value.key] = value()
    return dict(sorted(found.items()))


ENGINES: dict[str, ServerEngine] = _discover()
SCHEMES: dict[str, str] = {scheme: engine.key for engine in ENGINES.values() for scheme in engine.schemes}

__all__ = ["ENGINES", "SCHEMES", "ServerEngine", "SessionLimits"]
