"""The parts of the dbt Semantic Layer (MetricFlow) spec this assistant reads, as typed objects.

`dbt_load.read_project` fills these from YAML; the compiler (`sqlgen`) plans queries over
them. Names follow the dbt spec: semantic models with entities, dimensions and measures;
metrics of type simple, ratio, derived and cumulative.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from agent.semantic.spec.where import ParsedFilter

EntityType = Literal["primary", "unique", "foreign", "natural"]
Agg = Literal["sum", "count", "count_distinct", "average", "min", "max", "median", "percentile", "sum_boolean"]
MetricType = Literal["simple", "ratio", "derived", "cumulative"]
GRAIN_ORDER = ("hour", "day", "week", "month", "quarter", "year")


@dataclass(frozen=True)
class Diagnostic:
    """Something in the YAML that was not read as written: where, and what happened to it."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Entity:
    name: str
    type: EntityType
    expr: str


@dataclass(frozen=True)
class Dimension:
    name: str
    type: Literal["categorical", "time"]
    expr: str
    granularity: str | None = None  # time dimensions: the finest grain the column holds
    label: str | None = None
    description: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Measure:
    name: str
    agg: Agg
    expr: str
    percentile: float | None = None
    discrete_percentile: bool = False
    agg_time_dimension: str | None = None
    label: str | None = None
    description: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class SemanticModel:
    name: str
    relation: str  # the table (optionally schema-qualified) the model reads
    entities: tuple[Entity, ...]
    dimensions: tuple[Dimension, ...]
    measures: tuple[Measure, ...]
    agg_time_dimension: str | None = None
    primary_entity: str | None = None
    label: str | None = None
    description: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    file: str = ""
    line: int = 0

    @property
    def primary(self) -> Entity | None:
        """The entity one row stands for (primary/unique/natural), or the declared primary_entity."""
        for entity in self.entities:
            if entity.type in ("primary", "unique", "natural"):
                return entity
        return None

    @property
    def entity_name(self) -> str | None:
        primary = self.primary
        return primary.name if primary else self.primary_entity

    def dimension(self, name: str) -> Dimension | None:
        return next((d for d in self.dimensions if d.name == name), None)

    def entity(self, name: str) -> Entity | None:
        return next((e for e in self.entities if e.name == name), None)


@dataclass(frozen=True)
class MetricInput:
    """A metric used inside another (ratio, derived, cumulative), with its own filter and offset."""

    name: str
    filters: tuple[ParsedFilter, ...] = ()
    alias: str | None = None
    offset_window: tuple[int, str] | None = None  # (1, 'month')
    offset_to_grain: str | None = None


@dataclass(frozen=True)
class MeasureInput:
    name: str
    filters: tuple[ParsedFilter, ...] = ()
    fill_nulls_with: float | None = None


@dataclass(frozen=True)
class Metric:
    name: str
    type: MetricType
    label: str | None = None
    description: str | None = None
    filters: tuple[ParsedFilter, ...] = ()
    measure: MeasureInput | None = None  # simple and cumulative
    numerator: MetricInput | None = None  # ratio
    denominator: MetricInput | None = None
    expr: str | None = None  # derived
    inputs: tuple[MetricInput, ...] = ()
    window: tuple[int, str] | None = None  # cumulative
    grain_to_date: str | None = None
    # a cumulative metric by a grain coarser than a day: its value on the first day of each period
    # (MetricFlow's default) or on the last
    period_agg: Literal["first", "last"] = "first"
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    file: str = ""
    line: int = 0


@dataclass
class Project:
    """A dbt project's semantic layer: what was read, and what was not (with file and line)."""

    semantic_models: list[SemanticModel]
    metrics: list[Metric]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    dialect: str = "duckdb"  # the dialect the YAML's SQL expressions are written in

    @cached_property
    def model_by_name(self) -> dict[str, SemanticModel]:
        return {m.name: m for m in self.semantic_models}

    @cached_property
    def metric_by_name(self) -> dict[str, Metric]:
        return {m.name: m for m in self.metrics}

    @cached_property
    def measure_owner(self) -> dict[str, SemanticModel]:
        return {measure.name: model for model in self.semantic_models for measure in model.measures}

    def measure(self, name: str) -> Measure:
        owner = self.measure_owner[name]
        return next(m for m in owner.measures if m.name == name)
