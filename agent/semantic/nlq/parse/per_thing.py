"""Pass: an average per thing ('average number of flights per plane', 'how many ratings per head do
our users give, on average?'): a count or total divided by how many different things there are, as
a ratio the question defines. Without a word of averaging, 'flights per carrier' is a grouping and
is left to the groupings pass, unless the thread's previous answer counted those things ('flights per
plane' after 'how many planes did each airline fly'): per each of the things just counted divides by
that count. 'average income per head' over people's own rows is the average."""

from __future__ import annotations

import re

from agent.semantic.compile.definitions import Definition, period_count, with_definitions
from agent.semantic.compile.filters import Filter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import State, mention_at, words_of
from agent.text.words import lemmas, noun_forms

_AVERAGING = {"average", "avg", "mean", "typical", "typically"}


def per_thing_pass(draft: Draft) -> Draft:
    state, model = draft.state, draft.model
    if _a_things_own_count(draft):
        return draft
    people = set(model.coverage.get("per_person", []))
    for index, token in enumerate(state.tokens):
        if token.low != "per" or index in state.used_tokens or index + 1 >= len(state.tokens):
            continue
        averaged = [i for i, t in enumerate(state.tokens)
                    if t.low in _AVERAGING and i not in state.used_tokens and not _averages_a_measure(state, i, model)]
        per_person = state.tokens[index + 1].low in people
        if not averaged and not per_person and not draft.thread_metrics:
            continue  # 'flights per carrier': a grouping
        counted = _counted_before(state, index, model)
        if counted is not None and averaged and _per_period(draft, index, counted):
            state.consume(index, index + 1, *averaged, *_count_words(state, counted[0].start))
            return draft
        if counted is None:
            if per_person and _measured_before(state, index, model):
                state.consume(index, index + 1)  # 'average income per head': people's own rows, averaged
            continue
        mention, numerator, table = counted
        per = _thing_after(state, index, model, people, exclude=mention)
        if per is None:
            continue
        per_mention, denominator = _denominator(per, table, model)
        if denominator is None or not averaged and not per_person and denominator not in draft.thread_metrics:
            continue
        _divide(draft, (mention, numerator, table), per_mention, denominator)
        state.consume(index, index + 1, *averaged, *_count_words(state, mention.start))
        return draft
    return _thing_before_measure(draft)


def _per_period(draft: Draft, index: int, counted: tuple[Mention, str, str]) -> bool:
    """'average number of flights per day': the count (or total) over the different days its rows fall on,
    by the rows' own date; with 'per carrier' the same average is each carrier's. A period said after
    'per' is no grouping here: the average is over the periods."""
    state, model = draft.state, draft.model
    word = state.tokens[index + 1].low
    grain = next((g for g, forms in model.relative_grains.items() if word in forms), None)
    after = mention_at(state, index + 1)
    mention, numerator, table = counted
    periods = period_count(model, table, grain) if grain is not None else None
    if periods is None or (after is not None and after.used):
        return False
    said = [w for w in words_of(state, mention) if w not in {"how", "many", "number", "of", "the"}]
    ratio = Definition(name=f"{numerator}_per_{grain}", label=f"{' '.join(said)} per {grain}", table=table,
                       kind="ratio", numerator=numerator, denominator=periods.name)
    draft.definitions += [periods, ratio]
    draft.model = with_definitions(model, [periods, ratio])
    draft.metric_choices.append([ratio.name])
    mention.used = True
    mention.entries = [e for e in mention.entries if e.kind != "metric"]
    if after is not None:
        after.used = True
    for m in state.mentions:
        if m.has("agg") and not m.used and m.of("agg")[0].name == "avg":
            m.used = True
    return True


def _averages_a_measure(state: State, index: int, model: SemanticModel) -> bool:
    """'avg arrival delay on flights to atl, per carrier': the averaging word is the number column's after it
    (or a metric's own word), so 'per carrier' is a grouping, not flights divided by carriers; 'average
    number of flights per plane' averages a count, per plane."""
    after = mention_at(state, index + 1)
    return any(m.has("metric") and m.start <= index < m.end for m in state.mentions) or after is not None and \
        any(e.kind == "dimension" and model.dimension_by_name[e.name].kind == "numeric" for e in after.entries)


def _a_things_own_count(draft: Draft) -> bool:
    """'how many episodes does a baker last on average?': the thing said after 'does a' keeps a number column
    of those things ('episodes appeared'), so it is that column, averaged over the things; the words after
    the thing are how the question says it (a verb), read with it. Only with a word of averaging."""
    state, model = draft.state, draft.model
    averaged = [m for m in state.mentions if m.has("agg") and not m.used and m.of("agg")[0].name == "avg"]
    if len(state.tokens) < 6 or state.words_before(2, 2) != ("how", "many") or not averaged:
        return False
    counted = mention_at(state, 2)  # the things counted: a table's ('episodes') or a plain noun ('companies')
    thing = mention_at(state, 5) if state.tokens[3].low in ("does", "do", "did", "has", "have", "had") \
        and state.tokens[4].low in ("a", "an", "each", "the") else None
    if (counted is not None and (counted.start != 2 or counted.end != 3 or not counted.has("entity"))) \
            or thing is None or thing.start != 5 or not thing.has("entity") or thing.end > averaged[0].start:
        return False
    table = thing.of("entity")[0].name
    forms = set(noun_forms(state.tokens[2].low))
    columns = [d for d in model.dimensions if d.kind == "numeric" and _first_noun(d.label) in forms
               and any(s.table == table and s.join is None for s in d.sources)]
    between = range(thing.end, averaged[0].start)
    if len(columns) != 1 or any(mention_at(state, i) is not None or "VERB" not in lemmas(state.tokens[i].low)
                                and state.tokens[i].low not in state.function_words for i in between):
        return False
    picked = [m.name for m in model.metrics if m.measure == columns[0].name and m.agg == "avg"]
    if not picked:
        return False
    draft.metric_choices.append(picked[:1])
    for mention in (m for m in (counted, thing, averaged[0]) if m is not None):
        mention.used = True
    state.consume(0, 1, 2, 3, 4, *between)
    return True


def _first_noun(label: str) -> str:
    """'number companies worked' -> companies; 'episodes appeared' -> episodes."""
    words = [w for w in label.lower().split() if w not in ("number", "num", "total", "count", "of")]
    return words[0] if words else ""


def _thing_before_measure(draft: Draft) -> Draft:
    """'average order value', 'the mean basket revenue': an averaging word, a thing, then a total kept on
    other rows than the thing's own: the total per thing, as 'revenue per order on average' is read."""
    state, model = draft.state, draft.model
    for index, token in enumerate(state.tokens):
        if token.low not in _AVERAGING or index in state.used_tokens:
            continue
        per = mention_at(state, index + 1)
        if per is None or per.start != index + 1 or per.used or not per.has("entity"):
            continue
        counted = _counted_before(state, per.end + 1, model)
        if counted is None or counted[0].start != per.end or not counted[0].has("metric"):
            continue
        per_mention, denominator = _denominator(per, counted[2], model)
        if denominator is None:
            continue
        _divide(draft, counted, per_mention, denominator)
        state.consume(index)
        return draft
    return draft


def _divide(draft: Draft, counted: tuple[Mention, str, str], per_mention: Mention, denominator: str) -> None:
    """The ratio `counted` / how many `per_mention` things, defined by the question and asked for."""
    state, model = draft.state, draft.model
    mention, numerator, table = counted
    name = f"{numerator}_per_{denominator}"
    said = [w for w in words_of(state, mention) if w not in {"how", "many", "number", "of", "the"}]
    *head, last = words_of(state, per_mention)
    one = lemmas(last).get("NOUN", (last,))[0]  # 'per user', also when said as 'our users'
    label = f"{' '.join(said)} per {' '.join([*head, one])}"
    definition = Definition(name=name, label=label, table=table, kind="ratio", expr="",
                            numerator=numerator, denominator=denominator)
    key = _counted_key(model, denominator, table)
    if key is not None and not any(f.field == key for f in draft.filters):
        # loads per driver: the loads no driver ran (handed to another firm) are nobody's, so not counted
        draft.filters.append(Filter(field=key, op="not_null"))
    draft.definitions.append(definition)
    draft.model = with_definitions(model, [definition])
    draft.metric_choices.append([name])
    for used in (mention, per_mention):
        used.used = True
        used.entries = [e for e in used.entries if e.kind != "metric"]  # divided now, not asked for alone
    for m in state.mentions:
        if m.has("agg") and not m.used and m.of("agg")[0].name == "avg":
            m.used = True


def _counted_key(model: SemanticModel, denominator: str, table: str) -> str | None:
    """The dimension whose different values the denominator counts on the counted rows' own table
    (count(DISTINCT driverId): the driver), when the model has one."""
    metric = model.metric_by_name.get(denominator)
    match = re.fullmatch(r"\s*count\s*\(\s*distinct\s+(.+?)\s*\)\s*", metric.expr if metric else "", re.I)
    if metric is None or match is None or metric.table != table:
        return None
    own = next((d.name for d in model.dimensions if d.kind == "categorical"
                and any(s.table == table and s.join is None and s.expr == match.group(1) for s in d.sources)), None)
    things = next((t for t in model.tables if t.counted_from.get(table) == denominator), None)
    if own is None and things is not None:  # the key points at a table of the things: their own key, joined
        own = next((d.name for d in model.dimensions if d.identifier
                    and any(s.table == things.name and s.join is None for s in d.sources)), None)
    return own


def _counted_before(state: State, index: int, model: SemanticModel) -> tuple[Mention, str, str] | None:
    """The things counted ('ratings', 'number of flights') or the total ('revenue') said before 'per'
    (with 'do our users give' and the like between): (mention, metric, its table)."""
    for j in range(index - 1, -1, -1):
        mention = mention_at(state, j)
        if mention is None or mention.used:
            continue
        if mention.has("metric"):  # a count or a total divides; an average per plane is a grouping by plane
            metric = model.metric_by_name[mention.of("metric")[0].name]
            expr = (metric.expr or "").lower().replace(" ", "")
            additive = metric.agg in ("count", "sum") or (metric.agg is None and expr.startswith(("count(", "sum(")))
            return (mention, metric.name, metric.table) if metric.table and additive else None
        if mention.has("entity"):
            table = model.table_by_name[mention.of("entity")[0].name]
            return (mention, table.count_metric, table.name) if table.count_metric else None
        return None
    return None


def _measured_before(state: State, index: int, model: SemanticModel) -> bool:
    """A measure or an average right before 'per head' ('average monthly income per head')."""
    mention = mention_at(state, index - 1) if index else None
    return mention is not None and (mention.has("metric") or any(
        model.dimension_by_name[e.name].kind == "numeric" for e in mention.of("dimension")))


def _thing_after(state: State, index: int, model: SemanticModel, people: set[str],
                 exclude: Mention) -> Mention | None:
    """The thing after 'per' ('per plane'); for 'per head', the people named elsewhere ('our users')."""
    after = mention_at(state, index + 1)
    if after is not None and after.start == index + 1 and not after.used:
        return after
    if state.tokens[index + 1].low not in people:
        return None
    state.consume(index + 1)
    named = [m for m in state.mentions if m is not exclude and not m.used and m.start > index
             and (m.has("entity") or any(model.dimension_by_name[e.name].kind == "categorical"
                                         for e in m.of("dimension")))]
    return named[0] if len(named) == 1 else None


def _denominator(per: Mention, table: str, model: SemanticModel) -> tuple[Mention, str | None]:
    """How many different things there are among the counted rows: the model's count of them from
    that table, else a distinct count of the dimension that names them."""
    for entry in per.of("entity"):
        things = model.table_by_name[entry.name]
        if things.name == table:
            return per, None  # 'seats per plane' over planes: an average per row, not a ratio
        metric = things.counted_from.get(table)
        if metric:
            return per, metric
    for entry in per.of("dimension"):
        metric = model.distinct_count_metric(entry.name)
        if metric and model.metric_by_name[metric].table == table:
            return per, metric
    return per, None


def _count_words(state: State, start: int) -> list[int]:
    """'how many' / 'number of' / 'average number of' before the counted things."""
    if state.words_before(start, 2) in {("how", "many"), ("number", "of")}:
        return [start - 2, start - 1]
    return []
