"""The catalog, semantic model and value index as one person may see them.

Discovery answers from these, so a table the person may not read never shows up in a
search result, a table choice, a glossary answer, a suggested follow-up or a value hint.
Each view is built once per distinct set of rights and shared.
"""

from __future__ import annotations

import logging

from agent.catalog import Catalog
from agent.catalog.loader import parse_catalog_data
from agent.policy.access import Access
from agent.semantic.model import SemanticModel, expression_columns
from agent.semantic.values import ValueIndex
from agent.warehouse import Schema

log = logging.getLogger(__name__)


def scoped_schema(schema: Schema, access: Access) -> Schema:
    readable = access.readable
    return Schema(
        tables={
            name: [c for c in columns if c.name.lower() in readable[(access.default_schema, name)]]
            for name, columns in schema.tables.items()
            if (access.default_schema, name) in readable
        }
    )


def scoped_catalog(catalog: Catalog, access: Access) -> Catalog:
    raw = catalog.data.model_dump(by_alias=True)
    readable = {table: set(columns) for (_, table), columns in access.readable.items()}

    def column_ok(qualified: str) -> bool:
        table, _, column = qualified.partition(".")
        return column in readable.get(table, ())

    tables = {}
    for name, table in raw["tables"].items():
        if name not in readable:
            continue
        table["columns"] = {c: doc for c, doc in table["columns"].items() if c in readable[name]}
        table["joins"] = [
            j for j in table["joins"]
            if j["table"] in readable and all(column_ok(f"{t}.{c}") for t, c in _join_columns(j["on"]))
        ]
        if table["columns"]:
            tables[name] = table
    raw["tables"] = tables
    raw["glossary"] = {k: t for k, t in raw["glossary"].items() if all(column_ok(c) for c in t["columns"])}
    raw["examples"] = [e for e in raw["examples"] if _example_ok(e, access)]
    raw["docs"] = {k: d for k, d in raw["docs"].items() if all(t in tables for t in d["tables"])}
    raw["summary"] = "The tables you can read: " + ", ".join(sorted(tables)) + "." if tables else (
        "You cannot read any table here under the data access policy."
    )
    return Catalog(parse_catalog_data(raw, source="the catalog as you may see it"))


def _join_columns(on: str) -> list[tuple[str, str]]:
    from agent.catalog.models import JoinDoc

    return JoinDoc(table="-", on=on).referenced_columns()


def _example_ok(example: dict, access: Access) -> bool:
    try:
        access.authorize(example["sql"])
    except Exception:  # noqa: BLE001 - an example that cannot be checked is left out
        return False
    return True


def scoped_semantic(model: SemanticModel, access: Access) -> SemanticModel:
    """The model without dimensions and metrics that read what this person may not."""

    def reads_ok(table: str, expr: str) -> bool:
        key = (access.default_schema, table)
        if not access.table_readable(key):
            return False
        try:
            return all(access.column_readable(key, c.lower()) for c in expression_columns(expr))
        except Exception:  # noqa: BLE001 - an expression that cannot be read is not shown
            return False

    raw = model.model_dump(by_alias=True)
    dims = []
    for dim in raw["dimensions"]:
        dim["sources"] = [s for s in dim["sources"] if reads_ok(s["table"], s["expr"])]
        if not dim["sources"]:
            continue
        labels = dim.get("value_labels")
        if labels and not (reads_ok(labels["table"], labels["key"]) and reads_ok(labels["table"], labels["label"])):
            dim["value_labels"] = None
        dims.append(dim)
    dim_names = {d["name"] for d in dims}
    metrics = [
        m for m in raw["metrics"]
        if reads_ok(m["table"], m["expr"]) and (not m.get("filter") or reads_ok(m["table"], m["filter"]))
        and (m.get("measure") is None or m["measure"] in dim_names)
    ]
    metric_names = {m["name"] for m in metrics}
    for table in raw["tables"]:
        if table.get("count_metric") not in metric_names:
            table["count_metric"] = None
        table["counted_from"] = {k: v for k, v in table.get("counted_from", {}).items() if v in metric_names}
    if raw.get("default_metric") not in metric_names:
        raw["default_metric"] = None
    raw["ranking"]["implies_measure"] = {
        w: m for w, m in raw["ranking"].get("implies_measure", {}).items() if m in dim_names
    }
    raw["dimensions"], raw["metrics"] = dims, metrics
    # The dbt project the compiler reads is not part of the dump; what it compiles is still
    # checked against the person's rights before it runs.
    return SemanticModel.model_validate(raw).model_copy(update={"project": model.project})


def scoped_values(values: ValueIndex, model: SemanticModel) -> ValueIndex:
    """Only the values of dimensions the person can see, and readable names only where they may read them."""
    keep = {d.name for d in model.dimensions}
    labelled = {d.name for d in model.dimensions if d.value_labels is not None}
    return ValueIndex(
        values={k: v for k, v in values.values.items() if k in keep},
        labels={k: v for k, v in values.labels.items() if k in labelled},
        phrases=[p for p in values.phrases if p.dimension in keep],
    )
