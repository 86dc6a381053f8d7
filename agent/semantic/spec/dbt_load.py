"""Read dbt Semantic Layer YAML (the MetricFlow spec) from a dbt project or any folder of YAML.

Every `*.yml` / `*.yaml` file under the folder is read (dbt's `target/`, `dbt_packages/`
and hidden folders are skipped). Top-level `semantic_models:` and `metrics:` are parsed;
everything the assistant cannot honour is recorded as a `Diagnostic` with file, line and
what was skipped, so nothing is ignored silently. An element is skipped whole when
reading it partly would change its numbers (a semi-additive measure, a conversion metric);
a key that only describes (labels, descriptions, config) is read or passed over.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Literal

import yaml

from agent.semantic.spec.dbt_spec import (
    GRAIN_ORDER,
    Diagnostic,
    Dimension,
    Entity,
    Measure,
    MeasureInput,
    Metric,
    MetricInput,
    MetricType,
    Project,
    SemanticModel,
)
from agent.semantic.spec.where import FilterSyntaxError, ParsedFilter, parse_filter
from agent.yamlload import SafeLoader

_SKIP_DIRS = {"target", "dbt_packages", "dbt_modules", "logs", "node_modules", ".venv"}
_AGGS = {"sum", "count", "count_distinct", "average", "avg", "min", "max", "median", "percentile", "sum_boolean"}
_ENTITY_TYPES = {"primary", "unique", "foreign", "natural"}
_METRIC_TYPES: dict[str, MetricType] = {"simple": "simple", "ratio": "ratio", "derived": "derived",
                                        "cumulative": "cumulative"}
# Keys that only describe an element or tune dbt itself: read where useful, never reported.
_DESCRIPTIVE = {"name", "description", "label", "config", "meta", "tags", "group", "docs"}


class _Mapping(dict[str, Any]):
    line = 0


class _LineLoader(SafeLoader):  # type: ignore[valid-type,misc]
    """A SafeLoader whose mappings remember the line they start on (1-based)."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _Mapping:
    mapping = _Mapping(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _Reader:
    def __init__(self, root: Path, dialect: str):
        self.root = root
        self.dialect = dialect
        self.diagnostics: list[Diagnostic] = []
        self.file = ""

    def note(self, node: Any, message: str) -> None:
        self.diagnostics.append(Diagnostic(self.file, getattr(node, "line", 0), message))

    def unknown_keys(self, node: dict[str, Any], allowed: set[str], where: str) -> None:
        for key in node:
            if key not in allowed and key not in _DESCRIPTIVE:
                self.note(node, f"{where}: '{key}' is not supported and was ignored")

    # -- files -------------------------------------------------------------------------------

    def read(self) -> Project:
        models: list[SemanticModel] = []
        metrics: list[Metric] = []
        for path in _yaml_files(self.root):
            self.file = str(path.relative_to(self.root)) if path != self.root else path.name
            try:
                documents = list(yaml.load_all(path.read_text(encoding="utf-8"), Loader=_LineLoader))
            except (OSError, yaml.YAMLError) as exc:
                mark = getattr(exc, "problem_mark", None)
                self.diagnostics.append(Diagnostic(self.file, mark.line + 1 if mark else 0, f"not readable YAML: {exc}"))
                continue
            for doc in documents:
                if not isinstance(doc, dict):
                    continue
                for raw in _list(doc.get("semantic_models")):
                    model = self.semantic_model(raw)
                    if model is not None:
                        models.append(model)
                for raw in _list(doc.get("metrics")):
                    metric = self.metric(raw)
                    if metric is not None:
                        metrics.append(metric)
                for raw in _list(doc.get("models")):
                    if isinstance(raw, dict) and ("semantic_model" in raw or "metrics" in raw):
                        self.note(raw, f"model '{raw.get('name')}': the dbt 1.12 semantic_model block on models "
                                       "is not read yet; declare semantic_models: at the top level")
                for key in ("saved_queries", "exports"):
                    if doc.get(key):
                        self.note(doc, f"'{key}' are not used by the assistant and were skipped")
        project = Project(models, metrics, self.diagnostics, self.dialect)
        self.check_references(project)
        return project

    # -- semantic models -------------------------------------------------------------------------

    def semantic_model(self, raw: Any) -> SemanticModel | None:
        if not isinstance(raw, dict) or not raw.get("name"):
            self.note(raw, "a semantic model without a name was skipped")
            return None
        name = str(raw["name"])
        where = f"semantic model '{name}'"
        self.unknown_keys(raw, {"model", "node_relation", "defaults", "entities", "dimensions", "measures",
                                "primary_entity"}, where)
        relation = _relation(raw)
        if relation is None:
            self.note(raw, f"{where}: no model: ref('...') or node_relation, so it was skipped")
            return None
        entities = tuple(e for e in (self.entity(r, where) for r in _list(raw.get("entities"))) if e)
        dimensions = tuple(d for d in (self.dimension(r, where) for r in _list(raw.get("dimensions"))) if d)
        defaults = raw.get("defaults") or {}
        agg_time = defaults.get("agg_time_dimension") if isinstance(defaults, dict) else None
        meta = _meta(raw)
        # An assistant extension MetricFlow does not have: rows dated by a date of the row they belong
        # to ('order__o_orderdate' for order lines), kept in meta so the YAML still validates in dbt.
        dated_by = meta.get("agg_time_dimension")
        if isinstance(dated_by, str) and dated_by.strip():
            agg_time = dated_by.strip()
        measures = tuple(m for m in (self.measure(r, where, agg_time) for r in _list(raw.get("measures"))) if m)
        return SemanticModel(
            name=name, relation=relation, entities=entities, dimensions=dimensions, measures=measures,
            agg_time_dimension=agg_time, primary_entity=raw.get("primary_entity"), label=raw.get("label"),
            description=raw.get("description"), meta=meta, file=self.file, line=getattr(raw, "line", 0),
        )

    def entity(self, raw: Any, owner: str) -> Entity | None:
        if not isinstance(raw, dict) or not raw.get("name"):
            self.note(raw, f"{owner}: an entity without a name was skipped")
            return None
        kind = str(raw.get("type", "")).lower()
        if kind not in _ENTITY_TYPES:
            self.note(raw, f"{owner}: entity '{raw['name']}' has type '{kind}', not one of "
                           f"{', '.join(sorted(_ENTITY_TYPES))}; skipped")
            return None
        self.unknown_keys(raw, {"type", "expr", "role"}, f"{owner} entity '{raw['name']}'")
        return Entity(str(raw["name"]), kind, _expr(raw))  # type: ignore[arg-type]

    def dimension(self, raw: Any, owner: str) -> Dimension | None:
        if not isinstance(raw, dict) or not raw.get("name"):
            self.note(raw, f"{owner}: a dimension without a name was skipped")
            return None
        name = str(raw["name"])
        kind = str(raw.get("type", "")).lower()
        where = f"{owner} dimension '{name}'"
        self.unknown_keys(raw, {"type", "expr", "type_params", "is_partition"}, where)
        if kind not in ("categorical", "time"):
            self.note(raw, f"{where}: type '{kind}' is not categorical or time; skipped")
            return None
        params = raw.get("type_params") or {}
        grain = None
        if kind == "time":
            if "validity_params" in params:
                self.note(raw, f"{where}: validity_params (SCD type II) are not supported; skipped")
                return None
            grain = str(params.get("time_granularity", "day")).lower()
            if grain not in GRAIN_ORDER:
                self.note(raw, f"{where}: time_granularity '{grain}' is not supported; skipped")
                return None
        return Dimension(name, kind, _expr(raw), grain, raw.get("label"), raw.get("description"), _meta(raw))  # type: ignore[arg-type]

    def measure(self, raw: Any, owner: str, default_time: str | None) -> Measure | None:
        if not isinstance(raw, dict) or not raw.get("name"):
            self.note(raw, f"{owner}: a measure without a name was skipped")
            return None
        name = str(raw["name"])
        where = f"{owner} measure '{name}'"
        self.unknown_keys(raw, {"agg", "expr", "agg_params", "agg_time_dimension", "create_metric",
                                "non_additive_dimension"}, where)
        agg = str(raw.get("agg", "")).lower()
        if agg not in _AGGS:
            self.note(raw, f"{where}: agg '{agg}' is not supported; skipped")
            return None
        if raw.get("non_additive_dimension"):
            self.note(raw, f"{where}: non_additive_dimension (semi-additive) is not supported; skipped, "
                           "because summing it over time would be wrong")
            return None
        params = raw.get("agg_params") or {}
        percentile = params.get("percentile")
        if agg == "percentile" and percentile is None:
            self.note(raw, f"{where}: agg percentile needs agg_params.percentile; skipped")
            return None
        if params.get("use_approximate_percentile"):
            self.note(raw, f"{where}: use_approximate_percentile is computed exactly instead")
        return Measure(
            name=name, agg="average" if agg == "avg" else agg, expr=_expr(raw),  # type: ignore[arg-type]
            percentile=float(percentile) if percentile is not None else None,
            discrete_percentile=bool(params.get("use_discrete_percentile")),
            agg_time_dimension=raw.get("agg_time_dimension") or default_time,
            label=raw.get("label"), description=raw.get("description"), meta=_meta(raw),
        )

    # -- metrics -----------------------------------------------------------------------------------

    def metric(self, raw: Any) -> Metric | None:
        if not isinstance(raw, dict) or not raw.get("name"):
            self.note(raw, "a metric without a name was skipped")
            return None
        name = str(raw["name"])
        written = str(raw.get("type", "")).lower()
        where = f"metric '{name}'"
        self.unknown_keys(raw, {"type", "type_params", "filter", "time_granularity"}, where)
        kind = _METRIC_TYPES.get(written)
        if kind is None:
            self.note(raw, f"{where}: type '{written}' is not supported (simple, ratio, derived, cumulative); skipped")
            return None
        params = raw.get("type_params") or {}
        try:
            filters = self.filters(raw.get("filter"))
            common = functools.partial(
                Metric, name=name, type=kind, label=raw.get("label"), description=raw.get("description"),
                filters=filters, meta=_meta(raw), file=self.file, line=getattr(raw, "line", 0))
            if kind in ("simple", "cumulative"):
                cumulative = params.get("cumulative_type_params") or {}
                window = cumulative.get("window", params.get("window"))
                to_date = cumulative.get("grain_to_date", params.get("grain_to_date"))
                said = str(cumulative.get("period_agg", "first")).lower()
                period_agg: Literal["first", "last"] = "last" if said == "last" else "first"
                if said not in ("first", "last"):
                    self.note(raw, f"{where}: period_agg '{said}' is not supported; the value at the start "
                                   "of each period (MetricFlow's default, 'first') is reported")
                for key in params:
                    if key not in ("measure", "window", "grain_to_date", "cumulative_type_params", "metric",
                                   "input_metric"):
                        self.note(raw, f"{where}: type_params.{key} is not supported and was ignored")
                measure = self.measure_input(params.get("measure"), where)
                if measure is None:
                    return None
                return common(measure=measure, window=_window(window, where) if window else None,
                              grain_to_date=str(to_date).lower() if to_date else None, period_agg=period_agg)
            if kind == "ratio":
                numerator = self.metric_input(params.get("numerator"), where)
                denominator = self.metric_input(params.get("denominator"), where)
                if numerator is None or denominator is None:
                    self.note(raw, f"{where}: a ratio needs a numerator and a denominator; skipped")
                    return None
                return common(numerator=numerator, denominator=denominator)
            inputs = tuple(i for i in (self.metric_input(r, where) for r in _list(params.get("metrics"))) if i)
            if not params.get("expr") or not inputs:
                self.note(raw, f"{where}: a derived metric needs expr and metrics; skipped")
                return None
            return common(expr=str(params["expr"]), inputs=inputs)
        except (FilterSyntaxError, ValueError) as exc:
            self.note(raw, f"{where}: {exc}; skipped")
            return None

    def measure_input(self, raw: Any, where: str) -> MeasureInput | None:
        if isinstance(raw, str):
            return MeasureInput(raw)
        if isinstance(raw, dict) and raw.get("name"):
            if raw.get("join_to_timespine"):
                self.note(raw, f"{where}: join_to_timespine is not supported; periods without rows stay absent")
            fill = raw.get("fill_nulls_with")
            return MeasureInput(str(raw["name"]), self.filters(raw.get("filter")),
                                float(fill) if fill is not None else None)
        self.note(raw, f"{where}: type_params.measure is missing; skipped")
        return None

    def metric_input(self, raw: Any, where: str) -> MetricInput | None:
        if isinstance(raw, str):
            return MetricInput(raw)
        if not isinstance(raw, dict) or not raw.get("name"):
            return None
        offset = raw.get("offset_window")
        to_grain = raw.get("offset_to_grain")
        return MetricInput(str(raw["name"]), self.filters(raw.get("filter")), raw.get("alias"),
                           _window(offset, where) if offset else None, str(to_grain).lower() if to_grain else None)

    def filters(self, raw: Any) -> tuple[ParsedFilter, ...]:
        texts = [raw] if isinstance(raw, str) else [str(t) for t in _list(raw)]
        return tuple(parse_filter(text, self.dialect) for text in texts if text.strip())

    # -- cross references ----------------------------------------------------------------------------

    def check_references(self, project: Project) -> None:
        """Metrics naming a missing measure or metric are dropped, with a diagnostic each."""
        changed = True
        while changed:
            changed = False
            known = {m.name for m in project.metrics}
            for metric in list(project.metrics):
                missing = [n for n in _referenced(metric) if n not in known]
                if metric.measure and metric.measure.name not in project.measure_owner:
                    missing.append(f"measure {metric.measure.name}")
                if missing:
                    self.file = metric.file
                    self.note(type("_At", (), {"line": metric.line})(),
                              f"metric '{metric.name}': {', '.join(missing)} not found; skipped")
                    project.metrics.remove(metric)
                    changed = True
        project.__dict__.pop("metric_by_name", None)


def _referenced(metric: Metric) -> list[str]:
    inputs = [metric.numerator, metric.denominator, *metric.inputs]
    return [i.name for i in inputs if i is not None]


def _window(raw: Any, where: str) -> tuple[int, str]:
    match = re.fullmatch(r"\s*(\d+)\s+([a-z]+?)s?\s*", str(raw).lower())
    if not match or match.group(2) not in GRAIN_ORDER:
        raise ValueError(f"window '{raw}' is not '<number> <grain>'")
    return int(match.group(1)), match.group(2)


def _relation(raw: dict[str, Any]) -> str | None:
    node = raw.get("node_relation")
    if isinstance(node, dict):
        if node.get("relation_name"):
            return str(node["relation_name"])
        parts = [node.get("schema_name"), node.get("alias")]
        return ".".join(str(p) for p in parts if p) or None
    model = str(raw.get("model") or "")
    match = re.fullmatch(r"\s*ref\(\s*(?:'[^']*'\s*,\s*)?'([^']+)'\s*(?:,\s*v(?:ersion)?\s*=\s*\S+\s*)?\)\s*", model)
    if match:
        return match.group(1)
    match = re.fullmatch(r"\s*source\(\s*'([^']+)'\s*,\s*'([^']+)'\s*\)\s*", model)
    return match.group(2) if match else None


def _expr(raw: dict[str, Any]) -> str:
    expr = raw.get("expr", raw["name"])
    return str(expr).strip() if not isinstance(expr, bool) else str(raw["name"])


def _meta(raw: dict[str, Any]) -> dict[str, Any]:
    config = raw.get("config") or {}
    meta = dict(config.get("meta") or {}) if isinstance(config, dict) else {}
    meta.update(raw.get("meta") or {})
    return meta


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _yaml_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(
        p for p in root.rglob("*")
        if p.suffix in (".yml", ".yaml") and p.is_file()
        and not any(part in _SKIP_DIRS or part.startswith(".") for part in p.relative_to(root).parts[:-1])
    )


def read_project(path: Path | str, dialect: str = "duckdb") -> Project:
    """Read every semantic model and metric under `path` (a folder or one file)."""
    return _Reader(Path(path), dialect).read()
