"""`python -m agent catalog init|check|refresh`: write, validate and re-read the catalog and
the bootstrapped semantic model of the warehouse WAREHOUSE_URL names."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import sqlglot
import yaml
from sqlglot import exp

from agent.catalog.bootstrap_dbt import NUMERIC, bootstrap, net_words, write_project
from agent.catalog.evidence import read_evidence
from agent.catalog.introspected import catalog_dict, no_tables_sentence, overlay, read_values
from agent.catalog.loader import CatalogError, parse_catalog_data
from agent.errors import AssistantError, QueryTimeoutError
from agent.settings import Settings
from agent.warehouse import Schema, Warehouse, open_warehouse
from agent.warehouse.base import quote

log = logging.getLogger(__name__)

CATALOG_FILE = "catalog.yaml"
SEMANTIC_DIR = "semantic"


def init(settings: Settings, out: Path) -> list[str]:
    """Write DIR/catalog.yaml and DIR/semantic/models/*.yml from the live schema."""
    warehouse = open_warehouse(settings)
    try:
        started = time.perf_counter()
        schema = warehouse.refresh()
        values = read_values(warehouse, schema, max_columns=None)
        out.mkdir(parents=True, exist_ok=True)
        raw = catalog_dict(schema, name=warehouse.describe(), values=values)
        parse_catalog_data(raw, source="the bootstrapped catalog")  # what we write must load
        header = "# Bootstrapped from the warehouse by `python -m agent catalog init`; edit descriptions freely.\n"
        (out / CATALOG_FILE).write_text(header + yaml.safe_dump(raw, sort_keys=False, allow_unicode=True), encoding="utf-8")
        document = bootstrap_document(warehouse, schema, settings)
        written = write_project(document, out / SEMANTIC_DIR)
        return [
            f"Read {len(schema.tables)} tables from {warehouse.describe()} in {time.perf_counter() - started:.1f} s.",
            f"Wrote {out / CATALOG_FILE} and {', '.join(str(p) for p in written)} "
            f"({len(document['semantic_models'])} semantic models, {len(document['metrics'])} metrics).",
            f"Use them with CATALOG_PATH={out / CATALOG_FILE} SEMANTIC_MODEL_PATH={out / SEMANTIC_DIR}.",
        ]
    finally:
        warehouse.close()


def bootstrap_document(warehouse: Warehouse, schema: Schema, settings: Settings) -> dict[str, Any]:
    """The dbt semantic model of `schema`, the same for `catalog init` and for start-up with no
    SEMANTIC_MODEL_PATH (so a team that never runs init gets the same answers)."""
    return bootstrap(schema, dialect=warehouse.dialect, default_schema=_default_schema(schema, settings),
                     fractions=_fraction_columns(warehouse, schema), evidence=read_evidence(warehouse, schema))


def _fraction_columns(warehouse: Warehouse, schema: Schema) -> frozenset[tuple[str, str]]:
    """Numeric columns named like a deduction whose values all lie in 0..1 (a discount rate, not an
    amount): the bootstrap takes them off as `price * (1 - discount)`. One small query per candidate."""
    words = net_words().get("deductions", [])
    found: set[tuple[str, str]] = set()
    for table, columns in schema.tables.items():
        for column in columns:
            if not (NUMERIC.search(column.type) and any(w in column.name.lower() for w in words)):
                continue
            sql = (f"SELECT min({quote(column.name, warehouse.dialect)}), max({quote(column.name, warehouse.dialect)}) "
                   f"FROM {schema.reference(table, warehouse.dialect)}")
            try:
                # a start-up read: on a warehouse slot, abandoned past a query's budget
                low, high = warehouse.slots.call_blocking(warehouse.run, sql, budget_s=warehouse.budget_s()).rows[0]
            except QueryTimeoutError as exc:  # a warehouse that did not answer one read will not answer the next
                log.warning("stopped reading column ranges: %s", exc.user_message)
                return frozenset(found)
            except Exception as exc:  # noqa: BLE001 - an unreadable column is taken as an amount
                log.info("range of %s.%s not read: %s", table, column.name, getattr(exc, "user_message", exc))
                continue
            if low is not None and high is not None and 0 <= float(low) and float(high) <= 1:
                found.add((table, column.name))
    return frozenset(found)


def check(settings: Settings, folder: Path | None) -> tuple[list[str], str]:
    """(problems, summary) between the live warehouse and DIR's files, or without DIR the model the bot
    would start with (SEMANTIC_MODEL_PATH, else one bootstrapped now); every metric is compiled and
    dry-run, so the check cannot pass while a question could not be answered. [] when they agree."""
    from agent.catalog.compile_check import STARTUP_BUDGET_S, check_metrics
    from agent.semantic.model.layer import load_layer

    warehouse = open_warehouse(settings)
    try:
        schema = warehouse.refresh()
        problems: list[str] = []
        if folder is not None:
            catalog_file = folder / CATALOG_FILE
            if catalog_file.exists():
                try:
                    merged = overlay(catalog_dict(schema, name=warehouse.describe()), catalog_file, schema)
                    parse_catalog_data(merged, source=str(catalog_file))
                except CatalogError as exc:
                    problems.append(exc.user_message)
            semantic_dir = folder / SEMANTIC_DIR
        else:
            if not schema.tables:
                return [no_tables_sentence(schema)], ""
            semantic_dir = settings.semantic_model_path or semantic_dir_for(settings, warehouse)
            if settings.semantic_model_path is None:
                write_project(bootstrap_document(warehouse, schema, settings), semantic_dir)
        semantic_dir = Path(semantic_dir)
        problems.extend(check_semantic(semantic_dir, schema, warehouse.dialect))
        if not any(semantic_dir.rglob("*.yml")):
            return problems, f"{len(schema.tables)} tables; no semantic model in {semantic_dir}."
        try:
            model = load_layer(semantic_dir, dialect=warehouse.dialect)
        except AssistantError as exc:
            return problems + [exc.user_message], ""
        report = check_metrics(model, warehouse, budget_s=STARTUP_BUDGET_S, root=semantic_dir)
        problems.extend(report.failures)
        return problems, f"{len(schema.tables)} tables; {report.summary()}"
    finally:
        warehouse.close()


def refresh(settings: Settings, folder: Path | None) -> list[str]:
    """Re-read the schema; with DIR, say what changed since its catalog was written."""
    warehouse = open_warehouse(settings)
    try:
        schema = warehouse.refresh()
        lines = [f"{len(schema.tables)} tables in {warehouse.describe()}."]
        catalog_file = folder / CATALOG_FILE if folder else None
        if catalog_file and catalog_file.exists():
            written = (yaml.safe_load(catalog_file.read_text(encoding="utf-8")) or {}).get("tables") or {}
            for table in sorted(set(schema.tables) - set(written)):
                lines.append(f"new table: {table}")
            for table in sorted(set(written) - set(schema.tables)):
                lines.append(f"table gone: {table}")
            for table in sorted(set(written) & set(schema.tables)):
                live = {c.name for c in schema.tables[table]}
                documented = set((written[table] or {}).get("columns") or {})
                lines += [f"new column: {table}.{c}" for c in sorted(live - documented)]
                lines += [f"column gone: {table}.{c}" for c in sorted(documented - live)]
        return lines
    finally:
        warehouse.close()


def check_semantic(folder: Path, schema: Schema, dialect: str) -> list[str]:
    """Every table and column the dbt semantic models name must exist in the warehouse."""
    problems = []
    by_name = {info.name.lower(): key for key, info in schema.info.items()}
    for path in sorted(folder.rglob("*.yml")) if folder.exists() else []:
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for model in document.get("semantic_models") or []:
            table = _table_of(model)
            key = by_name.get(table.lower()) if table else None
            if key is None:
                problems.append(f"{path}: semantic model '{model.get('name')}' reads table '{table}', which the warehouse does not have")
                continue
            real = {c.name.lower() for c in schema.tables[key]}
            for section in ("entities", "dimensions", "measures"):
                for element in model.get(section) or []:
                    text = str(element.get("expr") or element.get("name"))
                    for column in _columns(text, dialect):
                        if column.lower() not in real:
                            problems.append(f"{path}: {model['name']}.{element.get('name')} reads column '{column}', "
                                            f"which table {table} does not have")
    return problems


def _table_of(model: dict[str, Any]) -> str | None:
    if "node_relation" in model:
        return (model["node_relation"] or {}).get("alias")
    found = re_ref(str(model.get("model", "")))
    return found


def re_ref(text: str) -> str | None:
    import re

    match = re.search(r"ref\(\s*['\"]([^'\"]+)['\"]\s*\)", text)
    return match.group(1) if match else None


def _columns(text: str, dialect: str) -> set[str]:
    try:
        tree = sqlglot.parse_one(text, read=dialect)
    except sqlglot.errors.ParseError:
        return set()
    # a column qualified by an entity ('pizza.price') is read from the row this one points at
    return {c.name for c in tree.find_all(exp.Column) if not c.table}


def _default_schema(schema: Schema, settings: Settings) -> str | None:
    configured = settings.warehouse_schema_list
    if configured:
        return configured[0]
    plain = [info.schema for key, info in schema.info.items() if "." not in key]
    return plain[0] if plain else None


def semantic_dir_for(settings: Settings, warehouse: Warehouse) -> Path:
    """Where the bootstrapped semantic model of a non-demo warehouse is written at start-up."""
    return Path(settings.data_dir) / "bootstrap" / SEMANTIC_DIR
