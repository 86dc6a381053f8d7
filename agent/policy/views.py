"""The catalog, semantic model and value index as one person may see them.

Discovery answers from these, so a table the person may not read never shows up in a
search result, a table choice, a glossary answer, a suggested follow-up or a value hint.
A masked column stays nameable, but its values leave every word about it: descriptions lose
their examples, glossary terms their value synonyms, examples reading it are dropped, and the
value index holds none of them (so a masked value reads exactly like a made-up one).
Each view is built once per distinct set of rights and shared.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from agent.catalog import Catalog
from agent.catalog.loader import parse_catalog_data
from agent.policy.access import Access
from agent.policy.reads import TableName, spelt, table_named
from agent.semantic.spec.dbt_spec import Metric as DbtMetric
from agent.semantic.spec.dbt_spec import Project
from agent.semantic.model.layer import view_data
from agent.semantic.model.runtime import Dimension, SemanticModel
from agent.sql.parse import sqlglot_dialect
from agent.semantic.model.values import ValueIndex
from agent.semantic.spec.where import ParsedFilter
from agent.warehouse import Schema

log = logging.getLogger(__name__)


def scoped_schema(schema: Schema, access: Access) -> Schema:
    readable = access.readable
    keys: dict[str, TableName] = {}
    for name in schema.tables:
        key = (info.schema, info.name) if (info := schema.info.get(name)) else access.table_of(name)
        if key in readable and key is not None:
            keys[name] = key
    return Schema(
        tables={name: [c for c in columns if c.name in readable[keys[name]]]
                for name, columns in schema.tables.items() if name in keys},
        info={name: info for name, info in schema.info.items() if keys.get(name) in readable},
        default_schema=schema.default_schema,
    )


# Where a description starts naming examples: a parenthesis or clause from here on lists values.
_EXAMPLE_PARENTHESIS = re.compile(r"\s*\([^()]*\)")
_EXAMPLE_CLAUSE = re.compile(r"[,;:]?\s*\b(e\.g\.|eg\b|i\.e\.|for example|for instance|such as|like)\s.*?(?=(?<!\b[a-z])\.(\s|$)|$)",
                             re.IGNORECASE | re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
MASKED_NOTE = "(its values are masked for you)"


def masked_value_words(semantic: SemanticModel, values: ValueIndex, access: Access) -> frozenset[str]:
    """The values of every masked column the value index knows (lower case), so the words about
    that column can be cleaned of them wherever they were written."""
    words: set[str] = set()
    for dim in semantic.dimensions:
        if _dimension_masked(semantic, dim, access):
            words.update(str(v).lower() for v in values.values.get(dim.name, ()))
    return frozenset(words)


def without_values(text: str, values: frozenset[str], *, examples: bool) -> str:
    """`text` without its examples (`examples`: a masked column's own words) and without every
    sentence that still names one of `values`."""
    if examples:
        text = _EXAMPLE_PARENTHESIS.sub(lambda m: "" if _lists_values(m.group(0), values) else m.group(0), text)
        text = _EXAMPLE_CLAUSE.sub("", text)
    kept = [s for s in _SENTENCE.split(text.strip()) if not _names_any(s, values)]
    return " ".join(kept).strip()


def _lists_values(text: str, values: frozenset[str]) -> bool:
    return bool(re.search(r"\b(e\.g\.|eg|i\.e\.|for example|such as|like)\b|[A-Z]{3,}|'|\"", text)) or _names_any(text, values)


def _names_any(text: str, values: frozenset[str]) -> bool:
    low = f" {text.lower()} "
    return any(re.search(rf"(?<![\w]){re.escape(v)}(?![\w])", low) for v in values if v)


def _value_words(values: frozenset[str]) -> frozenset[str]:
    """Each value and each longer word of it ('bombardier' of 'BOMBARDIER INC')."""
    words = set(values)
    for value in values:
        words.update(w for w in re.split(r"[^0-9a-z]+", value) if len(w) >= 4)
    return frozenset(words)


def scoped_catalog(catalog: Catalog, access: Access, hidden_values: frozenset[str] = frozenset()) -> Catalog:
    """The catalog as this person may see it; `hidden_values` are masked columns' values known from
    the warehouse (besides the catalog's own lists), lower case."""
    raw = catalog.data.model_dump(by_alias=True)
    # keyed as the catalog keys tables: bare in the default schema, schema.table elsewhere
    readable = access.readable

    def column_ok(qualified: str) -> bool:
        table, _, column = qualified.rpartition(".")
        key = access.table_of(table)
        return key is not None and key in readable and spelt(column, readable[key]) is not None

    def column_masked(qualified: str) -> bool:
        table, _, column = qualified.rpartition(".")
        key = access.table_of(table)
        named = access.column_of(key, column) if key is not None else None
        return key is not None and named is not None and access.masked(key, named)

    hidden = set(hidden_values)
    for name, table in raw["tables"].items():
        for column, doc in table["columns"].items():
            if column_masked(f"{name}.{column}"):
                hidden.update(v.lower() for v in doc["values"])
    hidden_words = _value_words(frozenset(hidden))

    tables = {}
    for name, table in raw["tables"].items():
        if access.table_of(name) not in readable:
            continue
        table["columns"] = {c: doc for c, doc in table["columns"].items() if column_ok(f"{name}.{c}")}
        masked_here = [c for c in table["columns"] if column_masked(f"{name}.{c}")]
        for column in masked_here:
            doc = table["columns"][column]
            doc["description"] = _masked_description(doc["description"], hidden_words, column)
            doc["values"], doc["pattern"] = [], None
            doc["aliases"] = [a for a in doc["aliases"] if not _names_any(a, hidden_words)]
        if masked_here:
            table["description"] = without_values(table["description"], hidden_words, examples=False) or name
            table["aliases"] = [a for a in table["aliases"] if not _names_any(a, hidden_words)]
        table["joins"] = [
            j for j in table["joins"]
            if access.table_of(j["table"]) in readable and all(column_ok(f"{t}.{c}") for t, c in _join_columns(j["on"]))
        ]
        if table["columns"]:
            tables[name] = table
    raw["tables"] = tables
    raw["glossary"] = {k: t for k, t in raw["glossary"].items() if all(column_ok(c) for c in t["columns"])}
    for term in raw["glossary"].values():
        if any(column_masked(c) for c in term["columns"]) or _names_any(term["definition"], hidden_words):
            term["definition"] = _masked_description(term["definition"], hidden_words, term["term"])
            term["synonyms"] = [w for w in term["synonyms"] if not _names_any(w, hidden_words)]
            term["sql"] = None  # a condition on a masked column names one of its values
    raw["synonyms"] = {w: targets for w, targets in raw["synonyms"].items() if not _names_any(w, hidden_words)}
    raw["examples"] = [e for e in raw["examples"] if _example_ok(e, access)]
    raw["docs"] = {k: d for k, d in raw["docs"].items() if all(t in tables for t in d["tables"])}
    for doc in raw["docs"].values():
        doc["body"] = without_values(doc["body"], frozenset(hidden), examples=False) or doc["title"]
        doc["questions"] = [q for q in doc["questions"] if not _names_any(q, hidden_words)]
        doc["keywords"] = [k for k in doc["keywords"] if not _names_any(k, hidden_words)]
    raw["summary"] = "The tables you can read: " + ", ".join(sorted(tables)) + "." if tables else (
        "You cannot read any table here under the data access policy."
    )
    return Catalog(parse_catalog_data(raw, source="the catalog as you may see it"))


def _join_columns(on: str) -> list[tuple[str, str]]:
    from agent.catalog.models import JoinDoc

    return JoinDoc(table="-", on=on).referenced_columns()


def _masked_description(text: str, hidden_words: frozenset[str], name: str) -> str:
    kept = without_values(text, hidden_words, examples=True).rstrip(" .,;:")
    return f"{kept or name} {MASKED_NOTE}."


def _example_ok(example: dict[str, Any], access: Access) -> bool:
    """Examples the person may run, and none on a masked column: its question and SQL name values."""
    try:
        if access.authorize(example["sql"]) != example["sql"]:
            return False  # it reads a masked column
    except Exception:  # noqa: BLE001 - an example that cannot be checked is left out
        return False
    return True


def _dimension_masked(semantic: SemanticModel, dim: Dimension, access: Access) -> bool:
    dialect = semantic.project.dialect if semantic.project is not None else access.dialect
    relations = {t.name: t.relation or t.name for t in semantic.tables}
    return any(
        _expression_masked(access, relation_table(relations.get(s.table, s.table), access, dialect),
                           s.expr, dialect)
        for s in dim.sources
    )


def _expression_masked(access: Access, table: TableName, expr: str, dialect: str) -> bool:
    try:
        tree = sqlglot.parse_one(expr, read=sqlglot_dialect(dialect))
    except SqlglotError:
        return True  # an expression that cannot be read is treated as reading the masked column
    # a column the table lacks (an expression's own alias) is masked only if some masked column is spelt so
    return any(access.masked(table, access.column_of(table, c.name) or c.name) for c in tree.find_all(exp.Column))


def relation_table(relation: str, access: Access, dialect: str) -> TableName:
    """The (schema, table) a semantic model's relation names ('orders', 'sales.orders', '"db"."s"."t"'),
    spelt as the engine lists it (a relation the warehouse lacks keeps its own spelling: nothing readable)."""
    table = exp.to_table(relation, dialect=sqlglot_dialect(dialect))
    return table_named(table.db or None, table.name, access.tables, access.default_schema) \
        or (table.db or access.default_schema, table.name)


def _expression_readable(access: Access, table: TableName, expr: str, dialect: str) -> bool:
    if not access.table_readable(table):
        return False
    try:
        tree = sqlglot.parse_one(expr, read=sqlglot_dialect(dialect))
    except SqlglotError:
        return False  # an expression that cannot be read is not shown
    return all(access.column_readable(table, access.column_of(table, c.name) or c.name) for c in tree.find_all(exp.Column))


def scoped_project(project: Project, access: Access) -> Project:
    """The dbt semantic layer without what reads a table or column this person may not: semantic
    models on hidden tables, entities, dimensions and measures on hidden columns, and every metric
    built on any of those (through measures, inputs or filters). What the compiler can reach is
    then only what the person may read."""
    dialect = project.dialect
    models = []
    for model in project.semantic_models:
        table = relation_table(model.relation, access, dialect)
        if not access.table_readable(table):
            continue

        def ok(expr: str | None, table: TableName = table) -> bool:
            return expr is None or _expression_readable(access, table, expr, dialect)

        dimensions = tuple(d for d in model.dimensions if ok(d.expr))
        kept_dims = {d.name for d in dimensions}
        measures = tuple(
            replace(m, agg_time_dimension=None) if m.agg_time_dimension and m.agg_time_dimension not in kept_dims else m
            for m in model.measures if ok(m.expr)
        )
        models.append(replace(
            model, entities=tuple(e for e in model.entities if ok(e.expr)), dimensions=dimensions, measures=measures,
            agg_time_dimension=model.agg_time_dimension if model.agg_time_dimension in kept_dims else None,
        ))
    measure_names = {m.name for model in models for m in model.measures}
    elements = {d.name for model in models for d in model.dimensions} | {e.name for m in models for e in m.entities}
    entities = {e.name for model in models for e in model.entities} | {m.entity_name for m in models if m.entity_name}

    def filters_ok(filters: Iterable[ParsedFilter]) -> bool:
        return all(ref.name in elements and set(ref.entity_path) <= entities for f in filters for ref in f.refs)

    kept: dict[str, DbtMetric] = {}
    pending = list(project.metrics)
    while True:  # a derived metric is kept once every metric it uses is
        progress = False
        for metric in list(pending):
            inputs = [i for i in (metric.numerator, metric.denominator, *metric.inputs) if i is not None]
            if metric.measure is not None and (metric.measure.name not in measure_names
                                               or not filters_ok(metric.measure.filters)):
                pending.remove(metric)
                continue
            if not filters_ok(metric.filters) or not all(filters_ok(i.filters) for i in inputs):
                pending.remove(metric)
                continue
            if all(i.name in kept for i in inputs):
                kept[metric.name] = metric
                pending.remove(metric)
                progress = True
        if not progress:
            break
    metrics = [m for m in project.metrics if m.name in kept]
    return Project(models, metrics, project.diagnostics, dialect)


def scoped_semantic(model: SemanticModel, access: Access, hidden_values: frozenset[str] = frozenset()) -> SemanticModel:
    """The model without tables, dimensions and metrics that read what this person may not; with a
    dbt project, the parser's view is rebuilt from the narrowed project so both agree. A dimension on
    a masked column stays, without its values, value names and the words that name values."""
    project = scoped_project(model.project, access) if model.project is not None else None
    raw = view_data(project, model) if project is not None else model.model_dump(by_alias=True)
    relations = {t["name"]: t["relation"] or t["name"] for t in raw["tables"]}
    dialect = project.dialect if project is not None else access.dialect

    def reads_ok(table: str, expr: str) -> bool:
        return _expression_readable(
            access, relation_table(relations.get(table, table), access, dialect), expr, dialect)

    def masked(table: str, expr: str) -> bool:
        return _expression_masked(
            access, relation_table(relations.get(table, table), access, dialect), expr, dialect)

    hidden_words = _value_words(hidden_values)

    raw["tables"] = [t for t in raw["tables"] if reads_ok(t["name"], "1")]
    tables = {t["name"] for t in raw["tables"]}
    raw["joins"] = [j for j in raw["joins"] if j["from"] in tables and j["to"] in tables]
    dims = []
    for dim in raw["dimensions"]:
        dim["sources"] = [s for s in dim["sources"] if s["table"] in tables and reads_ok(s["table"], s["expr"])]
        if not dim["sources"]:
            continue
        labels = dim.get("value_labels")
        if labels and not (labels["table"] and reads_ok(labels["table"], labels["key"])
                           and reads_ok(labels["table"], labels["label"]) and not masked(labels["table"], labels["label"])):
            dim["value_labels"] = None
        if any(masked(s["table"], s["expr"]) for s in dim["sources"]):
            dim["values"], dim["value_aliases"], dim["value_labels"] = False, {}, None
            dim["description"] = without_values(dim.get("description", ""), hidden_words, examples=True)
            dim["synonyms"] = [w for w in dim.get("synonyms", []) if not _names_any(w, hidden_words)]
            dim["related"] = {w: why for w, why in dim.get("related", {}).items() if not _names_any(w, hidden_words)}
        dims.append(dim)
    dim_names = {d["name"] for d in dims}
    vetted = set(project.metric_by_name) if project is not None else None  # kept through the dbt layer
    metrics = [
        m for m in raw["metrics"]
        if m["table"] in tables and (m["name"] in vetted if vetted is not None else (
            reads_ok(m["table"], m["expr"]) and (not m.get("filter") or reads_ok(m["table"], m["filter"]))))
        and (m.get("measure") is None or m["measure"] in dim_names)
    ]
    metric_names = {m["name"] for m in metrics}
    for table in raw["tables"]:
        if table.get("count_metric") not in metric_names:
            table["count_metric"] = None
        table["counted_from"] = {k: v for k, v in table.get("counted_from", {}).items() if v in metric_names}
        table["time"] = {k: v for k, v in table.get("time", {}).items() if v in dim_names}
        if table.get("agg_time") not in dim_names:
            table["agg_time"] = None
    if raw.get("default_metric") not in metric_names:
        raw["default_metric"] = next((m["name"] for m in metrics if m["expr"] == "count(*)"), None)
    raw["ranking"]["implies_measure"] = {
        w: m for w, m in raw["ranking"].get("implies_measure", {}).items() if m in dim_names
    }
    raw["dimensions"], raw["metrics"] = dims, metrics
    return SemanticModel.model_validate(raw).model_copy(update={"project": project, "words_source": model.words_source})


def scoped_values(values: ValueIndex, model: SemanticModel) -> ValueIndex:
    """Only the values of dimensions the person can see and whose values they may read (`model` is
    their scoped model: a masked dimension reads no values there), and readable names only where
    they may read them."""
    keep = {d.name for d in model.dimensions if d.values}
    labelled = {d.name for d in model.dimensions if d.value_labels is not None}
    return ValueIndex(
        values={k: v for k, v in values.values.items() if k in keep},
        labels={k: v for k, v in values.labels.items() if k in labelled},
        phrases=[p for p in values.phrases if p.dimension in keep],
    )
