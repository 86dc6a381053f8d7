"""A catalog built from the live warehouse, with the team's YAML (CATALOG_PATH) laid on top.

Introspection gives names, types, comments, keys and row counts; the team's file adds
meaning (descriptions, aliases, glossary, examples, docs). The team's file is checked
against the live schema and every table or column it names that the warehouse does not
have is reported with the file and line, so a rename is found at start-up, not in a reply.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from agent.catalog.catalog import Catalog
from agent.catalog.loader import CatalogError, parse_catalog_data
from agent.errors import QueryTimeoutError
from agent.sql.names import edit_distance
from agent.warehouse import Schema, Warehouse

log = logging.getLogger(__name__)

_TEXT_TYPES = re.compile(r"char|text|string|varchar|enum|citext", re.IGNORECASE)
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
VALUES_MAX = 50  # a text column with at most this many distinct values lists them
VALUES_MAX_COLUMNS = 200  # at start-up; `catalog init` reads them all
VALUE_MAX_LENGTH = 80


def is_text(type_name: str) -> bool:
    return bool(_TEXT_TYPES.search(type_name))


def read_values(warehouse: Warehouse, schema: Schema, *, max_columns: int | None = VALUES_MAX_COLUMNS) -> dict[tuple[str, str], list[str]]:
    """Distinct values of low-cardinality text columns (sampled on big tables), bounded."""
    targets = [(t, c.name) for t, cols in schema.tables.items() for c in cols if is_text(c.type)]
    if max_columns is not None and len(targets) > max_columns:
        log.info("reading values of the first %d of %d text columns (run `python -m agent catalog init` "
                 "for all)", max_columns, len(targets))
        targets = targets[:max_columns]
    found: dict[tuple[str, str], list[str]] = {}
    for done, (table, column) in enumerate(targets, 1):
        try:
            values = warehouse.distinct_values(table, column, limit=VALUES_MAX + 1)
        except QueryTimeoutError as exc:  # a warehouse that did not answer one read will not answer the next
            log.warning("stopped reading column values after %d of %d columns: %s", done - 1, len(targets),
                        exc.user_message)
            break
        except Exception as exc:  # noqa: BLE001 - one unreadable column must not stop the rest
            log.info("values of %s.%s not read: %s", table, column, getattr(exc, "user_message", exc))
            continue
        texts = [str(v) for v in values]
        if len(texts) <= VALUES_MAX and all(len(v) <= VALUE_MAX_LENGTH for v in texts):
            found[(table, column)] = sorted(texts)
        if done % 50 == 0:
            log.info("read values of %d/%d text columns", done, len(targets))
    return found


def catalog_dict(schema: Schema, *, name: str, values: dict[tuple[str, str], list[str]] | None = None) -> dict:
    """The introspected schema in the catalog YAML's shape."""
    values = values or {}
    tables: dict[str, Any] = {}
    for key, columns in schema.tables.items():
        if not columns:
            continue
        info = schema.info.get(key)
        words = key.replace("_", " ")
        description = (info.comment if info and info.comment else f"The {words} table")
        if info and info.row_estimate:
            description += f" (about {info.row_estimate:,} rows)"
        entry: dict[str, Any] = {"description": description, "columns": {}}
        if info and info.primary_key:
            entry["grain"] = f"one row per {', '.join(info.primary_key)}"
        for column in columns:
            doc: dict[str, Any] = {
                "type": column.type,
                "description": column.comment or f"{column.name.replace('_', ' ')} ({column.type})",
            }
            if (key, column.name) in values:
                doc["values"] = values[(key, column.name)]
            entry["columns"][column.name] = doc
        joins = []
        for fk in info.foreign_keys if info else []:
            names = [key, fk.table, *fk.columns, *fk.ref_columns]
            if fk.table in schema.tables and all(_PLAIN.match(n) for n in names):
                on = " AND ".join(f"{key}.{a} = {fk.table}.{b}" for a, b in zip(fk.columns, fk.ref_columns))
                joins.append({"table": fk.table, "on": on})
        if joins:
            entry["joins"] = joins
        tables[key] = entry
    if not tables:
        raise CatalogError(
            "The warehouse has no tables in the configured schemas; check WAREHOUSE_SCHEMAS and the "
            "bot's permissions."
        )
    return {"version": 1, "name": name, "summary": f"{len(tables)} tables in {name}", "tables": tables}


def overlay(base: dict, path: Path, schema: Schema) -> dict:
    """The team's catalog file laid over the introspected one, checked against the live schema."""
    text = _read(path)
    try:
        team = yaml.safe_load(text) or {}
        lines = _key_lines(yaml.compose(text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise CatalogError(f"CATALOG_PATH {path}{where} is not valid YAML: {getattr(exc, 'problem', exc)}.") from None
    if not isinstance(team, dict):
        raise CatalogError(f"CATALOG_PATH {path} should hold a mapping with a 'tables' section.")
    problems = []
    for table, entry in (team.get("tables") or {}).items():
        key = str(table).lower()
        if key not in schema.tables:
            problems.append(_problem(path, lines.get(("tables", table)), f"table '{table}' is not in the warehouse",
                                     str(table), list(schema.tables)))
            continue
        real = [c.name for c in schema.tables[key]]
        for column in ((entry or {}).get("columns") or {}):
            if column not in real:
                problems.append(_problem(path, lines.get(("tables", table, "columns", column)),
                                         f"column '{table}.{column}' is not in the warehouse", str(column), real))
    if problems:
        raise CatalogError(f"The catalog file {path} disagrees with the warehouse: " + "; ".join(problems))
    merged = _merge(base, {k: v for k, v in team.items() if k != "tables"})
    for table, entry in (team.get("tables") or {}).items():
        key = str(table).lower()
        merged["tables"][key] = _merge(merged["tables"][key], entry or {})
    return merged


def build_catalog(warehouse: Warehouse, catalog_path: Path | None, *, with_values: bool = True) -> Catalog:
    """The live catalog: introspected (plus sampled values), with CATALOG_PATH on top."""
    schema = warehouse.schema()
    values = read_values(warehouse, schema) if with_values else {}
    raw = catalog_dict(schema, name=warehouse.describe(), values=values)
    source = "introspected from the warehouse"
    if catalog_path is not None:
        raw = overlay(raw, Path(catalog_path), schema)
        source = str(catalog_path)
    return Catalog(parse_catalog_data(raw, source=source))


class LazyCatalog:
    """A catalog built on first use: a warehouse that is down at start-up does not stop the bot;
    each use until it answers gets the warehouse's own sentence, then the catalog is built."""

    def __init__(self, build: Callable[[], Catalog]):
        self._build = build
        self._catalog: Catalog | None = None
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        with self._lock:
            if self._catalog is None:
                self._catalog = self._build()
        return getattr(self._catalog, name)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"CATALOG_PATH {path} could not be read: {exc.strerror}.") from None


def _key_lines(node, prefix: tuple = ()) -> dict[tuple, int]:
    """(key path) -> 1-based line, for every mapping key in a composed YAML document."""
    lines: dict[tuple, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            path = prefix + (key_node.value,)
            lines[path] = key_node.start_mark.line + 1
            lines.update(_key_lines(value_node, path))
    return lines


def _problem(path: Path, line: int | None, message: str, name: str, candidates: list[str]) -> str:
    where = f"{path}:{line}" if line else str(path)
    closest = min(candidates, key=lambda c: edit_distance(name.lower(), c.lower()), default=None)
    hint = f" (closest: {closest})" if closest and edit_distance(name.lower(), closest.lower()) <= 3 else ""
    return f"{where}: {message}{hint}"


def _merge(base: dict, top: dict) -> dict:
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged
