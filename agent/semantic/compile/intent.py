"""StructuredIntent: what a question asks for, in the semantic model's own names.

An LLM or the offline extractor fills it in; `validate_intent` says, in plain sentences,
what does not fit the model before anything is compiled.
"""

from __future__ import annotations

import calendar
import re

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from agent.semantic.compile.definitions import Definition, problems_of, with_definitions
from agent.semantic.compile.filters import Filter as Filter  # re-exported: where intents are built, filters are too
from agent.semantic.model.runtime import SemanticModel

class MonthDay(BaseModel):
    """A day of the calendar in any year ('December 20')."""

    month: int = Field(ge=1, le=12)
    day: int = Field(ge=1, le=31)


class RelativePeriod(BaseModel):
    """How a period counted back from the data's latest date was said ('last month', 'the last 3
    months'); the dates it came to are `TimeFilter.start` and `end`."""

    words: str
    grain: Literal["day", "week", "month", "quarter", "year"]
    count: int = Field(default=1, ge=1)

    @property
    def whole(self) -> bool:
        """'last year', 'the previous quarter': the latest whole month, quarter or year, never one still running."""
        return self.count == 1 and self.grain in ("month", "quarter", "year") and bool(
            re.match(r"^(?:the\s+)?(?:last|previous|past|prior)\b", self.words.strip(), re.I))


class TimeFilter(BaseModel):
    """Calendar restrictions on the metric table's own time columns."""

    year: int | None = None
    years: list[int] = Field(default_factory=list)  # several years ('1993 through 1997'), when not one
    # open-ended years, both bounds included: 'since 2010' is from 2010, 'before 2000' until 1999
    from_year: int | None = None
    until_year: int | None = None
    months: list[int] = Field(default_factory=list)
    days: list[int] = Field(default_factory=list)
    hours: list[int] = Field(default_factory=list)
    weekdays: list[int] = Field(default_factory=list)  # ISO: 1 = Monday … 7 = Sunday
    # a run of calendar days in any year, both ends included; it may wrap the year ('Dec 20 to Jan 5')
    from_day: MonthDay | None = None
    to_day: MonthDay | None = None
    # absolute dates on the table's own date (agg_time), both ends included
    start: date | None = None
    end: date | None = None
    relative: RelativePeriod | None = None  # set when start/end were counted back from the latest date

    @model_validator(mode="after")
    def _in_range(self) -> "TimeFilter":
        if (self.from_day is None) != (self.to_day is None):
            raise ValueError("a run of days needs both its first and its last day")
        if (self.start is None) != (self.end is None):
            raise ValueError("a date range needs both its start and its end")
        if self.start is not None and self.end is not None and self.start > self.end:
            raise ValueError("a date range must start before it ends")
        for name, values, low, high in (
            ("months", self.months, 1, 12),
            ("days", self.days, 1, 31),
            ("hours", self.hours, 0, 23),
            ("weekdays", self.weekdays, 1, 7),
        ):
            if any(not low <= v <= high for v in values):
                raise ValueError(f"{name} must be between {low} and {high}")
        self.years = sorted(set(self.years))
        self.months = sorted(set(self.months))
        self.days = sorted(set(self.days))
        self.hours = sorted(set(self.hours))
        self.weekdays = sorted(set(self.weekdays))
        return self

    def is_empty(self) -> bool:
        return self.year is None and self.from_day is None and self.start is None and self.relative is None and not (
            self.months or self.days or self.hours or self.weekdays or self.years) and self.from_year is None \
            and self.until_year is None


class OrderBy(BaseModel):
    field: str  # a metric or dimension of the intent
    descending: bool = False


class MetricFilter(BaseModel):
    """A condition on an aggregated metric (SQL HAVING): 'airlines with more than 20,000 flights'."""

    metric: str
    op: Literal["=", "!=", ">", ">=", "<", "<="]
    value: float


class Side(BaseModel):
    """The conditions of one side of a contrast ('JFK departures', 'in Q2')."""

    filters: list[Filter] = Field(default_factory=list)
    time: TimeFilter | None = None

    def period(self) -> tuple[int, int] | None:
        """Where this side sits on the calendar (its year, 0 when unsaid; its last month), to tell the later
        of two periods; None for a side that is no period of its own."""
        time = self.time
        if time is None or self.filters or (time.year is None and not time.months):
            return None
        return time.year or 0, max(time.months, default=0)


class Contrast(BaseModel):
    """One metric under two conditions set against each other. ratio: first / second; difference:
    first - second; pct_change: (first - second) / second * 100; share: first / all (second empty);
    side_by_side: the two values beside each other, nothing computed between them ('rides per city, 2023
    vs 2024'). Grouped, every kind but a share shows both sides' values before what it computes."""

    kind: Literal["ratio", "difference", "pct_change", "share", "side_by_side"]
    metric: str
    first: Side
    second: Side = Field(default_factory=Side)
    percent: bool = Field(default=False, description="a share asked for in percent ('what percent of …'): 0 to 100")


class StructuredIntent(BaseModel):
    """What a question asks, in the model's names (v2: HAVING, period comparisons, contrasts,
    counting groups, top-N per group)."""

    definitions: list[Definition] = Field(
        default_factory=list, description="measures and conditions the question defines itself, over one semantic "
                                          "model's columns ('availqty * supplycost', 'late = receiptdate > commitdate'); "
                                          "their names can then be used as metrics and dimensions")
    metrics: list[str] = Field(default_factory=list, description="metric names to compute")
    dimensions: list[str] = Field(default_factory=list, description="dimension names to group by")
    filters: list[Filter] = Field(default_factory=list, description="row conditions on dimensions")
    time: TimeFilter | None = Field(default=None, description="calendar restrictions (year, months, days, ...)")
    time_dimension: str | None = Field(
        default=None, description="the time dimension calendar restrictions and time grains are about, when the "
                                  "question names one other than the metric's own date ('shipped in 1996')")
    having: list[MetricFilter] = Field(default_factory=list, description="conditions on aggregated metrics")
    absent: list[str] = Field(default_factory=list, description="tables none of whose rows may point at a "
                                                                "measured row ('customers who never placed an order')")
    compare: Literal["previous_period", "previous_year"] | None = Field(
        default=None, description="add the previous period's value, the change and the % change")
    contrast: Contrast | None = Field(default=None, description="a ratio, difference or % change of two sides")
    count_groups: bool = Field(default=False, description="answer how many groups pass the conditions")
    share_of_total: bool = Field(default=False, description="add each group's share (%) of the total over all "
                                                            "groups ('what % of revenue came from each region')")
    drop_unknown_groups: bool = Field(default=False, description="leave out groups whose key is unknown (NULL)")
    order_by: list[OrderBy] = Field(default_factory=list)
    limit: int | None = Field(default=None, ge=1)
    limit_per: str | None = Field(default=None, description="a dimension: keep `limit` rows within each of its values")

    def all_metrics(self) -> list[str]:
        extra = [h.metric for h in self.having] + ([self.contrast.metric] if self.contrast else [])
        return list(dict.fromkeys(self.metrics + extra))


def base_table(intent: StructuredIntent, model: SemanticModel) -> str | None:
    """The table every metric of the intent aggregates, or None when they disagree."""
    model = with_definitions(model, intent.definitions)
    tables = {model.metric_by_name[m].table for m in intent.all_metrics() if m in model.metric_by_name}
    return tables.pop() if len(tables) == 1 else None


def validate_intent(intent: StructuredIntent, model: SemanticModel) -> list[str]:
    """Problems that stop the intent from compiling, as sentences; [] when it is fine."""
    problems: list[str] = problems_of(intent.definitions, model)
    if problems:
        return problems
    model = with_definitions(model, intent.definitions)
    if not intent.all_metrics():
        problems.append("The question names no measure to compute.")
    unknown_metrics = [m for m in intent.all_metrics() if m not in model.metric_by_name]
    problems += [f"'{m}' is not a metric of the semantic model." for m in unknown_metrics]
    sides = [intent.contrast.first, intent.contrast.second] if intent.contrast else []
    fields = list(intent.dimensions) + [f.field for f in intent.filters + [g for s in sides for g in s.filters]]
    unknown_dims = [d for d in dict.fromkeys(fields) if d not in model.dimension_by_name]
    problems += [f"'{d}' is not a dimension of the semantic model." for d in unknown_dims]
    if len(set(intent.dimensions)) != len(intent.dimensions):
        problems.append("A dimension is listed twice.")
    if unknown_metrics or not intent.all_metrics():
        return problems

    table = base_table(intent, model)
    if table is None:
        tables = sorted({model.metric_by_name[m].table for m in intent.all_metrics()})
        return problems + [f"The metrics come from different tables ({', '.join(tables)}) and cannot share one query."]
    filtered = {f.field for f in intent.filters}
    for name in dict.fromkeys(fields):
        if name in filtered and name not in intent.dimensions and model.reaches_back(name, table):
            continue  # a filter across a one-to-many join is a semi-join: 'planes United flew'
        if name in model.dimension_by_name and model.resolve(name, table) is None:
            label = model.dimension_by_name[name].label
            problems.append(
                f"{label.capitalize()} cannot be combined with {table} metrics without counting rows twice."
            )
    for flt in intent.filters:
        dim = model.dimension_by_name.get(flt.field)
        if dim is not None and flt.op in (">", ">=", "<", "<=", "between") and dim.kind == "categorical":
            problems.append(f"{dim.label.capitalize()} is not a number, so it cannot be compared with '{flt.op}'.")
    if intent.time_dimension is not None:
        dim = model.dimension_by_name.get(intent.time_dimension)
        if dim is None or dim.kind != "time":
            problems.append(f"'{intent.time_dimension}' is not a time dimension of the semantic model.")
        elif model.resolve(intent.time_dimension, table) is None:
            problems.append(f"{dim.label.capitalize()} cannot date {table} rows without counting them twice.")
    if intent.time is not None and not intent.time.is_empty() and intent.time_dimension is None:
        spec = model.table_by_name[table]
        years = intent.time.year or intent.time.years or intent.time.from_year or intent.time.until_year
        needed = [g for g, v in (("year", years), ("month", intent.time.months),
                                 ("day", intent.time.days), ("hour", intent.time.hours)) if v]
        if intent.time.weekdays:
            needed += [g for g in ("year", "month", "day") if g not in needed]  # the date gives the weekday
        if intent.time.from_day is not None:
            needed += [g for g in ("month", "day") if g not in needed]
        missing = [] if spec.agg_time else [g for g in needed if g not in spec.time]
        if missing:
            problems.append(f"The {table} table has no {' or '.join(missing)} to filter on.")
        if intent.time.start is not None and not spec.agg_time:
            problems.append(f"The {table} table has no date to filter a range of dates on.")
    undated = [g[1] for d in intent.dimensions if (g := model.time_grain(d)) is not None]
    if undated and intent.time_dimension is None and not model.table_by_name[table].agg_time:
        # 'offers per year' where offers carry no date column (a date kept as text): said, never a crash
        problems.append(f"The {table} rows have no date column, so they cannot be told by {undated[0].removeprefix('extract_')}.")
    hourly = [d for d in intent.dimensions if (model.time_grain(d) or ("", ""))[1] in ("hour", "extract_hour")]
    if (hourly or (intent.time is not None and intent.time.hours)) and not model.has_times_of_day(
            table, intent.time_dimension):
        problems.append(f"The {table} data has dates but no times of day, so it cannot be told by hour.")
    for other in intent.absent:
        if not any(j.from_table == other and j.to_table == table for j in model.joins):
            problems.append(f"No {other} rows point at {table} rows, so '{other}' cannot be missing from them.")
    if intent.share_of_total and not intent.dimensions:
        problems.append("A share of the total needs groups to share it out (by what should it be split?).")
    if intent.having and not intent.dimensions:
        problems.append("A condition on a total needs groups to apply to (by what should it be checked?).")
    selected = set(intent.all_metrics()) | set(intent.dimensions)
    suffixes = ("previous", "change", "pct_change", "ratio", "difference", "share", "pct")
    derived = {f"{m}__{suffix}" for m in selected for suffix in suffixes} | set(contrast_columns(intent))
    for order in intent.order_by:
        if order.field not in selected | derived:
            problems.append(f"Ordering by '{order.field}' needs it among the metrics or dimensions.")
    return problems


def side_suffix(side: Side) -> str:
    """A side's conditions as a column-name suffix ('2023', 'q1_2024', 'jfk'): what the person said
    apart, so the two columns read as the two sides."""
    parts: list[str] = []
    for flt in side.filters:
        parts += [_slug(str(v)) for v in flt.values]
    time = side.time
    if time is not None:
        quarter = next((f"q{q + 1}" for q in range(4) if time.months == [3 * q + 1, 3 * q + 2, 3 * q + 3]), None)
        parts += [quarter] if quarter else [calendar.month_abbr[m].lower() for m in time.months]
        parts += [str(y) for y in ([time.year] if time.year is not None else time.years)]
    return "_".join(p for p in parts if p)


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.lower()).strip("_")


def side_columns(contrast: Contrast) -> tuple[str, str]:
    """The names of the columns that show each side's own value; 'first'/'second' when the sides'
    words do not tell them apart."""
    first, second = side_suffix(contrast.first), side_suffix(contrast.second)
    if not first or not second or first == second:
        first, second = "first", "second"
    return f"{contrast.metric}__{first}", f"{contrast.metric}__{second}"


def contrast_columns(intent: StructuredIntent) -> list[str]:
    """The result columns a contrast adds: each side's value when they are shown (grouped, or side by
    side), then what it computes (none when side by side)."""
    c = intent.contrast
    if c is None:
        return []
    sides = list(side_columns(c)) if c.kind == "side_by_side" or (intent.dimensions and c.kind != "share") else []
    return sides + ([] if c.kind == "side_by_side" else [f"{c.metric}__{contrast_suffix(c)}"])


def contrast_suffix(contrast: Contrast) -> str:
    """The contrast column's suffix: its kind, or 'pct' for a share asked in percent."""
    return "pct" if contrast.kind == "share" and contrast.percent else contrast.kind


def contrast_column(contrast: Contrast) -> str:
    """The column a ranking of the contrast ranks: what it computes, or the first side's value when it
    computes nothing (side by side)."""
    if contrast.kind == "side_by_side":
        return side_columns(contrast)[0]
    return f"{contrast.metric}__{contrast_suffix(contrast)}"
