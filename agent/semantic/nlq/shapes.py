"""Question shapes beyond one aggregate, each a small pass over the question and the intent.

The extractor first reads metrics, groupings and filters; these passes then recognise how
the question combines them: names rather than codes ("airline names"), a count narrowed by
a counted metric ("flights got cancelled"), comparisons with the previous period ("month
over month", "the biggest jump"), contrasts of two conditions (ratio, difference, % change,
share), counting the groups that pass a condition, and leaving out unknown groups when
ranking. The words come from the vocabulary (`shapes:` in vocabulary.yaml). Last, any
meaning-changing word or number no pass placed is returned as a reason, so the question is
asked back or declined instead of answered as a different question.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlglot import exp

from agent.semantic.spec.dbt_spec import Project
from agent.semantic.compile.intent import Contrast, Filter, OrderBy, Side, StructuredIntent, TimeFilter, contrast_column
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.compile.sqlgen import dimension_filter
from agent.text.words import lemmas
from agent.text.phrases import phrase
from agent.semantic.nlq.condition_apart import condition_beside_the_rest
from agent.semantic.nlq.days_apart import days_beside, days_named
from agent.semantic.nlq.parse.state import mention_at, phrased
from agent.semantic.spec.where import ParsedFilter

if TYPE_CHECKING:  # the extractor's state: tokens, mentions, used token indexes, filter positions
    from agent.semantic.nlq.parse.draft import Draft
    from agent.semantic.nlq.parse.state import State as _State

_QUARTER = {"q1": [1, 2, 3], "q2": [4, 5, 6], "q3": [7, 8, 9], "q4": [10, 11, 12]}


def refine(intent: StructuredIntent, state: "_State", model: SemanticModel,
           listing: bool = False) -> tuple[StructuredIntent, str | None]:
    words = _Words(state, model)
    intent = _restated_definition(intent, model)
    if (redefined := _redefined(intent, model)) is not None:
        return intent, redefined
    intent = _names_not_codes(intent, words, model, listing)
    intent = _narrowed_count(intent, words, model)
    intent = _previous_period(intent, words, model)
    intent = _contrast(intent, words, model)
    intent = _count_groups(intent, words, model)
    intent = _unknown_groups(intent, model)
    if intent.compare is not None or intent.contrast is not None:  # 'compare …': the comparison read says it
        words.consume(words.find("comparing"))
    if intent.order_by:  # 'biggest first', 'worst first': the direction, already read
        words.consume([(i, i + 1) for i, w in enumerate(words.low) if w in ("first", "last") and i > 0])
    if intent.metrics and all(_counts_distinct(m, model) for m in intent.metrics):
        # 'how many unique donors gave': a distinct count says 'unique' already
        distinct = set(model.distinct_words)
        words.consume([(i, i + 1) for i, w in enumerate(words.low) if w in distinct])
    return intent, _unexplained(words, model)


def _counts_distinct(name: str, model: SemanticModel) -> bool:
    metric = model.metric_by_name.get(name)
    return metric is not None and "distinct" in metric.expr.lower()


_SHAPE_PHRASES: dict[int, tuple[dict[str, list[str]], dict[str, list[tuple[str, ...]]]]] = {}
_KEPT_SHAPES = 16


def _shape_phrases(shapes: dict[str, list[str]]) -> dict[str, list[tuple[str, ...]]]:
    """The model's shape words as phrases, longest first: made once per model, not for every question."""
    known = _SHAPE_PHRASES.get(id(shapes))
    if known is not None and known[0] is shapes:
        return known[1]
    made = {k: sorted((phrase(w) for w in v), key=len, reverse=True) for k, v in shapes.items()}
    if len(_SHAPE_PHRASES) >= _KEPT_SHAPES:
        _SHAPE_PHRASES.pop(next(iter(_SHAPE_PHRASES)))
    _SHAPE_PHRASES[id(shapes)] = (shapes, made)
    return made


class _Words:
    """Phrase look-ups over the question's tokens, and marking tokens as understood."""

    def __init__(self, state: "_State", model: SemanticModel):
        self.state = state
        self.low = [t.low for t in state.tokens]
        self.shapes = _shape_phrases(model.shapes)

    def find(self, shape: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        for words in self.shapes.get(shape, []):
            n = len(words)
            for i in range(len(self.low) - n + 1):
                if tuple(self.low[i:i + n]) == words and not any(s <= i < e for s, e in spans):
                    spans.append((i, i + n))
        return sorted(spans)

    def consume(self, spans: Iterable[tuple[int, int]]) -> None:
        for start, end in spans:
            self.state.consume(*range(start, end))
            for mention in self.state.mentions:
                if start <= mention.start < end:
                    mention.used = True

    def covered(self) -> set[int]:
        covered = set(self.state.used_tokens)
        for mention in self.state.mentions:
            if mention.used:
                covered.update(range(mention.start, mention.end))
        return covered


def _base(intent: StructuredIntent, model: SemanticModel) -> str | None:
    names = intent.all_metrics()
    return model.metric_by_name[names[0]].table if names and names[0] in model.metric_by_name else None


# -- a condition the metric already holds ------------------------------------------------------------------------

def _restated_definition(intent: StructuredIntent, model: SemanticModel) -> StructuredIntent:
    """'percent on time (arr_delay <= 0)': a condition the chosen metric is defined by is its
    definition restated, not a second filter (which would make every share 100%)."""
    if model.project is None or not intent.filters:
        return intent
    defined = {_signature(f.refs[0].name, f.condition) for m in intent.metrics for f in _definition(model.project, m)
               if len(f.refs) == 1}
    kept = [f for f in intent.filters
            if _signature(f.field, dimension_filter(f.field, f.op, tuple(f.values)).condition) not in defined]
    return intent if len(kept) == len(intent.filters) else intent.model_copy(update={"filters": kept})


def _redefined(intent: StructuredIntent, model: SemanticModel) -> str | None:
    """'on-time % by carrier (on time = arrived less than 15 min late)': a condition on the very column a
    metric's own condition is on, said otherwise, is the person's own definition of that metric, never a row
    filter (which would keep only some rows and measure them the model's way). It cannot be applied yet, so
    it is said, with the model's definition, and nothing is answered."""
    if model.project is None or not intent.filters:
        return None
    for name in intent.metrics:
        own = [f for f in _definition(model.project, name) if len(f.refs) == 1]
        fields = {f.refs[0].name for f in own}
        said = [f for f in intent.filters if f.field in fields and f.op in ("<", "<=", ">", ">=")]
        if said:
            metric = model.metric_by_name[name].label.lower()
            column = _label_of(said[0].field, model)
            return (f"You gave your own condition on {column} for {metric}. I can only count {metric} as the "
                    f"model defines it, and using your condition as a filter would answer a different question, "
                    f"so I did not answer. Ask without the condition for the model's {metric}.")
    return None


def _label_of(field: str, model: SemanticModel) -> str:
    dim = model.dimension_by_name.get(field)
    return dim.label if dim is not None else field


def _signature(field: str, condition: exp.Expr) -> tuple[str, str]:
    return field, condition.sql(dialect="duckdb").lower()


def _definition(project: Project, name: str, seen: tuple[str, ...] = ()) -> list[ParsedFilter]:
    metric = project.metric_by_name.get(name)
    if metric is None or name in seen:
        return []
    found = list(metric.filters) + (list(metric.measure.filters) if metric.measure else [])
    for item in [metric.numerator, metric.denominator, *metric.inputs]:
        if item is not None:
            found += list(item.filters) + _definition(project, item.name, seen + (name,))
    return found


# -- names, not codes ----------------------------------------------------------------------------------------

def _names_not_codes(intent: StructuredIntent, words: _Words, model: SemanticModel,
                     listing: bool = False) -> StructuredIntent:
    """'airline names', 'destination airports (by name)', and any list ('list all the airlines'): group
    by the readable label of a coded dimension, the one joined on that very code."""
    spans = words.find("name_words")
    table = _base(intent, model)
    if not (spans or listing) or table is None:
        return intent
    swapped = {}
    for name in intent.dimensions:
        label = label_dimension(name, table, model)
        if label is not None and label not in intent.dimensions:  # 'with airline names' of airline names: kept
            swapped[name] = label
    if not swapped:
        return intent
    words.consume(spans)
    return intent.model_copy(update={
        "dimensions": [kept for d in intent.dimensions for kept in ((d, swapped[d]) if d in swapped else (d,))],
        "order_by": [OrderBy(field=swapped.get(o.field, o.field), descending=o.descending) for o in intent.order_by],
    })


def label_dimension(name: str, table: str, model: SemanticModel) -> str | None:
    """The dimension of the readable labels of a coded one, joined on that very code ('carrier' -> the airline's
    name), or None."""
    dim = model.dimension_by_name[name]
    own = next((s.expr for s in dim.sources if s.table == table), None)
    if dim.value_labels is None or own is None:
        return None
    for candidate in model.dimensions:
        for source in candidate.sources:
            if source.expr != dim.value_labels.label or model.table_by_name[source.table].table != dim.value_labels.table:
                continue
            reached = model.resolve(candidate.name, table)
            if reached is not None and reached[1] is not None and reached[1].keys[0][0] == own:
                return candidate.name
    return None


# -- a count narrowed by a counted metric ----------------------------------------------------------------------

def _narrowed_count(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent:
    """'how many flights got cancelled': the cancelled-flights metric narrows the count of flights;
    both are wanted only when the question joins them with 'and'."""
    if len(intent.metrics) < 2 or "and" in words.low:
        return intent
    counts = {t.count_metric for t in model.tables if t.count_metric}
    narrower = [m for m in intent.metrics if m not in counts and model.metric_by_name[m].filter
                and model.metric_by_name[m].measure is None]
    if not narrower:
        return intent
    tables = {model.metric_by_name[m].table for m in narrower}
    kept = [m for m in intent.metrics if not (m in counts and model.metric_by_name[m].table in tables)]
    return intent.model_copy(update={"metrics": kept})


# -- the previous period -----------------------------------------------------------------------------------------

def _previous_period(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent:
    """'month-over-month change', 'the biggest jump compared with the month before': each value
    beside the previous period's, grouped by that period; a ranking ranks the change."""
    year = words.find("previous_year")
    period = words.find("previous_period")
    if not (year or period) or intent.contrast is not None or not intent.metrics:
        return intent
    dims = list(intent.dimensions)
    if not any(model.dimension_by_name[d].kind == "time" for d in dims):
        grain = _grain_named(words, (year or period)[0], model)
        if grain is None:
            return intent
        dims.insert(0, grain)
    # the comparison carries the change and the % change: '% change' is read with it
    words.consume(year + period + words.find("pct_change") + words.find("difference"))
    order = [OrderBy(field=f"{o.field}__change" if o.field in intent.metrics else o.field, descending=o.descending)
             for o in intent.order_by]
    return intent.model_copy(update={"compare": "previous_year" if year else "previous_period", "dimensions": dims,
                                     "order_by": order})


def _grain_named(words: _Words, span: tuple[int, int], model: SemanticModel) -> str | None:
    """The time dimension a phrase names ('month' in 'month over month')."""
    for word in words.low[span[0]:span[1]]:
        for dim in model.dimensions:
            if dim.kind == "time" and (dim.name == word or word in (phrase(s)[0] for s in dim.synonyms if s)):
                return dim.name
    for word in words.low[span[0]:span[1]]:  # no 'year' dimension of its own: the year of each measure's date
        if word in model.time_grains and f"metric_time__{word}" in model.dimension_by_name:
            return f"metric_time__{word}"
    return None


# -- contrasts: ratio, difference, % change, share --------------------------------------------------------------

# the two sides of a contrast, in the order said, and what the intent keeps once they are taken out of it
_Sides = tuple[tuple[Side, Side], dict[str, object]]


def _contrast(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent:
    shown = words.find("shown_in_percent") if len(intent.metrics) == 1 and model.metric_by_name[
        intent.metrics[0]].expr in ("ratio", "derived") else []
    words.consume(shown)  # 'cancel rate when raining vs dry, in %': a share is shown in percent already
    # 'over 90%': a unit after a number is the number's, never a share
    kinds = [(k, [s for s in words.find(k) if not _a_numbers_unit(s, words) and not _within(s, shown)])
             for k in ("pct_change", "share", "ratio", "difference")]
    found = [(k, spans) for k, spans in kinds if spans]
    intent = _flag_measured(intent, words, model)
    metrics = intent.metrics
    if not found and not intent.compare:
        return _side_by_side(intent, words, model) or _beside_the_rest(intent, words, model)
    if not found or len(metrics) != 1 or intent.compare:
        return intent
    kind, spans = found[0]
    if kind == "share":
        if model.metric_by_name[metrics[0]].expr in ("ratio", "derived"):
            words.consume(spans)  # 'what percent ... on time': the metric is the share already
            return _beside_the_rest(intent, words, model)
        rate = model.rate_of(metrics[0])
        if rate is not None:  # 'percentage of flights cancelled by month': the model's own rate, per group
            words.consume(spans)
            order = [OrderBy(field=rate, descending=o.descending) if o.field == metrics[0] else o for o in intent.order_by]
            return intent.model_copy(update={"metrics": [rate], "order_by": order})
        if model.metric_by_name[metrics[0]].filter:
            return intent  # a share of a filtered count is a rate within each group, not of the total: asked back
        if model.metric_by_name[metrics[0]].agg in ("avg", "median", "min", "max"):
            return intent  # parts of an average do not add up to it: 'what share of … arrived late' is asked back
        if not intent.filters and intent.dimensions:  # 'what % of revenue came from each region'
            # a rate is of each group's own rows ('return rate by category': returns per sale in each), never a
            # group's part of the whole, so it is no share of the total
            rates = set(model.shapes.get("rate", []))
            if any(w in rates for start, end in spans for w in words.low[start:end]):
                return intent  # 'return rate by category': within each category, never its share of all returns: asked
            words.consume(spans)
            return intent.model_copy(update={"share_of_total": True})
        return _share(intent, words, spans)
    sides = _value_sides(intent, words) or _time_sides(intent, words) or _flag_sides(intent, words, model)
    if sides is None:
        return intent
    (first, second), rest = sides
    later_first = kind in ("difference", "pct_change") and "from" in words.low  # 'change from A to B': B vs A
    if later_first:
        first, second = second, first
    if kind in ("difference", "pct_change") and words.find("movement") and (later := _later_period(first, second)):
        first, second = later  # 'hires 2024 vs 2023, how much did each change': a movement is later minus earlier
    if kind == "difference" and words.find("difference_below"):  # 'how much less do A earn than B': B - A
        words.consume(words.find("difference_below"))
        first, second = second, first
    words.consume([s for _, found_spans in found for s in found_spans]
                  + [(i, i + 1) for i, w in enumerate(words.low) if w in ("vs", "versus", "than", "to", "minus")])
    contrast = Contrast(kind=kind, metric=metrics[0], first=first, second=second)
    dims = _not_by_the_sides(rest.get("dimensions", intent.dimensions), first, second, model, _base(intent, model))
    return intent.model_copy(update={
        "metrics": [], "contrast": contrast, "order_by": _ordered_by_contrast(intent, contrast), **rest,
        "dimensions": dims})


def _within(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in spans)


def _a_numbers_unit(span: tuple[int, int], words: _Words) -> bool:
    """'90 %', '90 percent': the span is one word right after a number the reading has used."""
    start, end = span
    tokens = words.state.tokens
    return end - start == 1 and start > 0 and tokens[start - 1].number is not None \
        and {start - 1, start} <= words.state.used_tokens


def _later_period(first: Side, second: Side) -> tuple[Side, Side] | None:
    """The two periods, the later one first; None when they are not two periods of a calendar in order."""
    a, b = first.period(), second.period()
    if a is None or b is None or a == b or (a[0] == 0) != (b[0] == 0):
        return None
    return (first, second) if a > b else (second, first)


def _value_sides(intent: StructuredIntent, words: _Words) -> _Sides | None:
    """Two values of one field ('JFK ... to Newark', 'United than Delta'), in the order said."""
    for index, flt in enumerate(intent.filters):
        if flt.op == "in" and len(flt.values) == 2:
            a, b = flt.values
            if words.state.positions.get((flt.field, str(b)), 0) < words.state.positions.get((flt.field, str(a)), 0):
                a, b = b, a
            filters = intent.filters[:index] + intent.filters[index + 1:]
            sides = (Side(filters=[Filter(field=flt.field, values=[a])]), Side(filters=[Filter(field=flt.field, values=[b])]))
            return sides, {"filters": filters}
    return None


def _beside_the_rest(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent:
    """'average age of bakers who made the final vs everyone else': both groups side by side, one row
    each (grouped by the yes/no condition), when no ratio or difference is asked for."""
    apart = _days_set_apart(intent, words, model)
    if apart is not None:
        return apart
    sides = _flag_sides(intent, words, model)
    if sides is None:
        others = words.find("the_others")
        apart = condition_beside_the_rest(intent, model) if others else None
        if apart is None:
            return intent
        words.consume(others)
        return apart
    (flagged, _), rest = sides
    field = flagged.filters[0].field
    words.consume([(i, i + 1) for i, w in enumerate(words.low) if w in ("vs", "versus", "than")])
    return intent.model_copy(update={**rest, "dimensions": [*intent.dimensions, field]})


_SET_AGAINST = {"vs", "versus", "against"}


def _side_by_side(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent | None:
    """'completed rides per city, 2023 vs 2024': two periods set against each other within groups, with
    nothing asked between them, are two columns beside each other, one row per group; a group with
    nothing in one period still shows it (as none), where one row per group and period would drop it."""
    said = [(i, i + 1) for i, w in enumerate(words.low) if w in _SET_AGAINST] + words.find("side_by_side")
    table = _base(intent, model)
    calendar_parts = set(model.table_by_name[table].time.values()) if table in model.table_by_name else set()
    # groups of things, not of the calendar: 'jan vs jul' by month is the two periods' own rows
    grouped = [d for d in intent.dimensions if model.time_grain(d) is None and d not in calendar_parts
               and getattr(model.dimension_by_name.get(d), "kind", "time") != "time"]
    if len(intent.metrics) != 1 or not said or not grouped or intent.limit is not None:
        return None
    sides = _time_sides(intent, words)
    if sides is None:
        return None
    (first, second), rest = sides
    words.consume(said)
    contrast = Contrast(kind="side_by_side", metric=intent.metrics[0], first=first, second=second)
    return intent.model_copy(update={
        "metrics": [], "contrast": contrast, "order_by": _ordered_by_contrast(intent, contrast), **rest,
        "dimensions": _not_by_the_sides(rest.get("dimensions", intent.dimensions), first, second, model, table)})


def _not_by_the_sides(dimensions: object, first: Side, second: Side, model: SemanticModel,
                      table: str | None) -> list[str]:
    """The groups left once two periods are the sides: a grouping by the calendar part they differ in ('jan vs
    jul': by month) would split each side onto rows of its own, none holding both."""
    dims = [str(d) for d in dimensions] if isinstance(dimensions, list) else []
    a, b = first.time, second.time
    if a is None or b is None:
        return dims
    parts = {p for p, x, y in (("year", (a.year, a.years), (b.year, b.years)), ("month", a.months, b.months))
             if x != y}
    spec = model.table_by_name.get(table or "")
    own = {d for p, d in (spec.time.items() if spec is not None else ()) if p in parts}
    return [d for d in dims if d not in own and (model.time_grain(d) or ("", ""))[1].removeprefix("extract_")
            not in parts]


def _days_set_apart(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent | None:
    """'avg dep delay at lga weekends vs weekdays', 'cancellations on saturdays vs the rest': the days said
    first against the days said after (or every other day), one row each."""
    if intent.time is None or not intent.time.weekdays:
        return None
    covered = words.covered()
    at = next((i for i, w in enumerate(words.low) if w in _SET_AGAINST and i not in covered), None)
    if at is None:
        return None
    others = [span for span in words.find("the_others") if span[0] <= at < span[1]]
    after = at + 1 + (at + 1 < len(words.low) and words.low[at + 1] == "the")
    second = days_named(words.low[after]) if after < len(words.low) else None
    if second is None and not others:
        return None
    apart = days_beside(intent, intent.time.weekdays, second or [], model)
    if apart is None:
        return None
    updated, _ = apart
    if second is not None:  # 'weekdays' after 'vs' is the other side, not a grouping by day of the week
        said = mention_at(words.state, after)
        named = {e.name for e in said.of("dimension")} if said is not None and said.start == after else set()
        updated = updated.model_copy(update={"dimensions": [d for d in updated.dimensions if d not in named]})
        words.consume([(at, after + 1)])
    else:
        words.consume(others)
    return updated


def _flag_measured(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent:
    """'how many times higher is attrition for people who work overtime than for those who don't': of two
    yes/no conditions, one set against the rows it leaves out, the one said first is what is measured: the
    model's rate of it (the share of rows it holds for) on each side."""
    flags = [f for f in intent.filters if f.op == "=" and f.values == [True]
             and f.field in model.dimension_by_name and model.dimension_by_name[f.field].kind == "flag"]
    if len(flags) != 2 or not words.find("the_others"):
        return intent
    said = {e.name: m.start for m in words.state.mentions for e in m.of("flag")}
    measured = min(flags, key=lambda f: said.get(f.field, len(words.low)))
    counted = model.flag_count(measured.field)
    rate = model.rate_of(counted[0]) if counted else None
    if rate is None:
        return intent
    return intent.model_copy(update={"metrics": [rate], "filters": [f for f in intent.filters if f is not measured]})


def _flag_sides(intent: StructuredIntent, words: _Words, model: SemanticModel) -> _Sides | None:
    """A yes/no condition against the rows it leaves out ('attrition for people who work overtime than for
    those who don't', 'bakers who made the final vs everyone else'): the flagged rows first."""
    flagged = [i for i, f in enumerate(intent.filters) if f.op == "=" and f.values == [True]
               and f.field in model.dimension_by_name and model.dimension_by_name[f.field].kind == "flag"]
    if len(flagged) != 1:
        return None
    index = flagged[0]
    field = intent.filters[index].field
    others = words.find("the_others") or _the_opposite_doers(words, field, model)
    if not others:
        return None
    words.consume(others)
    filters = intent.filters[:index] + intent.filters[index + 1:]
    sides = (Side(filters=[Filter(field=field, values=[True])]), Side(filters=[Filter(field=field, values=[False])]))
    return sides, {"filters": filters}


def _the_opposite_doers(words: _Words, field: str, model: SemanticModel) -> list[tuple[int, int]]:
    """'than people who stayed' of a flag told as 'left the company': 'than … who <verb>' with a verb of
    opposite meaning (vocabulary shapes.opposite_verbs) to the one the flag's words start with."""
    flag_verbs = {lemma for words_said in model.dimension_by_name[field].related if len(words_said.split()) > 1
                  for lemma in lemmas(words_said.split()[0]).get("VERB", ())}
    opposite = {b if a in flag_verbs else a for pair in model.shapes.get("opposite_verbs", [])
                for a, b in [pair.split()] if a in flag_verbs or b in flag_verbs}
    low = words.low
    for i, word in enumerate(low):
        if word != "than":
            continue
        for j in range(i + 1, min(i + 5, len(low) - 1)):
            if low[j] == "who" and set(lemmas(low[j + 1]).get("VERB", ())) & opposite:
                return [(i, j + 2)]
    return []


def _time_sides(intent: StructuredIntent, words: _Words) -> _Sides | None:
    """Two periods ('from June to July', 'Q1 to Q2', 'July vs February', 'Q4 1996 vs Q4 1995'), in the
    order said."""
    dated = _periods_with_years(words)
    if len(dated) == 2 and dated[0][:2] != dated[1][:2]:
        base = (intent.time or TimeFilter()).model_copy(update={"months": [], "year": None, "years": []})
        words.consume([(i, i + 1) for *_, i in dated])
        said = tuple(Side(time=base.model_copy(update={"months": list(m), "year": y})) for y, m, _ in dated)
        return (said[0], said[1]), {"time": base if not base.is_empty() else None}
    periods: list[list[int]] = []
    for mention in sorted(words.state.mentions, key=lambda m: m.start):
        for entry in mention.of("month"):
            periods.append([entry.month])
    for word in words.low:
        if word in _QUARTER:
            periods.append(_QUARTER[word])
    positions = _period_positions(words)
    periods = [p for _, p in sorted(zip(positions, periods), key=lambda item: item[0])] if len(positions) == len(
        periods) else periods
    distinct: list[list[int]] = []
    for period in periods:
        if period not in distinct:
            distinct.append(period)
    if not distinct and intent.time is not None and len(intent.time.years) == 2:  # '2023 vs 2022', 'from 2022 to 2023'
        at = [i for i, t in enumerate(words.state.tokens) if t.number in intent.time.years]
        order = [int(words.state.tokens[i].number or 0) for i in at] if len(at) == 2 else intent.time.years
        base = intent.time.model_copy(update={"years": [], "year": None})
        words.consume([(i, i + 1) for i in at])
        years = [Side(time=base.model_copy(update={"year": y})) for y in order]
        dims = [d for d in intent.dimensions if d != "metric_time__year"]  # the two sides are the years
        return (years[0], years[1]), {"time": base if not base.is_empty() else None, "dimensions": dims}
    if len(distinct) != 2 or intent.time is None:
        return None
    base = intent.time.model_copy(update={"months": []})
    said = tuple(Side(time=base.model_copy(update={"months": p})) for p in distinct)
    return (said[0], said[1]), {"time": base if not base.is_empty() else None}


def _periods_with_years(words: _Words) -> list[tuple[int, tuple[int, ...], int]]:
    """(year, months, index of the year) for each quarter or month said with its year ('Q4 1996')."""
    found = []
    month_at = {m.start: [e.month for e in m.of("month")] for m in words.state.mentions if m.has("month")}
    for i, word in enumerate(words.low[:-1]):
        months = _QUARTER.get(word) or month_at.get(i)
        year = words.state.tokens[i + 1].number
        if months and year is not None and float(year).is_integer() and 1900 <= year <= 2100:
            found.append((int(year), tuple(months), i + 1))
    return found


def _period_positions(words: _Words) -> list[int]:
    months = [m.start for m in sorted(words.state.mentions, key=lambda m: m.start) for _ in m.of("month")]
    return months + [i for i, w in enumerate(words.low) if w in _QUARTER]


def _share(intent: StructuredIntent, words: _Words, spans: list[tuple[int, int]]) -> StructuredIntent:
    """'what share of JetBlue's flights go out of JFK': the conditions said after the counted
    thing are the part; the ones before (and the rest) define the whole."""
    if not intent.filters:
        return intent
    owned = [(s, e) for s, e in words.find("share_of_each") if s < spans[0][0] <= e]
    if owned and intent.dimensions:  # 'with their share %': each group's part of what the conditions hold
        words.consume([*owned, spans[0]])
        return intent.model_copy(update={"share_of_total": True})
    anchor = spans[0][1]
    after = [m for m in words.state.mentions if m.start >= anchor and (m.has("entity") or m.has("metric"))]
    if after:
        anchor = after[0].end
    # 'what share of flights out of JFK are operated by JetBlue': what qualifies the counted thing before
    # the verb is still the whole; the part is said after it
    verb = next((i for i in range(anchor, len(words.low)) if words.low[i] in _LINKING or _a_verb_only(words, i)), None)
    if verb is None:  # 'flights to denver touch down late': a threshold said last is the part, what precedes the whole
        compared = [_position(f, words) for f in intent.filters if f.op in (">", ">=", "<", "<=")]
        verb = min((p for p in compared if p >= anchor), default=None)
    if verb is not None and any(anchor <= _position(f, words) < verb for f in intent.filters):
        anchor = verb
    part = [f for f in intent.filters if _position(f, words) >= anchor]
    share_said = spans[0][0]
    if not part and intent.dimensions and all(share_said < _position(f, words) < anchor for f in intent.filters):
        # 'what share of jetblue flights leave from each nyc airport': every condition says the whole, and
        # the part is each group's
        words.consume(spans)
        return intent.model_copy(update={"share_of_total": True})
    part = part or intent.filters[-1:]
    whole = [f for f in intent.filters if f not in part]
    # '% of departures leaving 30+ min late': of the rows that have a delay at all (a cancelled flight has none)
    whole += [Filter(field=f.field, op="not_null") for f in part if f.op in (">", ">=", "<", "<=", "between")
              and not any(w.field == f.field and w.op == "not_null" for w in whole)]
    # 'what percent of …', 'what % of …': the share in percent, as asked (a 'share' or 'proportion' stays a fraction)
    percent = any(set(words.low[start:end]) & _PERCENT_WORDS for start, end in spans)
    words.consume(spans)
    share = Contrast(kind="share", metric=intent.metrics[0], first=Side(filters=part), percent=percent)
    return intent.model_copy(update={
        "metrics": [], "filters": whole, "contrast": share, "order_by": _ordered_by_contrast(intent, share)})


_PERCENT_WORDS = {"percent", "percentage", "%", "pct"}


def _a_verb_only(words: _Words, i: int) -> bool:
    """'… out of EWR arrived early': a word that can only be a verb is where what is said of the counted
    things begins (it may start the condition's own words, as 'arrived early' does)."""
    forms = lemmas(words.low[i])
    return bool(forms) and set(forms) == {"VERB"}


_LINKING = {"are", "were", "is", "was", "had", "have", "has", "did", "do", "does", "got", "get"}


def _ordered_by_contrast(intent: StructuredIntent, contrast: Contrast) -> list[OrderBy]:
    """'worst first' ranked the metric; once it is set against itself, the contrast is what is ranked."""
    return [OrderBy(field=contrast_column(contrast), descending=o.descending) if o.field in intent.metrics else o
            for o in intent.order_by]


def _position(flt: Filter, words: _Words) -> int:
    positions = words.state.positions
    if flt.op in ("=", "in"):
        return min((positions.get((flt.field, str(v)), -1) for v in flt.values), default=-1)
    return positions.get((flt.field, flt.op, tuple(flt.values)), -1)


# -- counting groups, unknown groups ---------------------------------------------------------------------------

def _count_groups(intent: StructuredIntent, words: _Words, model: SemanticModel) -> StructuredIntent:
    """'how many planes flew more than 400 times': count the planes (the groups) that pass."""
    if not intent.having or not any(not _averaged(words, start, model) for start, _ in words.find("count_question")):
        return intent
    having_metrics = [h.metric for h in intent.having]
    table = model.metric_by_name[having_metrics[0]].table
    dims = [d for d in intent.dimensions if model.dimension_by_name[d].kind == "categorical"]
    if not dims:
        counted = [m for m in intent.metrics if m not in having_metrics]
        dims = [d for d in (_key_of(m, table, model) for m in counted) if d]
    if len(dims) != 1:
        return intent
    return intent.model_copy(update={"metrics": having_metrics, "dimensions": dims, "count_groups": True,
                                     "drop_unknown_groups": True, "order_by": [], "limit": None})


def _averaged(words: _Words, start: int, model: SemanticModel) -> bool:
    """'avg number of seats', 'the median number of stops': an average (or an extreme) of a number each row
    holds, not a count of the groups; 'total number of' still counts."""
    before = words.low[max(0, start - 2):start]
    said = {w for agg, texts in model.aggregations.items() if agg != "sum" for w in texts}
    return bool(before) and (before[-1] in said or " ".join(before) in said)


def _key_of(counted: str, base: str, model: SemanticModel) -> str | None:
    """The dimension naming what a metric counts, on `base` rows: the destination for 'distinct
    destinations', flights.tailnum for 'planes' (the planes table's key)."""
    metric = model.metric_by_name[counted]
    distinct = re.fullmatch(r"count\(DISTINCT (.+)\)", metric.expr, re.I)
    if distinct and metric.table == base:
        return next((d.name for d in model.dimensions for s in d.sources
                     if s.table == base and s.expr == distinct.group(1) and d.kind == "categorical"), None)
    counted_table = metric.table
    join = next((j for j in model.joins if j.from_table == base and j.to_table == counted_table), None)
    if join is None:
        return None
    own = (d.name for d in model.dimensions for s in d.sources
           if s.table == base and s.expr == join.keys[0][0] and d.kind == "categorical")
    # the key kept only on the counted table ('departments' by department id), reached through the join
    joined = (d.name for d in model.dimensions for s in d.sources
              if s.table == counted_table and s.expr == join.keys[0][1] and d.kind == "categorical")
    return next(own, None) or next(joined, None)


def _unknown_groups(intent: StructuredIntent, model: SemanticModel) -> StructuredIntent:
    """A ranking ('the 5 tail numbers with the most miles', 'the most flown planes') or a grouping through a join
    ('miles by engine type') leaves out the group whose key is unknown: it is not a tail number
    or an engine type. The reading line says so."""
    table = _base(intent, model)
    if not intent.dimensions or table is None or intent.drop_unknown_groups:
        return intent
    # ranked by a measure, cut or whole ('the most flown planes'): the unknown key is no thing to rank
    ranked = any(o.field not in intent.dimensions for o in intent.order_by)
    joined = any((model.resolve(d, table) or (None, None))[1] is not None for d in intent.dimensions)
    if ranked or joined:
        return intent.model_copy(update={"drop_unknown_groups": True})
    return intent


# -- what is left unexplained ----------------------------------------------------------------------------------

def _unexplained(words: _Words, model: SemanticModel) -> str | None:
    covered = words.covered()
    meaning = set(phrased(model.meaning_words))
    left: list[str] = []
    for i, token in enumerate(words.state.tokens):
        if i in covered:
            continue
        if (token.low,) in meaning or any(tuple(words.low[i:i + len(m)]) == m for m in meaning if len(m) > 1):
            left.append(token.text)
        elif token.number is not None:  # 'which 5 parts', 'through 1997': a number nobody placed changes the answer
            left.append(token.text)
    left += _unread_groupings(words, covered)
    left += _unread_clauses(words, covered, set(model.coverage.get("fillers", [])))
    if left:
        return ("I could not work " + ", ".join(f"“{w}”" for w in dict.fromkeys(left)) +
                " into a query on this model, so I would be answering a different question.")
    return None


_CLAUSE_WORDS = ("when", "whenever", "while", "where", "if", "unless")


def _unread_clauses(words: _Words, covered: set[int], fillers: set[str]) -> list[str]:
    """'when it was raining' where nothing read 'raining': a condition would be dropped ('pls' adds nothing)."""
    tokens = words.state.tokens
    left = []
    for i, token in enumerate(tokens):
        if token.low not in _CLAUSE_WORDS:
            continue
        unread: list[str] = []
        compared = False
        for j in range(i + 1, len(tokens)):
            if tokens[j].low in _CLAUSE_WORDS or tokens[j].low in ("and", "or", "but") and unread:
                break
            if j not in covered and tokens[j].low not in words.state.function_words and tokens[j].number is None \
                    and tokens[j].low not in fillers:
                unread.append(tokens[j].text)
            compared |= j in covered and tokens[j].number is not None  # '… below freezing (temp < 32F)'
        if unread and not compared:
            left.append(f"{token.text} … {' '.join(unread)}")
    return left


def _unread_groupings(words: _Words, covered: set[int]) -> list[str]:
    """'at each priority level' where nothing named 'priority level': the grouping would be dropped."""
    tokens = words.state.tokens
    left = []
    for i, token in enumerate(tokens):
        if token.low not in ("by", "per", "each", "every"):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].low in ("the", "a", "an", "each", "every"):
            j += 1
        phrase_words = []
        while j < len(tokens) and j not in covered and tokens[j].low not in words.state.function_words \
                and tokens[j].number is None:
            phrase_words.append(tokens[j].text)
            j += 1
        if phrase_words and (j >= len(tokens) or j not in covered):
            left.append(f"{token.text} {' '.join(phrase_words)}")
    return left


def shapes_pass(draft: "Draft") -> "Draft":
    """How the question combines what the earlier passes read (names not codes, the previous period,
    contrasts, counting groups); a meaning word nobody placed ends the reading."""
    assert draft.intent is not None
    draft.intent, unexplained = refine(draft.intent, draft.state, draft.model, draft.listing)
    return draft.stop(unexplained) if unexplained else draft
