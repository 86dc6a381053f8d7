"""The offline parser's flat view of a semantic layer: tables, joins, dimensions, metrics and words.

`layer.load_layer` derives it from dbt Semantic Layer YAML (and keeps the dbt project on
it for the compiler). Building it checks the view against itself (every metric's table,
every join, every dimension source names something declared); `check_against` checks it
against the real warehouse schema, so a renamed column is reported by name instead of
failing a query.
"""

from __future__ import annotations

import re
from functools import cached_property
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, Literal, TypeVar

import sqlglot
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlglot import exp

from agent.errors import AssistantError
from agent.text.phrases import phrase
from agent.text.words import inflections, lemmas, noun_forms, split_name
from agent.warehouse import Schema

Aggregation = Literal["avg", "median", "sum", "max", "min", "count"]


TIME_GRAINS = ("hour", "day", "week", "month", "quarter", "year", "extract_dow", "extract_hour")


def _names_another_thing(qualifiers: list[str], thing: set[str]) -> bool:
    """'winner name' on an episodes table names a person, not the episode; 'full name', 'baker name' on a
    bakers table, 'product name' on products name the row itself (a noun that is not the row's own)."""
    return any("NOUN" in lemmas(word) and "ADJ" not in lemmas(word) and word not in thing for word in qualifiers)


class SemanticModelError(AssistantError):
    """The semantic model file is malformed or disagrees with the warehouse."""

    code = "semantic_model"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSpec(_Strict):
    name: str  # the semantic model's name
    relation: str | None = None  # the warehouse table it reads (defaults to the name)
    label: str
    primary_key: list[str] = []
    entity_words: list[str] = []  # what one row is called: "per flight" means no grouping
    count_metric: str | None = None
    # how to count this table's things from another table's rows ({flights: distinct_planes})
    counted_from: dict[str, str] = {}
    time: dict[Literal["year", "month", "day", "hour"], str] = {}  # calendar parts -> dimension names
    agg_time: str | None = None  # the time dimension its measures are dated by
    entity: str | None = None  # the dbt entity one row stands for ('customer'): 'customer__r_name' goes through it
    description: str = ""
    related: dict[str, str] = {}  # other words for its rows (descriptions, thesaurus) -> where each came from
    bridge: list[str] = []  # a link table: the entities it links ('movie' for movie_genres), whose rows it tags

    @property
    def table(self) -> str:
        return self.relation or self.name


class JoinSpec(_Strict):
    """A many-to-one join: `to` is joined on columns covering its primary key."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    name: str
    from_table: str = Field(alias="from")
    to_table: str = Field(alias="to")
    keys: list[tuple[str, str]]  # (column on `from`, column on `to`)


class DimensionSource(_Strict):
    table: str
    expr: str
    join: str | None = None  # needed when the table is reached by more than one join


class ValueLabels(_Strict):
    """Where readable names of a dimension's codes live (airline names for carrier codes)."""

    table: str
    key: str
    label: str


class Dimension(_Strict):
    name: str
    label: str
    # flag: a true/false expression ('took off'); its label and synonyms say when it is true
    kind: Literal["categorical", "numeric", "time", "flag"] = "categorical"
    sources: list[DimensionSource]
    synonyms: list[str] = []
    grain_words: list[str] = []
    unit: str | None = None
    values: bool = False  # values are read from the warehouse to match what people type
    value_labels: ValueLabels | None = None
    value_aliases: dict[str, str | list[str]] = {}  # a word for a value; for several, they are asked between
    value_cues: list[str] = []  # words before a value that point here ("from JFK" -> origin)
    comparatives: list[str] = []  # words that compare this measure alone ("longer than 5 hours" -> air_time)
    description: str = ""
    related: dict[str, str] = {}  # other words for it (descriptions, thesaurus) -> where each came from
    identifier: bool = False  # a table's own key, to tell its things apart ('which pizza' where pizzas have no name)
    # a number of things (a quantity): its total answers 'how many pizzas did we sell' (thesaurus `counting_measures:`)
    counts_things: bool = False

    @model_validator(mode="before")
    @classmethod
    def _single_source_shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and "table" in data:
            data = dict(data)
            source = {"table": data.pop("table"), "expr": data.pop("expr", data.get("name"))}
            data["sources"] = [source]
        return data


class Metric(_Strict):
    name: str
    label: str
    table: str
    expr: str
    filter: str | None = None
    measure: str | None = None  # the numeric dimension this metric aggregates
    agg: Aggregation | None = None
    default: bool = False  # the metric meant when the measure is named without an aggregation
    synonyms: list[str] = []
    higher_is_better: bool = False  # meta 'better: higher': 'best first' ranks it from the top


class Unit(_Strict):
    unit: str
    factor: float = 1


class SaidOf(_Strict):
    """A measure adjective several measures could be meant by ('fastest': a flight's speed, the wind's)."""
    descending: bool
    measures: list[str]


class Ranking(_Strict):
    descending: list[str]
    ascending: list[str]
    implies_measure: dict[str, str] = {}
    # an adjective of several measures: it ranks one only where the answer already measures it ('fastest 5'
    # after average speed by route), never alone
    said_of: dict[str, SaidOf] = {}
    # quantity words: before a plural noun they count its distinct values ("the most routes"),
    # where other ranking words describe it ("the busiest routes")
    counting: list[str] = []
    # what people want more of ('sales', 'rating'): read when the model is built, for `Metric.higher_is_better`
    higher_is_better: list[str] = []
    busy: list[str] = []  # 'the busiest doctor': ranked by the rows of the dated table pointing at it


class SemanticModel(_Strict):
    tables: list[TableSpec]
    joins: list[JoinSpec]
    dimensions: list[Dimension]
    metrics: list[Metric]
    aggregations: dict[Aggregation, list[str]]
    ranking: Ranking
    seasons: dict[str, list[int]] = {}
    time_grains: dict[str, list[str]] = {}  # generic grain words ('monthly') for time dimensions
    named_days: dict[str, tuple[int, int]] = {}  # 'christmas day' -> (12, 25): dates fixed in the calendar
    moving_holidays: list[str] = []  # holidays whose date moves ('thanksgiving'): asked back, never guessed
    relative_cues: list[str] = []  # 'last', 'past', 'this': a period counted back from the latest date
    relative_grains: dict[Literal["day", "week", "month", "quarter", "year"], list[str]] = {}
    relative_so_far: list[str] = []  # 'so far', 'to date': beside a relative period, nothing more
    short_forms: dict[str, str] = {}  # 'amt' -> 'amount', 'dmg' -> 'damage': the vocabulary's and the comments'
    unsupported_topics: dict[str, list[str]] = {}
    default_metric: str | None = None  # measured when a question ranks or groups but names no measure
    context_words: list[str] = []  # describe the whole data set, so they need no filter
    data_names: list[str] = []  # the warehouse's own names for its data (schema, database): 'in the catalog'
    units: dict[str, "Unit"] = {}  # words after a number ('hours') and their size in a model unit
    name_suffixes: list[str] = []  # trailing words of names people leave out ('Inc', 'Airways')
    everyday_words: list[str] = []  # words that are codes only after a cue ('to den')
    shapes: dict[str, list[str]] = {}  # words that shape a question (share, ratio, month over month)
    meaning_words: list[str] = []  # words that must be understood or the question is not answered
    function_words: frozenset[str] = frozenset()  # words with no meaning of their own here (grammar, the rows' verbs)
    coverage: dict[str, list[str]] = {}  # fillers, event verbs, label suffixes: words the coverage rule lets be
    # a count of distinct values for each categorical dimension no declared metric counts (layer.py)
    implicit_metrics: list[Metric] = []
    distinct_words: list[str] = []  # 'different', 'unique': a count of distinct values, not of rows
    text_patterns: dict[str, list[str]] = {}  # 'ends in' -> ends_with: conditions on part of a text
    project: Any = Field(default=None, exclude=True, repr=False)  # the dbt project the compiler reads
    words_source: Any = Field(default=None, exclude=True, repr=False)  # the vocabulary it was built with, to extend it

    @model_validator(mode="after")
    def _references_resolve(self) -> "SemanticModel":
        problems: list[str] = []
        for kind, entries in (
            ("tables", self.tables),
            ("joins", self.joins),
            ("dimensions", self.dimensions),
            ("metrics", self.metrics),
        ):
            seen: set[str] = set()
            for entry in entries:
                if entry.name in seen:
                    problems.append(f"{kind}: the name '{entry.name}' is used twice")
                seen.add(entry.name)
        tables = {t.name for t in self.tables}
        joins = {j.name: j for j in self.joins}
        dims = {d.name: d for d in self.dimensions}
        metrics = {m.name for m in self.metrics}
        for table in self.tables:
            for counted in [table.count_metric, *table.counted_from.values()]:
                if counted and counted not in metrics:
                    problems.append(f"table '{table.name}': '{counted}' is not a metric")
        if self.default_metric and self.default_metric not in metrics:
            problems.append(f"default_metric '{self.default_metric}' is not a metric")
        for join in self.joins:
            for side in (join.from_table, join.to_table):
                if side not in tables:
                    problems.append(f"join '{join.name}': table '{side}' is not declared")
            to_spec = next((t for t in self.tables if t.name == join.to_table), None)
            if to_spec is not None and set(to_spec.primary_key) != {right for _, right in join.keys}:
                problems.append(
                    f"join '{join.name}': must join on the primary key of '{join.to_table}' "
                    f"({', '.join(to_spec.primary_key) or 'none declared'}) so it cannot multiply rows"
                )
        for dim in self.dimensions:
            for source in dim.sources:
                if source.table not in tables:
                    problems.append(f"dimension '{dim.name}': table '{source.table}' is not declared")
                if source.join is not None:
                    through = joins.get(source.join)
                    if through is None:
                        problems.append(f"dimension '{dim.name}': join '{source.join}' is not declared")
                    elif through.to_table != source.table:
                        problems.append(
                            f"dimension '{dim.name}': join '{source.join}' leads to '{through.to_table}', "
                            f"not '{source.table}'"
                        )
        for metric in self.metrics:
            if metric.table not in tables:
                problems.append(f"metric '{metric.name}': table '{metric.table}' is not declared")
            if metric.measure is not None:
                if metric.measure not in dims:
                    problems.append(f"metric '{metric.name}': measure '{metric.measure}' is not a dimension")
                if metric.agg is None:
                    problems.append(f"metric '{metric.name}': a measure needs an agg")
        for word, implied in self.ranking.implies_measure.items():
            if implied not in dims:
                problems.append(f"ranking word '{word}': measure '{implied}' is not a dimension")
        for season, months in self.seasons.items():
            if not months or any(not 1 <= m <= 12 for m in months):
                problems.append(f"season '{season}': months must be between 1 and 12")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    # -- look-ups ----------------------------------------------------------------------------

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every word the model itself uses to name things (lower case): metric, dimension and
        table words, aggregation and ranking words. Value aliases are names of data, not words
        of the model, so they are left out."""
        texts: list[str] = []
        for metric in self.metrics:
            texts += [metric.name, metric.label, *metric.synonyms]
        for dim in self.dimensions:
            texts += [dim.name, dim.label, *dim.synonyms, *dim.grain_words, *([dim.unit] if dim.unit else [])]
        for table in self.tables:
            texts += [table.name, *table.entity_words]
        for words in self.aggregations.values():
            texts += words
        texts += [*self.ranking.descending, *self.ranking.ascending, *self.seasons]
        return frozenset(word for text in texts for word in re.findall(r"[a-z]+", text.lower()))

    @cached_property
    def phrases(self) -> "Said[tuple[str, ...]]":
        """The model's own words in the reader's token form ('as of now' -> ('as', 'of', 'now')): its fixed
        word lists made when first asked for, any other text of it when first named. The reader's passes
        read them here on every question instead of tokenizing the same words again (issue 23)."""
        return Said(phrase, [*self._word_lists(), *self._thing_names()])

    @cached_property
    def noun_phrases(self) -> "Said[frozenset[tuple[str, ...]]]":
        """A text of the model as phrases with its last word in each of its noun forms ('flight' ->
        flight, flights), made once per text."""
        return Said(_noun_phrases, self._thing_names())

    @cached_property
    def name_words(self) -> "Said[str]":
        """The words of one of the model's names ('departure_hour' -> 'departure hour'), split once per name."""
        return Said(split_name)

    def _word_lists(self) -> Iterator[str]:
        """Every text of the model's fixed word lists: what a question's passes look for in it."""
        yield from (text for texts in self.shapes.values() for text in texts)
        ranking = self.ranking
        for texts in (ranking.descending, ranking.ascending, ranking.implies_measure, ranking.counting, ranking.busy,
                      self.distinct_words, self.relative_cues, self.relative_so_far, self.moving_holidays,
                      self.meaning_words, self.context_words, *self.text_patterns.values()):
            yield from texts

    def _thing_names(self) -> Iterator[str]:
        """What the model calls its things: each dimension's label and each table's words for its rows."""
        yield from (dim.label for dim in self.dimensions)
        yield from (word for table in self.tables for word in table.entity_words)

    @cached_property
    def described_words(self) -> frozenset[str]:
        """Words of the descriptions and names of the warehouse's tables and columns: what the data set
        is about ('the menu', 'the catalog'), for the coverage rule's 'on the menu'."""
        texts = [t.description for t in self.tables] + [d.description for d in self.dimensions]
        texts += [t.table.replace(".", " ").replace("_", " ") for t in self.tables]
        texts += [name.replace("_", " ") for name in self.data_names]
        return frozenset(w for text in texts for w in re.findall(r"[a-z]+", text.lower()))

    @cached_property
    def unit_words(self) -> dict[str, tuple[str, float]]:
        """Words after a number and (unit, factor): the vocabulary's units, plus each dimension's
        own unit word in both forms ('seats', 'seat') at factor 1."""
        words = {word: (unit.unit, unit.factor) for word, unit in self.units.items()}
        for dim in self.dimensions:
            if dim.unit:
                for form in {dim.unit, dim.unit[:-1] if dim.unit.endswith("s") else dim.unit + "s"}:
                    words.setdefault(form.lower(), (dim.unit, 1))
        return words

    @cached_property
    def metric_by_name(self) -> dict[str, Metric]:
        return {m.name: m for m in self.implicit_metrics + self.metrics}

    @cached_property
    def dimension_by_name(self) -> dict[str, Dimension]:
        """Declared dimensions, plus 'metric_time__<grain>' for tables dated by a time dimension
        ('monthly' groups by the month of each measure's own date), plus, on demand, a dimension
        reached through an entity ('customer__r_name': the region of the customer, not of the supplier)."""
        found: dict[str, Dimension] = _Dimensions(self)
        found.update({d.name: d for d in self.dimensions})
        sources = [s for s in (self.dated_by(t.name) for t in self.tables) if s is not None]
        if sources:
            for grain in TIME_GRAINS:
                name = f"metric_time__{grain}"
                label = {"extract_dow": "day of the week", "extract_hour": "hour of the day"}.get(grain, grain)
                found.setdefault(name, Dimension(name=name, label=label, kind="time", sources=sources))
        return found

    def dated_by(self, table: str) -> DimensionSource | None:
        """Where the date of a table's rows is read: its own time dimension, or that of the row it
        belongs to ('order__o_orderdate' for order lines, through the join on that entity)."""
        spec = next((t for t in self.tables if t.name == table), None)
        if spec is None or not spec.agg_time:
            return None
        *path, name = spec.agg_time.split("__")
        dim = next((d for d in self.dimensions if d.name == name), None)
        if dim is None:
            return None
        if not path:
            return next((s for s in dim.sources if s.table == table and s.join is None), None)
        join = next((j for j in self.joins if j.from_table == table and j.name == f"{table}__{path[0]}"), None)
        if join is None or len(path) > 1:
            return None
        source = next((s for s in dim.sources if s.table == join.to_table), None)
        return None if source is None else DimensionSource(table=source.table, expr=source.expr, join=join.name)

    @cached_property
    def table_by_name(self) -> dict[str, TableSpec]:
        return {t.name: t for t in self.tables}

    @cached_property
    def join_by_name(self) -> dict[str, JoinSpec]:
        return {j.name: j for j in self.joins}

    def distinct_count_metric(self, dimension: str) -> str | None:
        """The metric counting distinct values of a dimension ('count(DISTINCT dest)'), if any: a
        declared one first, else the implicit one."""
        for metric in self.metrics + self.implicit_metrics:
            expr = " ".join(metric.expr.lower().split())
            for source in self.dimension_by_name[dimension].sources:
                if source.table == metric.table and source.join is None and not metric.filter \
                        and expr == f"count(distinct {' '.join(source.expr.lower().split())})":
                    return metric.name
        return None

    def reaches_back(self, dimension: str, base_table: str) -> bool:
        """Is `dimension` on a table whose rows point at `base_table` rows (one-to-many from here)?
        Then it can filter `base_table` as a semi-join, though never group it."""
        tables = {s.table for s in self.dimension_by_name[dimension].sources} if dimension in self.dimension_by_name \
            else set()
        through, _, _ = dimension.rpartition("__")
        via = self.table_of_entity(through) if through and self.time_grain(dimension) is None else None
        # 'drama movies' rated: the genre of the thing the rows belong to, a tag pointing at that thing
        targets = {base_table} if via is None or self.join_path(base_table, via) is None else {via}
        return any(j.from_table in tables and j.to_table in targets for j in self.joins)

    def is_date(self, name: str) -> bool:
        """A dbt time dimension (a date or timestamp), not a calendar part such as a month number."""
        dim = self.dimension_by_name.get(name)
        if dim is None or dim.kind != "time" or self.project is None:
            return False
        base = name.split("__")[-1]
        return any((d := m.dimension(base)) is not None and d.type == "time" for m in self.project.semantic_models)

    def has_times_of_day(self, table: str, dimension: str | None = None) -> bool:
        """Does the date a table's rows are dated by (or `dimension`) hold a time of day? A column the dbt
        YAML says is kept by the day holds none, whatever its type."""
        if dimension is not None:
            dim = self.dimension_by_name.get(dimension)
            source = next((s for s in dim.sources if s.table == table), dim.sources[0]) if dim else None
        else:
            source = self.dated_by(table)
        if source is None:
            return False
        if self.project is None:
            return True
        dbt_model = self.project.model_by_name.get(source.table)
        found = next((d for d in dbt_model.dimensions if d.expr == source.expr), None) if dbt_model else None
        return found is None or found.granularity not in ("day", "week", "month", "quarter", "year")

    def rate_of(self, metric: str) -> str | None:
        """The model's ratio metric whose numerator is `metric` ('share of flights cancelled' over
        'cancelled flights'), when there is exactly one."""
        if self.project is None:
            return None
        rates = [m.name for m in self.project.metrics if m.type == "ratio" and m.numerator is not None
                 and m.numerator.name == metric and not m.numerator.filters and m.name in self.metric_by_name]
        return rates[0] if len(rates) == 1 else None

    def flag_count(self, flag: str) -> tuple[str, str] | None:
        """The model's count of the rows a yes/no dimension holds for (a sum_boolean of its condition) and
        that count's table, when there is exactly one."""
        dim = self.dimension_by_name.get(flag)
        if dim is None or dim.kind != "flag" or not dim.sources:
            return None
        table, condition = dim.sources[0].table, dim.sources[0].expr
        wanted = "".join(f"sum_boolean({condition})".lower().split())
        found = [m.name for m in self.metrics if m.table == table and "".join((m.expr or "").lower().split()) == wanted]
        return (found[0], table) if len(found) == 1 else None

    def name_dimension(self, table: str) -> str | None:
        """The dimension that names a table's things: its name, else its title ('which movie' -> its
        title); with neither, its key (the key tells them apart)."""
        own = [d for d in self.dimensions if d.kind == "categorical" and any(s.table == table and s.join is None
                                                                             for s in d.sources)]
        thing = {form for text in self.table_by_name[table].entity_words for word in text.lower().split()
                 for form in noun_forms(word)} if table in self.table_by_name else set()
        for word in ("name", "title"):
            found = [d for d in own if not d.identifier
                     and (d.label.lower().split()[-1:] == [word] or d.name.endswith(word))
                     and not _names_another_thing(d.label.lower().split()[:-1], thing)]
            # the thing's own name ('customer name', 'full name') before a part of it ('first name')
            found.sort(key=lambda d: not set(d.label.lower().split()[:-1]) <= thing | {"full"})
            if found:
                return found[0].name
        return next((d.name for d in own if d.identifier), None)

    def table_of_entity(self, entity: str) -> str | None:
        return next((t.name for t in self.tables if t.entity == entity), None)

    def resolve(self, dimension: str, base_table: str) -> tuple[DimensionSource, JoinSpec | None] | None:
        """How `dimension` is reached from rows of `base_table`, or None when it cannot be
        reached without multiplying rows (only declared many-to-one joins are followed)."""
        if dimension not in self.dimension_by_name:
            return None
        dim = self.dimension_by_name[dimension]
        through, _, _ = dimension.rpartition("__")
        if through and self.time_grain(dimension) is None:  # 'customer__r_name': by way of the customer
            via = self.table_of_entity(through)
            if via is None:
                return None
            # a dimension several tables hold ('season' of games and of players) is read on the entity's own
            source = next((s for s in dim.sources if s.table == via and s.join is None), dim.sources[0])
            first = [] if via == base_table else self._path(base_table, via)
            rest = [] if via == source.table else self._path(via, source.table)
            if first is None or rest is None or (not first and not rest and via != source.table):
                return None
            hops = first + rest
            return source, hops[0] if hops else None
        for source in dim.sources:
            if source.table == base_table and source.join is None:
                return source, None
        for source in dim.sources:
            if source.join is not None:
                join = self.join_by_name[source.join]
                if join.from_table == base_table:
                    return source, join
                continue
            candidates = [j for j in self.joins if j.from_table == base_table and j.to_table == source.table]
            if len(candidates) == 1:  # several joins to one table (role-playing) need an explicit one
                return source, candidates[0]
        for source in dim.sources:  # further away: the first join of the shortest many-to-one path
            path = self._path(base_table, source.table)
            if path:
                return source, path[0]
        for source in dim.sources:  # a tag on a link table ('genre' of movie_genres): each row in each of its tags
            if self.tags_rows_of(source.table, base_table):
                return source, None
        return None

    def tags_rows_of(self, bridge: str, base_table: str) -> bool:
        """Does link table `bridge` (meta `bridge`) tag `base_table` rows: does it point at a thing those rows
        are or belong to directly ('movie_genres' tags movies and the ratings of a movie)? Grouped by a tag,
        a row counts once in each of its tags, as people mean 'average rating by genre'."""
        spec = self.table_by_name.get(bridge)
        if spec is None or not spec.bridge or self.project is None:
            return False
        base = self.project.model_by_name.get(base_table)
        link = self.project.model_by_name.get(bridge)
        return base is not None and link is not None and any(
            base.entity(entity) is not None and link.entity(entity) is not None for entity in spec.bridge)

    def join_path(self, start: str, goal: str) -> list[JoinSpec] | None:
        """The one shortest chain of many-to-one joins from `start` to `goal` ([] when they are the same)."""
        return [] if start == goal else self._path(start, goal)

    def _path(self, start: str, goal: str, max_hops: int = 4) -> list[JoinSpec] | None:
        """The one shortest chain of many-to-one joins from `start` to `goal`; None when there is
        none or several (then the dimension must be named through its entity)."""
        frontier: list[list[JoinSpec]] = [[]]
        for _ in range(max_hops):
            frontier = [p + [j] for p in frontier for j in self.joins
                        if j.from_table == (p[-1].to_table if p else start)
                        and j.to_table not in {start, *(x.to_table for x in p)}]
            found = [p for p in frontier if p[-1].to_table == goal]
            if found:
                return found[0] if len(found) == 1 else None
        return None

    @staticmethod
    def time_grain(name: str) -> tuple[str, str] | None:
        """'metric_time__month' -> ('metric_time', 'month'): a time dimension at a grain."""
        base, _, grain = name.rpartition("__")
        return (base, grain) if base == "metric_time" and grain in TIME_GRAINS else None


_Form = TypeVar("_Form")


class Said(dict[str, _Form], Generic[_Form]):
    """One form of each text asked for (`form(text)`), made once and kept. Keyed by the text alone, as the
    form depends on nothing else: a copy of the model that shares it stays right."""

    def __init__(self, form: Callable[[str], _Form], texts: Iterable[str] = ()) -> None:
        super().__init__((text, form(text)) for text in texts)
        self._form = form

    def __missing__(self, text: str) -> _Form:
        made = self[text] = self._form(text)
        return made


def _noun_phrases(text: str) -> frozenset[tuple[str, ...]]:
    return frozenset(inflections(phrase(text)))


class _Dimensions(dict[str, "Dimension"]):
    """Dimensions by name; 'entity__dimension' is made on first use from the dimension and the
    entity's table (its label names both: 'customer region')."""

    def __init__(self, model: "SemanticModel"):
        super().__init__()
        self._model = model

    def __missing__(self, name: str) -> Dimension:
        through, _, base = name.rpartition("__")
        dim: Dimension | None = dict.get(self, base)
        if not through or "__" in through or dim is None or through == "metric_time" \
                or self._model.table_of_entity(through) is None:
            raise KeyError(name)
        # a column several tables hold ('name' of artists and of playlists) is, qualified, the entity's own
        via = self._model.table_of_entity(through)
        own = [s for s in dim.sources if s.table == via and s.join is None] or dim.sources
        qualified = dim.model_copy(update={"name": name, "label": f"{through.replace('_', ' ')} {dim.label}",
                                           "synonyms": [], "value_labels": None, "sources": own})
        self[name] = qualified
        return qualified

    def __contains__(self, name: object) -> bool:
        if dict.__contains__(self, name):
            return True
        try:
            self[name]  # type: ignore[index]  # a non-text name is looked up like any: KeyError or TypeError
        except (KeyError, TypeError):
            return False
        return True

    def get(self, name: str, default: Dimension | None = None) -> Dimension | None:  # type: ignore[override]
        return self[name] if name in self else default


def expression_columns(sql_expr: str) -> set[str]:
    """The column names an expression reads (used to check it and to qualify it)."""
    return {col.name for col in sqlglot.parse_one(sql_expr, read="duckdb").find_all(exp.Column)}


def check_against(model: SemanticModel, schema: Schema) -> list[str]:
    """Every table and column the model names, checked against the warehouse; [] when all exist."""
    problems: list[str] = []

    def columns(table: str) -> set[str] | None:
        cols = schema.columns_of(table)
        return {c.name for c in cols} if cols else None

    def need(owner: str, table: str, names: Iterable[str]) -> None:
        available = columns(table)
        if available is None:
            problems.append(f"{owner}: table '{table}' is not in the warehouse")
            return
        for name in sorted(set(names) - available):
            problems.append(f"{owner}: column '{name}' is not in table '{table}'")

    tables = model.table_by_name
    for table in model.tables:
        keys = [c for key in table.primary_key for c in _columns_or_problem(key, table.name, problems)]
        need(f"semantic model '{table.name}'", table.table, keys)
    for join in model.joins:
        for side, exprs in ((join.from_table, [left for left, _ in join.keys]), (join.to_table, [r for _, r in join.keys])):
            cols = [c for e in exprs for c in _columns_or_problem(e, join.name, problems)]
            need(f"join '{join.name}'", tables[side].table, cols)
    for dim in model.dimensions:
        for source in dim.sources:
            need(f"dimension '{dim.name}'", tables[source.table].table,
                 _columns_or_problem(source.expr, dim.name, problems))
        if dim.value_labels:
            labels = dim.value_labels
            need(f"dimension '{dim.name}' value_labels", labels.table, [labels.key, labels.label])
    for metric in model.metrics:
        if metric.measure is None and "(" not in metric.expr:
            continue  # ratio, derived and cumulative metrics are checked through their inputs
        need(f"metric '{metric.name}'", tables[metric.table].table,
             _columns_or_problem(metric.expr, metric.name, problems))
    return problems


def _columns_or_problem(sql_expr: str, owner: str, problems: list[str]) -> set[str]:
    try:
        return expression_columns(sql_expr)
    except sqlglot.errors.ParseError as exc:
        problems.append(f"'{owner}': expression {sql_expr!r} does not parse: {exc}")
        return set()
