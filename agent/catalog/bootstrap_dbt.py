"""A first semantic model for a warehouse nobody has modelled yet, written as standard dbt
Semantic Layer (MetricFlow) YAML so people can edit it and dbt tools can read it.

Per table: a semantic model with entities from the primary and foreign keys, categorical
dimensions from text and boolean columns, time dimensions from date and timestamp columns,
measures (a row count; sum and average of each numeric column that is not a key), and one
simple metric per measure. Only fields of the public spec are written.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml

from agent.warehouse import Schema
from agent.warehouse.base import quote
from agent.yamlload import safe_load

NUMERIC = re.compile(r"int|numeric|decimal|double|float|real|number|money|bigint|smallint|tinyint", re.IGNORECASE)
_TIME = re.compile(r"date|timestamp|datetime", re.IGNORECASE)
_CATEGORICAL = re.compile(r"char|text|string|varchar|enum|bool", re.IGNORECASE)
_VOCABULARY = Path(__file__).resolve().parents[1] / "semantic" / "vocabulary.yaml"
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


def bootstrap(schema: Schema, *, dialect: str, default_schema: str | None = None,
              fractions: frozenset[tuple[str, str]] = frozenset()) -> dict[str, Any]:
    """The dbt YAML document (`semantic_models:` and `metrics:`) for every table in `schema`.
    `fractions` are the (table, column) pairs whose values all lie between 0 and 1 (read from the
    data by `catalog init`): a discount that is a fraction is taken off as `price * (1 - discount)`."""
    entity_of = {key: singular(slug(info.name)) for key, info in schema.info.items() if len(info.primary_key) == 1}
    references = foreign_keys(schema)
    models, metrics = [], []
    used_names: set[str] = set()
    model_names: set[str] = set()
    for key, columns in schema.tables.items():
        info = schema.info.get(key)
        if info is None or not columns:
            continue
        # `bakers` and `Bakers` (a case-keeping engine) are two tables: two semantic models
        model_name = _unique(slug(key), model_names)
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
        for column_name, target_table in references.get(key, []):
            target = entity_of.get(target_table)
            if target and target not in {e["name"] for e in entities}:
                entities.append({"name": target, "type": "foreign", "expr": _expr(column_name, dialect)})
                keys.add(column_name)
        header = _header(key, info, references, entity_of, schema)
        if header is not None:  # order lines are dated by their order: 'revenue in 1996' means ordered in 1996
            model["config"] = {"meta": {"agg_time_dimension": header}}
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
            if not NUMERIC.search(column.type) or column.name in keys or _KEYISH.search(column.name):
                continue
            base = slug(column.name)
            # an amount or a quantity adds up ('top parts by quantity' ranks by the total); other
            # measures (a delay, a temperature) are meant on average
            additive = any(w in column.name.lower() for w in net_words().get("additive", []))
            for suffix, agg in (("total", "sum"), ("average", "average")):
                measures.append({"name": _unique(f"{model_name}_{base}_{suffix}", used_names), "agg": agg,
                                 "expr": _expr(column.name, dialect), "default": additive == (agg == "sum")})
        measures += _net_measures(key, model_name, columns, keys, fractions, dialect, used_names)
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
            metric = {"name": measure["name"], "label": measure.pop("label", None) or _label(measure["name"]),
                      "type": "simple", "type_params": {"measure": measure["name"]}}
            meta = {key: value for key, value in (("synonyms", measure.pop("synonyms", None)),
                                                  ("default", measure.pop("default", None))) if value}
            if meta:
                metric["config"] = {"meta": meta}
            metrics.append(metric)
    return {"semantic_models": models, "metrics": metrics}


def column_prefix(names: list[str]) -> str:
    """'l_' when every column starts with the same short prefix (l_orderkey, l_shipdate, ...)."""
    match = re.match(r"[a-z]{1,3}_", names[0].lower()) if names else None
    if match and len(names) > 1 and all(n.lower().startswith(match.group(0)) for n in names):
        return match.group(0)
    return ""


def foreign_keys(schema: Schema) -> dict[str, list[tuple[str, str]]]:
    """Per table, (column, referenced table) for each single-column reference: the declared foreign
    keys, and, where none is declared (warehouses rarely enforce them; a composite key to a link
    table hides the single ones), a column named like another table's single-column primary key
    once each table's column prefix is set aside (l_suppkey -> s_suppkey, customer_id -> customers.id)."""
    keyed = {key: info.primary_key[0] for key, info in schema.info.items() if len(info.primary_key) == 1}
    prefixes = {key: column_prefix([c.name for c in cols]) for key, cols in schema.tables.items()}
    by_stem: dict[str, list[str]] = {}
    for table, column in keyed.items():
        stem = column.lower().removeprefix(prefixes.get(table, ""))
        if stem in ("id", "key"):
            stem = f"{singular(slug(schema.info[table].name))}_{stem}"
        by_stem.setdefault(stem, []).append(table)
    found: dict[str, list[tuple[str, str]]] = {}
    for table, columns in schema.tables.items():
        info = schema.info.get(table)
        declared = [(fk.columns[0], fk.table) for fk in (info.foreign_keys if info else []) if len(fk.columns) == 1]
        taken = {c for c, _ in declared}
        inferred = []
        for column in columns:
            stem = column.name.lower().removeprefix(prefixes.get(table, ""))
            targets = [t for t in by_stem.get(stem, []) if t != table]
            if column.name not in taken and len(targets) == 1 and not (
                    info and len(info.primary_key) == 1 and info.primary_key[0] == column.name):
                inferred.append((column.name, targets[0]))
        found[table] = declared + inferred
    return found


def _header(table: str, info, references: dict, entity_of: dict[str, str], schema: Schema) -> str | None:
    """'order__o_orderdate' for a table whose primary key includes a reference to another table
    (lines of an order): its rows happen when the row they belong to does."""
    if len(info.primary_key) < 2:
        return None
    for column, target in references.get(table, []):
        if column not in info.primary_key or target not in entity_of:
            continue
        dates = [c.name for c in schema.tables.get(target, []) if _TIME.search(c.type)]
        if dates:
            return f"{entity_of[target]}__{slug(dates[0])}"
    return None


def _net_measures(table: str, model_name: str, columns, keys: set[str], fractions, dialect: str,
                  used: set[str]) -> list[dict[str, Any]]:
    """An amount net of a deduction on the same row ('price after discount'): words from
    vocabulary.yaml's `net_measures`, never a data set's own names."""
    words = net_words()
    prefix = column_prefix([c.name for c in columns])
    numeric = [c.name for c in columns if NUMERIC.search(c.type) and c.name not in keys and not _KEYISH.search(c.name)]

    def named(column: str, kinds: list[str]) -> str | None:
        label = column.lower().removeprefix(prefix)
        return next((w for w in kinds if w in label), None)

    deductions = [(c, named(c, words["deductions"])) for c in numeric if named(c, words["deductions"])]
    amounts = [(c, named(c, words["amounts"])) for c in numeric if named(c, words["amounts"])
               and not named(c, words["deductions"])]
    quantity = next((c for c in numeric if named(c, words["quantities"])), None)
    measures = []
    if len(deductions) != 1:
        return measures
    deduction, deduction_word = deductions[0]
    for amount, amount_word in amounts:
        label = amount.lower().removeprefix(prefix).replace("_", " ")
        if amount_word and label.endswith(amount_word) and not label.endswith(" " + amount_word) and label != amount_word:
            label = f"{label[:-len(amount_word)]} {amount_word}"  # 'extendedprice' reads 'extended price'
        gross = _expr(amount, dialect)
        if named(amount, words["unit_words"]) and quantity:
            gross = f"{gross} * {_expr(quantity, dialect)}"
        off = _expr(deduction, dialect)
        expr = f"{gross} * (1 - {off})" if (table, deduction) in fractions else f"{gross} - {off}"
        fields = {"amount": label, "word": amount_word, "deduction": deduction_word or "discount"}
        synonyms = list(dict.fromkeys(s.format(**fields) for s in words["synonyms"]))
        measures.append({"name": _unique(f"{model_name}_net_{slug(amount.lower().removeprefix(prefix))}", used),
                         "description": f"{label} after {fields['deduction']} ({expr})", "agg": "sum", "expr": expr,
                         "label": f"Net {label}", "synonyms": synonyms})
    return measures


@functools.lru_cache(maxsize=1)
def net_words() -> dict[str, list[str]]:
    vocabulary = safe_load(_VOCABULARY.read_text(encoding="utf-8")) or {}
    return {key: list(value) for key, value in (vocabulary.get("net_measures") or {}).items()}


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
