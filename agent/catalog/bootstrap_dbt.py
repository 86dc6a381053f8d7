"""A first semantic model for a warehouse nobody has modelled yet, written as standard dbt
Semantic Layer (MetricFlow) YAML so people can edit it and dbt tools can read it.

Per table: a semantic model with entities from the primary key and from references (declared, or
inferred from names and confirmed by values: `references.py`), dimensions from text, boolean,
date, time-of-day and code columns, and the measures analysts expect, by general rules whose words
are in `bootstrap_words.yaml` (`measures.py`): counts and distinct counts of each entity, sums and
averages of amounts (never of years, ranks or ids), a line amount (price times quantity, less a
discount), a display name, durations in people's units, flags with their rates. Column comments
become descriptions. Only fields of the public spec are written, plus `config.meta` (which dbt
keeps and ignores).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from agent.catalog.evidence import Evidence
from agent.catalog.measures import TableRules
from agent.catalog.naming import bootstrap_words, singular, slug, table_words, thing
from agent.text.words import split_name
from agent.catalog.references import References, Shape, find_references
from agent.semantic.model.row_names import placeholder_description
from agent.warehouse import Schema, TableInfo
from agent.warehouse.base import quote

NUMERIC = re.compile(r"int|numeric|decimal|double|float|real|number|money|bigint|smallint|tinyint", re.IGNORECASE)
TIME = re.compile(r"date|timestamp|datetime", re.IGNORECASE)
TIME_OF_DAY = re.compile(r"^time\b(?!stamp)", re.IGNORECASE)
CATEGORICAL = re.compile(r"char|text|string|varchar|enum|bool", re.IGNORECASE)

__all__ = ["NUMERIC", "bootstrap", "net_words", "write_project", "Shape", "slug"]


def net_words() -> dict[str, list[str]]:
    words: dict[str, list[str]] = bootstrap_words()["net_measures"]
    return words


def bootstrap(schema: Schema, *, dialect: str, default_schema: str | None = None,
              fractions: frozenset[tuple[str, str]] = frozenset(), evidence: Evidence | None = None) -> dict[str, Any]:
    """The dbt YAML document (`semantic_models:` and `metrics:`) for every table in `schema`.
    `fractions` are the (table, column) pairs whose values all lie between 0 and 1 (a discount that
    is a fraction is taken off as `price * (1 - discount)`); `evidence` is what the data said about
    references and columns (`evidence.read_evidence`); without it only declared keys are used."""
    references = evidence.references if evidence is not None else find_references(schema, None)
    profiles = evidence.profiles if evidence is not None else {}
    shapes = shape_tables(schema, references)
    models, metrics = [], []
    used: set[str] = set(shapes)
    for key, shape in shapes.items():
        info = schema.info[key]
        rules = TableRules(schema, shape, shapes, dialect, fractions, profiles, used)
        model: dict[str, Any] = {"name": shape.name, "description": info.comment or placeholder_description(key)}
        plain = info.name == info.name.lower() and re.fullmatch(r"[a-z_][a-z0-9_]*", info.name)
        if plain and (default_schema is None or info.schema == default_schema):
            model["model"] = f"ref('{info.name}')"
        else:
            model["node_relation"] = {"schema_name": info.schema, "alias": info.name}
        entities = _entities(shape, info, dialect)
        dated_by = _dated_by(shape, info, shapes, schema)
        meta: dict[str, Any] = {}
        if dated_by is not None:  # order lines are dated by their order: 'revenue in 1996' means ordered in 1996
            meta["agg_time_dimension"] = dated_by
        if shape.bridge:
            meta["bridge"] = [shape.entity_refs[r.column] for r in shape.references if r.column in shape.entity_refs]
        dimensions = rules.dimensions({e["name"] for e in entities})
        measures, table_metrics = rules.measures()
        time_dims = [d["name"] for d in dimensions if d["type"] == "time"]
        years = rules.year_column() if not time_dims else None
        if years is not None and any(d["name"] == years for d in dimensions):
            meta["time_parts"] = {"year": years}  # 'films that came out in 1999': the release year, no date
        if meta:
            model["config"] = {"meta": meta}
        row_dates = [d for d in time_dims if not _describes_a_thing(d)]
        if row_dates:
            model["defaults"] = {"agg_time_dimension": row_dates[0]}
        if entities:
            model["entities"] = entities
        if dimensions:
            model["dimensions"] = dimensions
        model["measures"] = measures
        models.append(model)
        metrics += table_metrics
    return {"semantic_models": models, "metrics": metrics}


def _describes_a_thing(column: str) -> bool:
    """A date that describes the row's thing ('birth_dt'), not when the row happened."""
    words = set(re.split(r"[_\W]+", column.lower()))
    return bool(words & set(bootstrap_words()["attribute_dates"]))


def shape_tables(schema: Schema, references: References) -> dict[str, Shape]:
    """Each table's model name, entity and references: the first reference to a table is a foreign
    entity (the join); a second one to the same table, or one to its own table, is a role
    ('manager', 'parent'), kept as a dimension labelled by the other row."""
    names: dict[str, str] = {}
    for key, info in schema.info.items():
        if schema.tables.get(key):
            # the name as spelt ('orderDetails' -> order_details: 'order details' to the reader)
            named = " ".join(table_words(info.name))  # 'fact_sales': the sales
            names[key] = _unique(slug(named if "." not in key else f"{info.schema}_{named}"), set(names.values()))
    entities: dict[str, str] = {}
    for key in names:
        info = schema.info[key]
        if len(info.primary_key) == 1:
            entities[key] = _unique("_".join(thing(info.name)) or names[key], set(entities.values()))
    shapes = {key: Shape(key, names[key], entities.get(key)) for key in names}
    for key, shape in shapes.items():
        shape.references = [r for r in references.of(key) if r.target in entities]
        taken = {shape.entity} if shape.entity else set()
        for ref in shape.references:  # a key that is another table's key (one row per row) joins like any
            target = entities[ref.target]
            if target in taken or ref.target == key:
                shape.role_refs[ref.column] = ref
            else:
                shape.entity_refs[ref.column] = target
                taken.add(target)
        shape.bridge = _is_bridge(schema, key, shape)
    return shapes


def _is_bridge(schema: Schema, key: str, shape: Shape) -> bool:
    """Two things linked many to many: no key of its own, its rows made of references (or one
    reference and the values it is tagged with, such as a genre), little else."""
    info = schema.info[key]
    if shape.entity is not None or not shape.entity_refs:
        return False
    pk = set(info.primary_key)
    others = [c for c in schema.tables[key] if c.name not in shape.entity_refs and c.name not in pk]
    tags = [c for c in pk if c not in shape.entity_refs]
    if len(shape.entity_refs) + len(tags) < 2 or not all(
            CATEGORICAL.search(next(c.type for c in schema.tables[key] if c.name == t)) for t in tags):
        return False
    most: int = bootstrap_words()["bridge_other_columns_max"]
    # a number beside the two references ('Quantity' of a store's stock of a product) is a measure of the pair:
    # its rows are facts to add up, not links
    measured = any(NUMERIC.search(c.type) for c in others)
    return len(others) <= most and not measured


def _entities(shape: Shape, info: TableInfo, dialect: str) -> list[dict[str, Any]]:
    entities = []
    if shape.entity:
        entities.append({"name": shape.entity, "type": "primary", "expr": quote(info.primary_key[0], dialect)})
    for column, entity in shape.entity_refs.items():
        entities.append({"name": entity, "type": "foreign", "expr": quote(column, dialect)})
    return entities


def _dated_by(shape: Shape, info: TableInfo, shapes: dict[str, Shape], schema: Schema) -> str | None:
    """'order__o_orderdate' for rows that happen when the row they belong to does: lines of an order
    (the key includes the reference), or rows with no date of their own pointing at a dated row, or at
    the calendar table of a star schema ('date__full_date')."""
    own_dates = [c for c in schema.tables[shape.key] if TIME.search(c.type) and not TIME_OF_DAY.search(c.type)]
    in_key = [r for r in shape.references if r.column in info.primary_key and r.column in shape.entity_refs]
    periods = set(bootstrap_words()["period_words"])
    if any(set(split_name(c).split()) & periods for c in info.primary_key if c not in shape.entity_refs):
        in_key = []  # a line's figure per month ('SUB_ID, USG_PRD_NUM') has a period of its own
    # rows with no date named as parts of the row they point at ('orderDetails', 'order_lines')
    parts = [r for r in shape.references if r.column in shape.entity_refs
             and _named_as_part_of(info.name, schema.info[r.target].name)]
    # a star schema's facts carry a key of the calendar table ('date_key' of 'dim_date') instead of a date
    calendars = [r for r in shape.references if r.column in shape.entity_refs
                 and thing(schema.info[r.target].name)[-1:] in [(w,) for w in bootstrap_words()["calendar_tables"]]]
    # a row nothing points at, with no date of its own, that belongs to exactly one dated row (a fare of a
    # trip): it happened when that row did; a table others point at is a thing (a product of a supplier),
    # and a row of two dated rows could be dated by either, so neither is guessed
    dated_targets = [r for r in shape.references if r.column in shape.entity_refs and any(
        TIME.search(c.type) and not TIME_OF_DAY.search(c.type) and not _describes_a_thing(c.name)
        for c in schema.tables.get(r.target, []))]
    pointed_at = any(r.target == shape.key for other in shapes.values() for r in other.references)
    own_period = any(set(split_name(c.name).split()) & periods for c in schema.tables[shape.key]
                     if c.name not in shape.entity_refs)
    belongs = dated_targets if len(dated_targets) == 1 and not (own_dates or own_period or pointed_at or shape.bridge) \
        else []
    for group in (in_key if len(info.primary_key) > 1 else [], [] if own_dates else parts,
                  [] if own_dates else calendars, belongs):
        for ref in group:
            target = shapes[ref.target]
            # a date that describes the row pointed at ('birth_dt' of a subscriber) is not when this row happened
            dates = [c.name for c in schema.tables.get(ref.target, [])
                     if TIME.search(c.type) and not TIME_OF_DAY.search(c.type) and not _describes_a_thing(c.name)]
            moment = TableRules(schema, target, shapes, "duckdb", frozenset(), {}, set()).moment()
            if dates and target.entity:
                return f"{target.entity}__{moment['name'] if moment else slug(dates[0])}"
    return None


def _named_as_part_of(table: str, target: str) -> bool:
    own, whole = split_name(table).split(), list(thing(target))
    return len(own) > len(whole) and [singular(w) for w in own[:len(whole)]] == whole


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


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 2
    while candidate in used:
        candidate, n = f"{name}_{n}", n + 1
    return candidate

