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
import time
from pathlib import Path
from typing import Any

import yaml

from agent.catalog.catalog import Catalog
from agent.catalog.loader import CatalogError, parse_catalog_data
from agent.errors import QueryTimeoutError
from agent.sql.names import edit_distance
from agent.warehouse import Schema, Warehouse, WarehouseUnavailableError

log = logging.getLogger(__name__)

_TEXT_TYPES = re.compile(r"char|text|string|varchar|enum|citext", re.IGNORECASE)
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
VALUES_MAX = 50  # a text column with at most this many distinct values lists them
VALUES_MAX_COLUMNS = 200  # at start-up; the rest in the background; `catalog init` reads them all
VALUES_BACKGROUND_MAX = 20_000  # columns read after start-up, one at a time, at most
# The catalog is rebuilt (a second or more on a 1,000-table warehouse) at most this often while the
# background reads, and once at the end.
REBUILD_AFTER_S = 30.0
_CHUNK = 100  # background columns read between two looks at the clock
SHORT_TEXT = 64  # a declared length up to this reads as a code, status or name, not free text
_LENGTH = re.compile(r"\((\d+)\)")
_ENUM = re.compile(r"enum|^char\b|^character\b", re.IGNORECASE)
VALUE_MAX_LENGTH = 80


def is_text(type_name: str) -> bool:
    return bool(_TEXT_TYPES.search(type_name))


def value_targets(schema: Schema) -> list[tuple[str, str]]:
    """Every text column, the most telling first: each table's first text column before any
    table's second (so every table gets some before a wide one gets all), short declared types
    (codes, statuses, names: `varchar(20)`, enums) before long free text within a table, and
    small tables (cheap to read, often the lookups people name) first among equals."""
    ranked = []
    for table, columns in schema.tables.items():
        texts = sorted((c for c in columns if is_text(c.type)), key=lambda c: not _short(c.type))
        info = schema.info.get(table)
        size = info.row_estimate if info and info.row_estimate is not None else 0
        ranked += [((rank, not _short(c.type), size), (table, c.name)) for rank, c in enumerate(texts)]
    ranked.sort(key=lambda item: item[0])
    return [target for _, target in ranked]


def _short(type_name: str) -> bool:
    length = _LENGTH.search(type_name)
    return bool(_ENUM.search(type_name)) or (length is not None and int(length.group(1)) <= SHORT_TEXT)


def read_values(warehouse: Warehouse, schema: Schema, *, max_columns: int | None = VALUES_MAX_COLUMNS,
                targets: list[tuple[str, str]] | None = None,
                stop: threading.Event | None = None) -> dict[tuple[str, str], list[str]]:
    """Distinct values of low-cardinality text columns (sampled on big tables), bounded."""
    if targets is None:
        targets = value_targets(schema)
        if max_columns is not None and len(targets) > max_columns:
            log.info("reading values of the first %d of %d text columns", max_columns, len(targets))
            targets = targets[:max_columns]
    found: dict[tuple[str, str], list[str]] = {}
    for done, (table, column) in enumerate(targets, 1):
        if stop is not None and stop.is_set():
            break
        try:
            values = warehouse.distinct_values(table, column, limit=VALUES_MAX + 1)
        except QueryTimeoutError as exc:  # a warehouse that did not answer one read will not answer the next
            log.warning("stopped reading column values after %d of %d columns: %s", done - 1, len(targets),
                        exc.user_message)
            break
        except WarehouseUnavailableError:
            raise
        except Exception as exc:  # noqa: BLE001 - one unreadable column must not stop the rest
            log.info("values of %s.%s not read: %s", table, column, getattr(exc, "user_message", exc))
            continue
        texts = [str(v) for v in values]
        if len(texts) <= VALUES_MAX and all(len(v) <= VALUE_MAX_LENGTH for v in texts):
            found[(table, column)] = sorted(texts)
        if done % 50 == 0:
            log.info("read values of %d/%d text columns", done, len(targets))
    return found


def catalog_dict(schema: Schema, *, name: str, values: dict[tuple[str, str], list[str]] | None = None) -> dict[str, Any]:
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
        raise CatalogError(no_tables_sentence(schema))
    return {"version": 1, "name": name, "summary": f"{len(tables)} tables in {name}", "tables": tables}


def no_tables_sentence(schema: Schema) -> str:
    """Why nothing was read, with the schemas that were seen and the setting that picks them."""
    seen = ", ".join(schema.seen_schemas)
    where = f"it sees the schemas {seen}" if seen else "it sees no schema at all"
    return (f"The bot's warehouse account cannot read any table ({where}); grant it SELECT on the tables to "
            "use, or name the schemas to read in WAREHOUSE_SCHEMAS (comma-separated).")


def overlay(base: dict[str, Any], path: Path, schema: Schema) -> dict[str, Any]:
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
    return _catalog_of(warehouse, schema, values, catalog_path)


def _catalog_of(
    warehouse: Warehouse, schema: Schema, values: dict[tuple[str, str], list[str]], catalog_path: Path | None
) -> Catalog:
    raw = catalog_dict(schema, name=warehouse.describe(), values=values)
    source = "introspected from the warehouse"
    if catalog_path is not None:
        raw = overlay(raw, Path(catalog_path), schema)
        source = str(catalog_path)
    return Catalog(parse_catalog_data(raw, source=source))


class LiveCatalog:
    """The live warehouse's catalog, complete in the background.

    Built from the values of the most telling text columns (`value_targets`, at most
    `start_columns`) so start-up stays quick on a wide warehouse; a daemon thread then reads
    the rest, one column at a time and at most `background_columns`, logging its progress, and
    swaps in a rebuilt catalog every `REBUILD_AFTER_S` seconds and at the end (`version` counts
    the swaps, so views built from it can tell they are stale). With `eager=False` (a warehouse
    down at start-up) the catalog is built on first use instead, each use until the warehouse
    answers getting its own sentence.
    """

    def __init__(self, warehouse: Warehouse, catalog_path: Path | None, *, eager: bool = True,
                 start_columns: int = VALUES_MAX_COLUMNS, background_columns: int = VALUES_BACKGROUND_MAX):
        self._warehouse = warehouse
        self._path = catalog_path
        self._start_columns = start_columns
        self._background_columns = background_columns
        self._catalog: Catalog | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.completion: threading.Thread | None = None
        self.version = 0
        if eager:
            self._catalog = self._first()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.current(), name)

    def current(self) -> Catalog:
        with self._lock:
            if self._catalog is None:
                self._catalog = self._first()
            return self._catalog

    def close(self) -> None:
        """Stop the background reading (it ends after the column in progress)."""
        self._stop.set()

    def _first(self) -> Catalog:
        schema = self._warehouse.schema()
        targets = value_targets(schema)
        now, later = targets[: self._start_columns], targets[self._start_columns:]
        values = read_values(self._warehouse, schema, targets=now)
        catalog = _catalog_of(self._warehouse, schema, values, self._path)
        if later and not self._stop.is_set():
            if len(later) > self._background_columns:
                log.info("values of %d text columns will not be read (the first %d are); run `python -m agent "
                         "catalog init` for all", len(later) - self._background_columns,
                         self._start_columns + self._background_columns)
                later = later[: self._background_columns]
            log.info("read values of %d text columns; reading the other %d in the background", len(now), len(later))
            self.completion = threading.Thread(target=self._complete, args=(schema, values, later),
                                               name="catalog-values", daemon=True)
            self.completion.start()
        return catalog

    def _complete(self, schema: Schema, values: dict[tuple[str, str], list[str]], later: list[tuple[str, str]]) -> None:
        started = swapped = time.monotonic()
        try:
            for offset in range(0, len(later), _CHUNK):
                values = {**values, **read_values(self._warehouse, schema, targets=later[offset: offset + _CHUNK],
                                                  stop=self._stop)}
                if self._stop.is_set():
                    return
                done = min(offset + _CHUNK, len(later))
                if done < len(later) and time.monotonic() - swapped < REBUILD_AFTER_S:
                    continue
                catalog = _catalog_of(self._warehouse, schema, values, self._path)
                with self._lock:
                    self._catalog, self.version = catalog, self.version + 1
                swapped = time.monotonic()
                log.info("catalog values: %d/%d background columns read (%.0f s)", done, len(later),
                         swapped - started)
        except Exception as exc:  # noqa: BLE001 - the start-up catalog stays; the reason is logged
            log.warning("catalog values: background reading stopped: %s", getattr(exc, "user_message", exc))


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"CATALOG_PATH {path} could not be read: {exc.strerror}.") from None


def _key_lines(node: yaml.Node | None, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], int]:
    """(key path) -> 1-based line, for every mapping key in a composed YAML document."""
    lines: dict[tuple[str, ...], int] = {}
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


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged
