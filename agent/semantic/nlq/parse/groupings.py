"""Pass: what the answer is grouped by ('by month', 'per carrier', 'which destination'), and
plural things counted ('how many routes') rather than grouped."""

from __future__ import annotations

from agent.semantic.model.grounding import ONLY_PEOPLE
from agent.semantic.compile.definitions import period_count, with_definitions
from agent.semantic.compile.intent import TimeFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.limits import PER_GROUP_CUES
from agent.semantic.nlq.parse.state import (
    GROUP_CUES,
    WHICH,
    Ambiguity,
    GroupKey,
    State,
    mention_at,
    phrased,
    plural,
    words_of,
)
from agent.text.phrases import phrase
from agent.text.words import lemmas, noun_forms
from agent.semantic.nlq.parse.draft import Draft


COUNT_ASKS = {("how", "many"), ("number", "of"), ("count", "of")}


def read_counted_dimensions(state: State, model: SemanticModel) -> tuple[list[str], list[str]]:
    """'the most routes', 'how many manufacturers': a count of distinct values. Returns the
    metrics that count them, and the labels of those no metric counts (so the question is
    not answered as a grouping). 'The busiest routes' describes routes: not counted here."""
    metrics: list[str] = []
    missing: list[str] = []
    counting = {model.phrases[w] for w in model.ranking.counting}
    distinct = sorted((model.phrases[w] for w in model.distinct_words), key=len, reverse=True)
    # 'unique destinations per carrier' counts them; 'average delay of distinct routes' is another
    # measure over them, which the model cannot say: left unplaced, so declined
    measured = any(m.has("metric") or m.has("agg") for m in state.mentions)
    for mention in state.mentions:
        if mention.used or mention.has("metric") or mention.has("entity") or not plural(state, mention):
            continue
        dims = [e.name for e in mention.of("dimension") if model.dimension_by_name[e.name].kind == "categorical"]
        if not dims:
            continue
        # 'how many different manufacturers', 'unique destinations per carrier'
        said = next((w for w in distinct if state.words_before(mention.start, len(w)) == w), ())
        start = mention.start - len(said)
        owner = mention_at(state, start - 1) if start else None
        if owner is not None and owner.end == start and owner.has("entity") and not owner.used \
                and not plural(state, owner) and model.resolve(dims[0], owner.of("entity")[0].name) is not None:
            start = owner.start  # 'how many pizza categories': whose categories they are
        before = mention_at(state, start - 1)
        quantity = before is not None and before.has("rank") and words_of(state, before) in counting
        asked = state.words_before(start, 2) in COUNT_ASKS
        if quantity or asked or (said and not measured):
            state.consume(*range(start, mention.start))
            if owner is not None and owner.start == start:
                owner.used = True
            metric = model.distinct_count_metric(dims[0])
            if metric is not None:
                metrics.append(metric)
            else:
                missing.append(model.dimension_by_name[dims[0]].label + "s")
            mention.used = True
    return metrics, missing


_BE = ("is", "are", "was", "were", "'s")


def asks_what_it_is(state: State) -> bool:
    """The question opens 'what is …', 'what's …': it asks for a thing's value, not for a count of rows."""
    words = [t.low for t in state.tokens[:2]]
    return words[:1] in (["what's"], ["whats"]) or (words[:1] == ["what"] and words[1:] in ([b] for b in _BE))


def read_groupings(state: State, model: SemanticModel, time: TimeFilter | None, thread_fields: list[str] | None = None
                   ) -> tuple[dict[GroupKey, Mention | None], bool, list[Mention], list[Ambiguity]]:
    grouping: dict[GroupKey, Mention | None] = {}
    by_metric: list[Mention] = []
    ambiguous: list[Ambiguity] = []
    which_singular = False
    single_month = time is not None and len(time.months) == 1 and not time.days
    for mention in state.mentions:
        if mention.used:
            continue
        if _periods_of_a_flag(state, mention, model):
            mention.used = True  # 'in rainy hours': the hours the condition holds in, the rows it is read on
            continue
        if mention.has("grain"):
            dim = mention.of("grain")[0].name
            if dim == "day" and not single_month:
                dim = "date"  # days across several months are dates, not days of the month
            grouping.setdefault(dim, mention)
            mention.used = True
            if state.cue_before(mention.start, [(w,) for w in WHICH], skip=("the", "a", "an")) \
                    and not plural(state, mention):
                which_singular = True  # 'what hour of the day …': one hour is asked for
            continue
        if mention.has("metric"):
            if state.cue_before(mention.start, [("by",)]):
                by_metric.append(mention)  # "top 5 carriers by average delay": the ranking measure
            continue
        if said_as_verb(state, mention):
            continue  # 'the most reviewed films': what the rows did, counted by the measures
        if owner_of_next(state, mention, model) is not None:
            continue  # 'by customer region': the customer says whose region, the region groups
        owner = owner_before(state, mention, model)
        start = _past_ranking_words(state, owner.start if owner is not None else mention.start)
        dims = [e.name for e in mention.of("dimension")]
        cue = state.cue_before(start, GROUP_CUES) or _listed_after_a_grouping(state, start, grouping)
        # 'what is the carrier code of envoy': the thing asked for, even where it also says whose value is named
        # 'which of those routes is the longest': one of several already in view, told by the verb
        picked = state.cue_before(start, [(w, "of") for w in WHICH], skip=_PICKED_FROM)
        named = cue or picked or state.cue_before(start, [(w,) for w in WHICH], skip=("the", "a", "an", "top")) \
            or state.cue_before(start, [(w, be) for w in WHICH for be in _BE], skip=("the", "a", "an")) \
            or (asks_what_it_is(state) and _says_whose_value(state, mention, dims))  # "what's envoy's carrier code"
        # 'the most streamed song': a ranking word and the verb of the rows it counts before the things, which
        # are ranked by those rows as after 'top'
        verb_ranked = mention.has("entity") and any(
            said_as_verb(state, m) for m in state.mentions if start <= m.start and m.end <= mention.start)
        after_top = state.cue_before(start, [("top",), ("bottom",)]) or (
            start > 0 and state.tokens[start - 1].number is not None
            and start - 1 in state.used_tokens) or verb_ranked
        if cue == ("by",) and not dims and mention.has("entity") and grouping and _ranked(state) \
                and not {e.name for e in mention.of("entity")} & _grouped_things(grouping):
            continue  # 'top 5 artists by streams': the things ranked are grouped already; their rows are counted
        if not dims and (named or after_top) and mention.has("entity"):  # 'per nation', 'top 5 suppliers'
            dims = [d for d in (name_of(e.name, model) for e in mention.of("entity")) if d][:1]
        if not dims:
            continue
        if owner is not None:
            dims = [through(owner, d, model) for d in dims]
            owner.used = True
        if not (named or after_top) and _says_whose_value(state, mention, dims):
            mention.used = True  # 'priority 1-URGENT', 'BUILDING segment': the dimension of a value said
            continue
        # 'which pizza category': the owner said first stands between 'which' and the grouping
        which = state.cue_before(start, [(w,) for w in WHICH], skip=("the", "a", "an", "top"))
        if picked and not (cue or which):
            which = picked
        numeric = all(model.dimension_by_name[d].kind == "numeric" for d in dims)
        after = state.tokens[mention.end].low if mention.end < len(state.tokens) else ""
        if after in {"when", "where", "while"} and not (cue or which or after_top):
            continue  # 'in hours when the wind was over 25 mph': a clause, not a grouping
        if (numeric or mention.has("entity")) and not (cue or which or after_top):
            continue  # a measure ("average delay") or a counted thing ("how many planes")
        if not (cue or which or after_top) and state.cue_before(mention.start, _POINTERS, skip=()):
            continue  # 'on that route': one route pointed at, never every route; unread, it is asked about
        if not (cue or which or after_top) and plural(state, mention) \
                and state.cue_before(mention.start, _PLACE_CUES, skip=("the", "our", "all", "both", "three")):
            mention.used = True  # 'departures from the nyc airports': every one of them, no grouping
            continue
        if numeric and cue == ("by",) and any(m.has("rank") for m in state.mentions):
            continue  # 'largest order by total price': what ranks, not a grouping by every price
        if dims[0] == "day" and not single_month and not any("month" in e.words for e in mention.entries):
            dims = ["date" if d == "day" else d for d in dims]  # 'by day' over months is by date; 'day of month' is not
        if len(set(dims)) > 1 and cue:
            dims = _cued(state, mention.start, cue, dims, model)
        if len(set(dims)) > 1 and len(mine := [d for d in dict.fromkeys(dims) if d in (thread_fields or [])]) == 1:
            dims = mine  # 'split by airport' of flights to two airports (or a thread about them): the destinations
        if len(set(dims)) > 1:
            mention.used = True
            grouping.setdefault(tuple(dims), mention)  # resolved once the metric's table is known
        else:
            grouping.setdefault(dims[0], mention)
            mention.used = True
        if which and (not plural(state, mention) or picked and after in _BE_ONE) \
                or verb_ranked and not (cue or which) and not plural(state, mention):
            which_singular = True  # 'the most streamed song': one
    return grouping, which_singular, by_metric, ambiguous


def _grouped_things(grouping: dict[GroupKey, Mention | None]) -> set[str]:
    """The tables whose things the groupings so far were named by ('artists')."""
    return {e.name for mention in grouping.values() if mention is not None for e in mention.of("entity")}


def _ranked(state: State) -> bool:
    """A ranking word was said ('top', 'most', 'highest')."""
    return any(m.has("rank") for m in state.mentions)


def _periods_of_a_flag(state: State, mention: Mention, model: SemanticModel) -> bool:
    """'in rainy hours', 'rainy vs dry hours': periods said right after a yes/no condition (or the words that set
    the rest against it) are the periods it holds in, not a grouping by them."""
    said = state.tokens[mention.end - 1].low
    periods = mention.end - mention.start == 1 and any(
        form in model.time_grains for form in lemmas(said).get("NOUN", (said,)))  # 'hours', not 'orders'
    if not periods or not mention.start or not plural(state, mention):
        return False
    before = mention_at(state, mention.start - 1)
    flagged = before is not None and before.end == mention.start and before.has("flag")
    return flagged or any(state.words_before(mention.start, len(words)) == words
                          for words in phrased(model.shapes.get("the_others", [])))


# what may stand between 'which of' and the things picked from ('which of those routes', 'which of our stores')
_PICKED_FROM = ("the", "those", "these", "our", "your", "all", "them")
_BE_ONE = ("is", "was", "has", "had", "does", "did")


_PLACE_CUES = [("from",), ("at",), ("into",), ("out", "of"), ("to",)]
_POINTERS = [("that",), ("this",), ("those",), ("these",)]


def _the_measures_own_period(state: State, model: SemanticModel) -> None:
    """'per month' said of a measure kept per month ('how much do leavers earn per month' of a monthly
    income): a one-word form of the grain ('monthly') is in the label of a measure the question names, so
    the words say the measure's period and group nothing (they are read, not asked about)."""
    labels = [label.lower().split() for m in state.mentions
              for label in [model.metric_by_name[e.name].label for e in m.of("metric")]
              + [model.dimension_by_name[e.name].label for e in m.of("dimension")
                 if model.dimension_by_name[e.name].kind == "numeric"]]
    for i in range(len(state.tokens) - 1):
        grain = state.tokens[i + 1].low
        if state.tokens[i].low != "per" or grain not in model.time_grains or i in state.used_tokens:
            continue
        forms = {w for w in model.time_grains[grain] if " " not in w}
        if any(forms & set(label) for label in labels):
            state.consume(i, i + 1)
            for mention in state.mentions:
                if mention.start in (i, i + 1):
                    mention.used = True


def _listed_after_a_grouping(state: State, start: int, grouping: dict[GroupKey, Mention | None]
                             ) -> tuple[str, ...] | None:
    """'by department and job role', 'which department and job role': a word listed right after a grouping
    word groups too, by the same cue."""
    end = start
    while end > 0 and state.tokens[end - 1].low in ("the", "a", "an"):
        end -= 1
    if end < 2 or state.tokens[end - 1].low not in _LIST_LINKS:
        return None
    before = mention_at(state, end - 2)
    if before is None or not any(before is m for m in grouping.values()):
        return None
    start = _past_ranking_words(state, before.start)
    return state.cue_before(start, GROUP_CUES) or state.cue_before(start, [(w,) for w in WHICH], skip=(
        "the", "a", "an", "top")) or _listed_after_a_grouping(state, before.start, grouping)


_LIST_LINKS = {"and", ",", "&"}


def _past_ranking_words(state: State, start: int) -> int:
    """'top 2 best-selling pizza types', 'the 5 most popular routes': the ranking words between the cue
    and the things ranked are stepped over, so the cue is found; so is the verb of the rows a ranking word
    counts ('the 3 most rated movies')."""
    j = start
    while j > 0:
        before = mention_at(state, j - 1)
        rows_verb = before is not None and said_as_verb(state, before)
        if rows_verb and before is not None and before.start > 0:
            ranked = mention_at(state, before.start - 1)
            rows_verb = ranked is not None and ranked.has("rank")
        if before is None or not (before.has("rank") or before.has("agg") or rows_verb):
            break
        j = before.start
    return j


def _cued(state: State, start: int, cue: tuple[str, ...], dims: list[str], model: SemanticModel) -> list[str]:
    """'delay at each airport': the word before the group cue is a value cue ('at') of one of the
    dimensions the noun could mean, so it is that one (the origin), as 'at JFK' would be."""
    end = start
    while end > 0 and state.tokens[end - 1].low in ("the", "a", "an", "all"):
        end -= 1
    end -= len(cue)
    cued = [d for d in dims if any(state.words_before(end, len(p)) == p
                                   for p in (phrase(c) for c in model.dimension_by_name[d].value_cues))]
    return cued if len(set(cued)) == 1 else dims


def _says_whose_value(state: State, mention: Mention, dims: list[str]) -> bool:
    """Is the dimension word right beside a value of it ('priority 1-URGENT', 'return flag R',
    'BUILDING segment', 'segment = BUILDING')?"""
    end = mention.end
    while end < len(state.tokens) and state.tokens[end].low in {"is", "=", "of"}:
        end += 1
    neighbours = [mention_at(state, end), mention_at(state, mention.start - 1) if mention.start else None]
    return any(n is not None and n is not mention and any(e.dimension_value[0] in dims for e in n.of("value"))
               for n in neighbours)


def owner_of_next(state: State, mention: Mention, model: SemanticModel) -> str | None:
    """The entity a thing-word names when a grouping word follows it right away ('customer region',
    'customer nations'): the following word is reached by way of it."""
    if not mention.has("entity") or mention.has("dimension") or said_as_verb(state, mention):
        return None
    after = mention_at(state, mention.end)
    if after is None or after.start != mention.end or after.used:
        return None
    numbering = set(model.shapes.get("numbering", []))  # 'episode series number': a number naming a thing groups
    groups = after.has("entity") or any(model.dimension_by_name[e.name].kind == "categorical" or (
        model.dimension_by_name[e.name].label.lower().split()[-1] in numbering) for e in after.of("dimension"))
    return model.table_by_name[mention.of("entity")[0].name].entity if groups else None


def said_as_verb(state: State, mention: Mention) -> bool:
    """A thing's word said as a verb only ('rated', 'reviewed', 'flown'): what its rows record happening,
    never one of the things themselves."""
    if not mention.has("entity") or mention.end - mention.start != 1:
        return False
    forms = lemmas(state.tokens[mention.start].low)
    return "VERB" in forms and "NOUN" not in forms


def owner_before(state: State, mention: Mention, model: SemanticModel) -> Mention | None:
    before = mention_at(state, mention.start - 1) if mention.start else None
    if before is None or before.end != mention.start or before.used:
        return None
    return before if owner_of_next(state, before, model) is not None else None


def through(owner: Mention, dimension: str, model: SemanticModel) -> str:
    """'customer__r_name' for the region of the customer; the customer's own name stays 'c_name'."""
    table = owner.of("entity")[0].name
    entity = model.table_by_name[table].entity
    if entity is None or "__" in dimension:
        return dimension
    if any(s.table == table for s in model.dimension_by_name[dimension].sources):
        return own_column(table, dimension, model)
    return f"{entity}__{dimension}"


def own_column(table: str, dimension: str, model: SemanticModel) -> str:
    """A table's own column: 'artist__name' where playlists have a 'name' too (else the compiler reads
    the nearest table holding the name); the bare name where no other table holds it."""
    entity = model.table_by_name[table].entity
    holders = {s.table for s in model.dimension_by_name[dimension].sources if s.join is None}
    return f"{entity}__{dimension}" if entity and "__" not in dimension and holders - {table} else dimension


def name_of(table: str, model: SemanticModel) -> str | None:
    """The dimension that names a table's things ('which movie' -> its title)."""
    name = model.name_dimension(table)
    return own_column(table, name, model) if name is not None else None


def drop_per_entity(grouping: dict[GroupKey, Mention | None], state: State, model: SemanticModel,
                    table: str) -> list[GroupKey]:
    """'seats per plane' over planes rows is an average per row, not a grouping by plane;
    several dimensions behind one word keep the one the metric's table can reach."""
    # its rows are also the rows of a table it joins on its own whole key (one rating per episode)
    spec = model.table_by_name[table]
    same_rows = [j.to_table for j in model.joins if j.from_table == table and spec.primary_key
                 and sorted(column for column, _ in j.keys) == sorted(spec.primary_key)]
    entity_words = {form for name in (table, *same_rows) for w in model.table_by_name[name].entity_words
                    for form in model.noun_phrases[w]}
    result: list[GroupKey] = []
    for key, mention in grouping.items():
        # 'top 5 employees by income' ranks them too: the number of them is skipped like an article
        counted = mention is not None and mention.start > 0 and state.tokens[mention.start - 1].number is not None
        if mention is not None and mention.has("entity") and \
                tuple(t.low for t in state.tokens[mention.start:mention.end]) in entity_words and \
                not state.cue_before(mention.start - counted, [(w,) for w in WHICH] + [("top",), ("bottom",)],
                                     skip=("the", "a", "an")):
            continue  # 'seats per plane' averages rows; 'which customers have the highest …' ranks them
        if isinstance(key, tuple):
            reachable = [d for d in key if model.resolve(d, table) is not None]
            if len(reachable) > 1:  # 'customers with 30 orders (names)': the name of the thing named
                named = {e.name for m in state.mentions for e in m.of("entity")}
                owned = [d for d in reachable if {s.table for s in model.dimension_by_name[d].sources} & named]
                reachable = owned if len(owned) == 1 else reachable
            key = reachable[0] if len(reachable) == 1 else key
        if key not in result:  # 'top 10 customers … names': both words name the customer's name
            result.append(key)
    return result


def read_restated_grain(state: State, model: SemanticModel, table: str, grouping: list[GroupKey],
                        mentions: dict[GroupKey, Mention | None]) -> list[GroupKey]:
    """'avg seats of the planes United flew (each distinct tailnum counted once)': distinct values of
    the measured table's own key are its rows, each counted once already; the words restate how the
    measure is taken, so they are understood (not dropped) and group nothing. Returns the grouping
    without them."""
    key = set(model.table_by_name[table].primary_key)
    restated: list[Mention] = []
    distinct = sorted((model.phrases[w] for w in model.distinct_words), key=len, reverse=True)
    for mention in state.mentions:
        said = next((w for w in distinct if state.words_before(mention.start, len(w)) == w), ())
        dims = [e.name for e in mention.of("dimension")]
        if not said or not any(s.table == table and s.expr in key for d in dims
                               for s in model.dimension_by_name[d].sources):
            continue
        start = mention.start - len(said)
        span = list(range(start, mention.end))
        if start > 0 and state.tokens[start - 1].low in ("each", "every"):
            span.append(start - 1)
        tail = [i for i in range(mention.end, min(mention.end + 3, len(state.tokens)))
                if state.tokens[i].low in ("counted", "once", "only")]
        state.consume(*span, *tail)
        mention.used = True
        restated.append(mention)
    return [d for d in grouping if not any(mentions.get(d) is m for m in restated)]


def read_counted_period(state: State, model: SemanticModel) -> str | None:
    """'on how many (different) days did we have orders': the days (weeks, months...) that have rows
    are counted, so the answer groups by that grain and counts the groups. Not where the data
    measures something in that word's unit: 'how many days does shipping take' asks a duration."""
    if not any(t.agg_time for t in model.tables):
        return None
    periods = {form: grain for grain, forms in model.relative_grains.items() for form in forms if form.endswith("s")}
    distinct = {model.phrases[w] for w in model.distinct_words}
    for index, token in enumerate(state.tokens):
        grain = periods.get(token.low)
        if grain is None or index in state.used_tokens:
            continue
        start = index - 1 if index and (state.tokens[index - 1].low,) in distinct else index
        if state.words_before(start, 2) not in COUNT_ASKS:
            continue
        unit = model.unit_words.get(token.low)
        if unit is not None and any(d.unit == unit[0] for d in model.dimensions):
            return None
        state.consume(*range(start, index + 1))
        said = mention_at(state, index)
        if said is not None and said.start == index:
            said.used = True  # 'days' is also the date dimension's word: counted here, not grouped again
        return grain
    return None


def _periods_the_conditions_hold(draft: Draft) -> bool:
    """'how many hours had visibility under 1 mile', 'how many hours did it rain at EWR': the hours (days…)
    of the one table every condition is on, counted where the conditions hold, when that table keeps
    nothing in that unit (then 'how many hours' is no amount of time). Each group's own, by airport."""
    state, model = draft.state, draft.model
    grains = {form: grain for grain, phrases in model.time_grains.items() for said in phrases
              if said.startswith("per ") and " " not in said[4:] for form in noun_forms(said[4:]) if form != said[4:]}
    for index, token in enumerate(state.tokens):
        grain = grains.get(token.low)
        unit_read = token.low == draft.display_unit and draft.amount_in_unit
        if grain is None or (index in state.used_tokens and not unit_read) \
                or state.words_before(index, 2) not in COUNT_ASKS:
            continue
        fields = {f.field for f in draft.filters if f.field in model.dimension_by_name}
        owners = [{s.table for s in model.dimension_by_name[f].sources if s.join is None} for f in fields]
        tables = set.intersection(*owners) if owners else set()
        unit = model.unit_words.get(token.low)
        if len(tables) != 1:
            return False
        table = tables.pop()
        if unit is not None and any(d.unit == unit[0] and any(s.table == table for s in d.sources)
                                    for d in model.dimensions):
            return False
        periods = period_count(model, table, grain)
        if periods is None:
            return False
        draft.definitions.append(periods)
        draft.model = with_definitions(model, [periods])
        draft.metric_choices.append([periods.name])
        draft.display_unit, draft.amount_in_unit = None, False
        state.consume(index - 2, index - 1, index)
        said = mention_at(state, index)
        if said is not None and said.start == index:
            said.used = True
        return True
    return False


def counted_pass(draft: Draft) -> Draft:
    """'how many different manufacturers', 'the most routes': counts of distinct values; 'on how
    many days': the periods with rows, counted; 'how many hours had rain': the hours the conditions hold."""
    if _periods_the_conditions_hold(draft):
        draft.counted_metrics, draft.uncounted = read_counted_dimensions(draft.state, draft.model)
        return draft
    draft.counted_period = read_counted_period(draft.state, draft.model)
    if draft.counted_period is not None:
        draft.grouping[f"metric_time__{draft.counted_period}"] = None
        draft.kept.add(f"metric_time__{draft.counted_period}")
    draft.counted_metrics, draft.uncounted = read_counted_dimensions(draft.state, draft.model)
    return draft


def groupings_pass(draft: Draft) -> Draft:
    _the_measures_own_period(draft.state, draft.model)
    _place_of_a_condition(draft)
    grouping, draft.which_singular, draft.by_metric, ambiguous = read_groupings(
        draft.state, draft.model, draft.time, [*draft.thread_fields, *(f.field for f in draft.filters if f.op == "in")])
    if draft.year_column is not None:  # 'movies released each year': by the release year, not a row's own date
        grouping = {(draft.year_column if key in ("year", "metric_time__year") else key): said
                    for key, said in grouping.items()}
    asked_who = _who(draft)
    if not grouping and asked_who is None and (place := _where(draft)) is not None:
        grouping[place] = None
    if not grouping and asked_who is None:
        grouping = _things_of_a_value(draft)
    if asked_who is not None and not grouping:  # 'who got star baker the most times?': the one, by name
        grouping[asked_who] = None
        draft.kept.add(asked_who)
        draft.which_singular = True
    elif asked_who is None and (person := _who_in_each_group(draft, grouping)) is not None:
        grouping[person] = None  # 'who had the best … in each series': the person, once per series
        draft.kept.add(person)
        draft.which_singular = True
    for dim in draft.compared:
        grouping.setdefault(dim, None)
    draft.grouping = {**draft.grouping, **{k: v for k, v in grouping.items() if k not in draft.grouping}}
    draft.ambiguous += ambiguous
    return draft


def _place_of_a_condition(draft: Draft) -> None:
    """'departures when it was below freezing at the origin': one place said with 'the' after a place cue, kept
    by the table a condition of the question is on and by another table too (the key the two are joined on),
    says where the condition is read, which the join does already: no grouping by it."""
    state, model = draft.state, draft.model
    conditioned = {s.table for f in draft.filters if f.field in model.dimension_by_name
                   for s in model.dimension_by_name[f.field].sources if s.join is None}
    for mention in state.mentions:
        dims = [e.name for e in mention.of("dimension")]
        if mention.used or len(dims) != 1 or plural(state, mention) or mention.start < 2 \
                or state.tokens[mention.start - 1].low != "the" \
                or not state.cue_before(mention.start - 1, _PLACE_CUES, skip=()):
            continue
        tables = {s.table for s in model.dimension_by_name[dims[0]].sources if s.join is None}
        if len(tables) > 1 and tables & conditioned and not any(f.field == dims[0] for f in draft.filters):
            mention.used = True
            state.consume(mention.start - 2, mention.start - 1)


def _where(draft: Draft) -> str | None:
    """'Where do jetblue's flights go?' asks for places: the one dimension whose values a 'to' cue points at
    (vocabulary shapes.place_question), or a 'from' cue when the question ends in it ('… come from'). None when
    no single dimension is so cued: the word stays unread and is asked about."""
    state, model = draft.state, draft.model
    cues = model.shapes.get("place_cues", [])
    if not state.tokens or state.tokens[0].low not in model.shapes.get("place_question", []) or len(cues) != 2:
        return None
    towards, away = cues
    words = [t.low for t in state.tokens if t.low.isalpha()]
    cue = away if words and words[-1] == away else towards
    fixed = {f.field for f in draft.filters if f.op == "=" and len(f.values) == 1}
    cued = [d.name for d in model.dimensions if cue in d.value_cues and d.name not in fixed]
    if len(cued) != 1:
        return None
    state.consume(0)
    if cue == away:
        state.consume(max(i for i, t in enumerate(state.tokens) if t.low == cue))
    return cued[0]


def _who(draft: Draft) -> str | None:
    """'Who …' (vocabulary shapes.person_question) asks for things by name: those the rows a condition is on
    point at ('who got star baker': the challenges' baker), when exactly one such table has a name."""
    state, model = draft.state, draft.model
    words = {text for text in model.shapes.get("person_question", [])}
    if not state.tokens or state.tokens[0].low not in words:
        return None
    owners = {s.table for f in draft.filters if f.field in model.dimension_by_name
              for s in model.dimension_by_name[f.field].sources if s.join is None}
    named = {j.to_table for j in model.joins if j.from_table in owners}
    names = [name for name in (model.name_dimension(t) for t in sorted(named))
             if name is not None and not model.dimension_by_name[name].identifier]
    if not names:
        names = _who_columns(draft, owners)
    if len(names) != 1:
        return None
    state.consume(0)
    return names[0]


def _who_columns(draft: Draft, owners: set[str]) -> list[str]:
    """Where no joined table names things, 'who' asks for a column of the rows' own table that names people or
    organisations (vocabulary shapes.who_things, by its label's last word or a synonym's): 'who flies the most
    to SFO' by the carrier. The rows are those a condition is on, else those a word names (things, a measure),
    else the default measure's."""
    state, model = draft.state, draft.model
    if not owners:
        owners = {e.name for m in state.mentions for e in m.of("entity") if e.name in model.table_by_name}
        owners |= {model.metric_by_name[e.name].table for m in state.mentions for e in m.of("metric")
                   if e.name in model.metric_by_name}
        owners |= {s.table for m in state.mentions for e in m.of("dimension") if e.name in model.dimension_by_name
                   and model.dimension_by_name[e.name].kind == "numeric"
                   for s in model.dimension_by_name[e.name].sources if s.join is None}
    if not owners and model.default_metric in model.metric_by_name:
        owners = {model.metric_by_name[model.default_metric].table}
    kinds = set(model.shapes.get("who_things", []))
    return [d.name for d in model.dimensions if d.kind == "categorical" and not d.identifier
            and any(s.table in owners and s.join is None for s in d.sources)
            and any(kinds & noun_forms(name.lower().split()[-1]) for name in [d.label, *d.synonyms] if name.strip())]


def _who_in_each_group(draft: Draft, grouping: dict[GroupKey, Mention | None]) -> str | None:
    """'Who … in each series' asks for a person per group: the name of the one table whose rows are people
    (grounding gave it the thesaurus's person nouns), when the question starts with 'who' and a grouping
    is said after 'each' / 'per'."""
    state, model = draft.state, draft.model
    if not state.tokens or state.tokens[0].low not in set(model.shapes.get("person_question", [])):
        return None
    if not any(m is not None and state.cue_before(m.start, PER_GROUP_CUES) for m in grouping.values()):
        return None
    people = [t.name for t in model.tables if ONLY_PEOPLE in t.related.values()]
    name = model.name_dimension(people[0]) if len(people) == 1 else None
    if name is None or model.dimension_by_name[name].identifier:
        return None
    state.consume(0)
    return name


def _things_of_a_value(draft: Draft) -> dict[GroupKey, Mention | None]:
    """'which comedy has the most ratings', 'top 5 comedies': a value said where the things asked for stand
    names those things by what they are: the value stays a condition, and the answer is grouped by the
    name of the things its column describes (for a link table's tag, the things it tags)."""
    state, model = draft.state, draft.model
    filtered = {f.field.rsplit("__", 1)[-1] for f in draft.filters}
    for mention in state.mentions:
        if not (mention.used and mention.has("value")):
            continue
        dims = {e.dimension_value[0] for e in mention.of("value")} & filtered
        after = mention_at(state, mention.end)
        if len(dims) != 1 or (after is not None and after.start == mention.end and after.has("entity")):
            continue  # 'which Delta flights': the flights are the things, read as such elsewhere
        start = _past_ranking_words(state, mention.start)
        which = state.cue_before(start, [(w,) for w in WHICH], skip=("the", "a", "an", "top"))
        numbered = start > 0 and state.tokens[start - 1].number is not None and start - 1 in state.used_tokens
        if not (which or numbered or state.cue_before(start, [("top",), ("bottom",)])):
            continue
        names = {n for n in (_name_of_things(t, model) for t in _tables_of(dims.pop(), model)) if n}
        if len(names) == 1:
            name = names.pop()
            draft.kept.add(name)
            draft.which_singular = draft.which_singular or bool(which and not plural(state, mention))
            return {name: None}
    return {}


def _tables_of(dimension: str, model: SemanticModel) -> list[str]:
    return [s.table for s in model.dimension_by_name[dimension].sources if s.join is None]


def _name_of_things(table: str, model: SemanticModel) -> str | None:
    """The name of the things `table`'s rows are, or, for a link table, of the things it tags."""
    spec = model.table_by_name[table]
    if spec.entity is not None:
        return name_of(table, model)
    tagged = [t.name for t in model.tables if t.entity is not None and t.entity in spec.bridge]
    return name_of(tagged[0], model) if len(tagged) == 1 else None
