"""Read and validate a catalog YAML file; a bad file fails with a message naming the entry."""

from __future__ import annotations

from pathlib import Path

from typing import Any

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from agent.catalog.models import CatalogData
from agent.errors import AssistantError
from agent.yamlload import safe_load

DEFAULT_CATALOG = Path(__file__).with_name("catalog.yaml")


class CatalogError(AssistantError):
    """The catalog file cannot be read or does not describe a valid catalog."""

    code = "catalog"


def load_catalog_data(path: Path | str = DEFAULT_CATALOG) -> CatalogData:
    path = Path(path)
    try:
        raw = safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CatalogError(f"The catalog file {path} could not be read: {exc.strerror}.") from exc
    except yaml.YAMLError as exc:
        where = ""
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            where = f" at line {mark.line + 1}, column {mark.column + 1}"
        problem = getattr(exc, "problem", None) or str(exc)
        raise CatalogError(f"The catalog file {path} is not valid YAML{where}: {problem}.") from exc
    if not isinstance(raw, dict):
        raise CatalogError(f"The catalog file {path} should hold a mapping with a 'tables' section.")
    return parse_catalog_data(raw, source=str(path))


def parse_catalog_data(raw: dict[str, Any], *, source: str = "catalog") -> CatalogData:
    try:
        return CatalogData.model_validate(raw)
    except ValidationError as exc:
        problems = [_describe(error, raw) for error in exc.errors()]
        raise CatalogError(
            f"The catalog {source} has {len(problems)} problem(s): " + "; ".join(problems),
            detail=str(exc),
        ) from None


def _describe(error: ErrorDetails, raw: dict[str, Any]) -> str:
    """One pydantic error as 'where: what', where list entries are named by their question or id."""
    parts: list[str] = []
    node: Any = raw  # where the walk is in the raw YAML: a mapping, a list, a value or nothing
    for part in error["loc"]:
        if isinstance(part, int):
            label = ""
            entry = node[part] if isinstance(node, list) and part < len(node) else None
            if isinstance(entry, dict):
                label = next((str(entry[k]) for k in ("question", "id", "name", "term") if k in entry), "")
            parts[-1:] = [f"{parts[-1] if parts else ''}[{part}]" + (f" ({label!r})" if label else "")]
            node = entry
        else:
            parts.append(str(part))
            node = node.get(part) if isinstance(node, dict) else None
    message = error["msg"].removeprefix("Value error, ")
    return f"{'.'.join(parts)}: {message}" if parts else message
