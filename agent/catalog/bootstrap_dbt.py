"""A first semantic model for a warehouse nobody has modelled yet, written as standard dbt
Semantic Layer (MetricFlow) YAML so people can edit it and dbt tools can read it.

Per table: a semantic model with entities from the primary and foreign keys, categorical
dimensions from text and boolean columns, time dimensions from date and timestamp columns,
measures (a row count; sum and average of each numeric column that is not a key), and one
simple metric per measure. Only fields of the public spec are written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from agent.warehouse import Schema
from agent.warehouse.base import quote

_NUMERIC = re.compile(r"int|numeric|decimal|double|float|real|number|money|bigint|smallint|tinyint", re.IGNORECASE)
_TIME = re.compile(r"date|timestamp|datetime", re.IGNORECASE)
_CATEGORICAL = re.compile(r"char|text|string|varchar|enum|bool", re.IGNORECASE)
_KEYISH = re.compile(r"(^id$|_id$|_key$|^key$|_code$|_sk$)", re.IGNORECASE)


def slug(name: str) -> str:
    """A dbt name: lower-case letters, digits and single underscores."""
    text = re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")
    text = re.sub(r"_+", "_", text)
    return text if text and not text[0].isdigit() else f"c_{text}"


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def bootstrap(schema: Schema, *, dialect: str, default_schema: str | None = None) -> dict[str, Any]:
    """The dbt YAML document (`semantic_models:` and `metrics:`) for every table in `schema`."""
    entity_of = {key: singular(slug(info.name)) for key, info in schema.info.items() if len(info.primary_key) == 1}
    models, metrics = [], []
    used_names: set[str] = set()
    for key, columns in schema.tables.items():
        info = schema.info.get(key)
        if info is None or not columns:
            continue
        model_name = slug(key)
        model: dict[str, Any] = {"name": model_name, "description": info.comment or f"Bootstrapped from {key}."}
        plain = info.name == info.name.lower() and re.fullmatch(r"[a-z_][a-z0-9_]*", info.name)
        if plain and (default_schema is None or info.schema == default_schema):
            model["model"] = f"ref('{info.name}')"
        else:
            model["node_relation"] = {"schema_name": info.schema, "alias": info.name}
        keys = set(info.primary_key)
        entities = []
        if key in entity_of:
            entities.append({"name": entity_of[key], "type": "primary", "expr": _expr(info.primary_key[0], dialect)})
        for fk in info.foreign_keys:
            keys.update(fk.columns)
            target = entity_of.get(fk.table)
            if target and len(fk.columns) == 1 and target not in {e["name"] for e in entities}:
                entities.append({"name": target, "type": "foreign", "expr": _expr(fk.columns[0], dialect)})
        dimensions, measures = [], []
        taken = {e["name"] for e in entities}
        for column in columns:
            name = slug(column.name)
            if name in taken:
                continue
            if _TIME.search(column.type):
                dimensions.append(_named(name, column.name, dialect, type="time",
                                         type_params={"time_granularity": "day"}))
                taken.add(name)
            elif _CATEGORICAL.search(column.type) and column.name not in keys:
                dimensions.append(_named(name, column.name, dialect, type="categorical"))
                taken.add(name)
        count_name = _unique(f"{model_name}_count", used_names)
        count_expr = _expr(info.primary_key[0], dialect) if len(info.primary_key) == 1 else "1"
        count = {"name": count_name, "description": f"Number of {key} rows", "agg": "count" if count_expr != "1" else "sum",
                 "expr": count_expr}
        measures.append(count)
        for column in columns:
            if not _NUMERIC.search(column.type) or column.name in keys or _KEYISH.search(column.name):
                continue
            base = slug(column.name)
            for suffix, agg in (("total", "sum"), ("average", "average")):
                measures.append({"name": _unique(f"{model_name}_{base}_{suffix}", used_names), "agg": agg,
                                 "expr": _expr(column.name, dialect)})
        time_dims = [d["name"] for d in dimensions if d["type"] == "time"]
        if time_dims:
            model["defaults"] = {"agg_time_dimension": time_dims[0]}
        if entities:
            model["entities"] = entities
        if dimensions:
            model["dimensions"] = dimensions
        model["measures"] = measures
        models.append(model)
        for measure in measures:
            metrics.append({"name": measure["name"], "label": _label(measure["name"]), "type": "simple",
                            "type_params": {"measure": measure["name"]}})
    return {"semantic_models": models, "metrics": metrics}


def write_project(document: dict[str, Any], out: Path) -> list[Path]:
    """Write the semantic models and metrics as two files under `out/models/`."""
    folder = Path(out) / "models"
    folder.mkdir(parents=True, exist_ok=True)
    header = "# Bootstrapped from the warehouse schema by `python -m agent catalog init`; edit freely.\n"
    written = []
    for file_name, section in (("semantic_models.yml", "semantic_models"), ("metrics.yml", "metrics")):
        path = folder / file_name
        path.write_text(header + yaml.safe_dump({section: document[section]}, sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
        written.append(path)
    return written


def _expr(column: str, dialect: str) -> str:
    return quote(column, dialect)


def _named(name: str, column: str, dialect: str, **fields) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, **fields}
    if name != column:
        entry["expr"] = _expr(column, dialect)
    return entry


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 2
    while candidate in used:
        candidate, n = f"{name}_{n}", n + 1
    used.add(candidate)
    return candidate


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()
