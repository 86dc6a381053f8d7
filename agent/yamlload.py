"""YAML read through libyaml when PyYAML was built with it: start-up reads the catalog, the semantic
model and the vocabulary, and the pure-Python parser spends most of a second on them."""

from __future__ import annotations

from typing import Any

import yaml

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader, only faster
