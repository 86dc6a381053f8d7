"""Pass: which metrics the question asks for (named metrics, aggregations of measures, counted
things), the table that reaches every dimension named, and what a ranking ranks."""

from __future__ import annotations

from collections.abc import Container
from typing import NamedTuple

from agent.semantic.compile.definitions import Definition, problems_of, with_definitions
from agent.semantic.compile.intent import MetricFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import WHICH, Ambiguity, GroupKey, State, mention_at, mention_text, plural, words_of
from agent.text.phrases import phrase
from agent.semantic.spec.where import FilterSyntaxError, parse_filter
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.groupings import COUNT_ASKS, name_of
from agent.text.words import lemmas


def _aggregate_of_the_things_number(state: State, mention: Mention, table: str, model: SemanticModel,
                                    defined: list[Definition]) -> list[str] | None:
    """'average satisfaction score', 'avg star rating': an aggregation said of things whose rows hold one number
    of their own is that number aggregated, not the things counted. None when they hold none or several."""
    before = mention_at(state, mention.start - 1) if mention.start else None
    if before is None or before.used or before.end != mention.start or not before.has("agg") or plural(state, mention):
        return None
    own = [d.name for d in model.dimensions if d.kind == "numeric" and not d.identifier
           and any(s.table == table and s.join is None for s in d.sources)]
    if len(own) != 1:
        return None
    aggs = [before.of("agg")[0].name]
    picked = metrics_for(own[0], aggs, model) or _defined_for(own[0], aggs, model, defined)
    if not picked:
        return None
    before.used = mention.used = True
    return picked


def rankable(metrics: list[str], having: list[MetricFilter], model: SemanticModel) -> str:
    """What 'worst first' ranks when only conditions named measures ('routes with at least 2000
    flights and an average delay over 10 min'): the measured one, not the count."""
    if set(metrics) <= {h.metric for h in having}:
        measured = [m for m in metrics if model.metric_by_name[m].measure is not None]
        if measured:
            return measured[-1]
    return metrics[0]


class MetricReading(NamedTuple):
    choices: list[list[str]]  # per metric said: its candidates, the first that fits is taken
    rank_mentions: list[Mention]
    unmatched: list[str]  # measures the model lacks
    subjects: list[str]  # tables whose things are the groups of a condition on a total
    defined: list[Definition]  # an average, minimum or maximum of a column the model does not measure
    ambiguous: list[Ambiguity]  # a word several columns' labels are about: the person says which


def read_metrics(state: State, model: SemanticModel, has_grouping: bool, conditioned: bool = False,
                 counting: bool = False) -> MetricReading:
    """The metric choices, the ranking mentions, measures the model lacks, and the tables whose
    things are the groups of a condition on a total ('customers with 30 or more orders')."""
    ambiguous: list[Ambiguity] = []
    subjects: list[str] = []
    defined: list[Definition] = []  # an average, minimum or maximum asked of a column the model does not measure
    choices: list[list[str]] = []
    unmatched: list[str] = []
    weak: list[list[str]] = []
    rank_mentions = [m for m in state.mentions if m.has("rank") and not m.used]
    row_counts: list[list[str]] = []  # counts said after 'for', 'of', 'among': perhaps only the rows named
    on_average = bool({("on", "average"), ("on", "avg")} & {(a.low, b.low) for a, b in zip(state.tokens, state.tokens[1:])})
    in_total = ("in", "total") in {(a.low, b.low) for a, b in zip(state.tokens, state.tokens[1:])}
    counts_things = _asks_how_many(state, model)
    # 'sold the most pizzas': things ranked by how many of them a quantity's verb says
    counted_by_verb = any(m.has("entity") and _counted_by_quantity_word(state, m, model) and _sold(state, m, model)
                          for m in state.mentions)
    # 'max arrival delay per route' aggregates; 'which route has the highest delay' ranks
    asks_which = any(t.low in WHICH | {"top", "bottom"} for t in state.tokens)
    # 'which manufacturer built the most planes': things counted by a quantity word are the measure,
    # and a measure's word without an aggregation before them ('built') is the verb, not a measure
    counted = [(m, count) for m in state.mentions if m.has("entity") and not m.used
               and _counted_by_quantity_word(state, m, model)
               and (count := model.table_by_name[m.of("entity")[0].name].count_metric) and not _sold(state, m, model)]
    # 'december flights per destination with avg arrival delay': the things, counted, beside the measure
    counted += [(m, count) for m in state.mentions if m.has("entity") and not m.used and plural(state, m)
                and all(m is not c for c, _ in counted) and _measure_said_with(state, m, model)
                and (count := model.table_by_name[m.of("entity")[0].name].count_metric)]
    for mention, count in counted:
        choices.append(with_other_tables([count], model))
        mention.used = True
    for mention in state.mentions:
        if mention.used and not mention.has("metric"):
            continue
        if mention.has("metric"):
            names = [e.name for e in mention.of("metric")]
            if (mention.start and state.tokens[mention.start - 1].low in _ROWS_CUES or not counts_things
                    and not _said_as_a_count(state, mention)) and set(names) <= {t.count_metric for t in model.tables}:
                row_counts.append(names)  # 'avg delay … for departures': the rows the measure is of, maybe
            if len({model.metric_by_name[n].agg for n in names}) > 1:
                # 'avg visit length' of a word naming the total and the average of one column: the aggregation said
                unread = [m for m in state.mentions if not m.used]
                aggs = _aggregations_before(state, mention, rank_as_agg=True, units=model.unit_words)
                narrowed = [n for n in names if model.metric_by_name[n].agg in aggs]
                if narrowed:
                    names = narrowed
                else:  # an aggregation none of them is ('max length') stays unread, and is asked about
                    for unused in unread:
                        unused.used = False
            choices += _sibling_aggregations(state, mention, model.metric_by_name[names[0]].measure, model)
            choices.append(with_other_tables(names, model))
            mention.used = True
            continue
        measures = [e.name for e in mention.of("dimension") if model.dimension_by_name[e.name].kind == "numeric"]
        before = mention_at(state, mention.start - 1) if mention.start else None
        if measures and mention.has("entity") and plural(state, mention) and not (before and before.has("agg")):
            measures = []  # 'the change in ratings': the ratings themselves, counted; 'average rating' is the measure
        if measures and before is not None and before.has("entity") and not before.has("dimension") \
                and all(e.related for e in mention.of("dimension")):
            # 'average gift size': a word only related to a column ('party size' of event attendees) is no measure
            # of the things named as its owner (gifts) when their rows neither hold it nor lead to the gifts;
            # left unread, it is asked about
            owners = {e.name for e in before.of("entity")}
            measures = [m for m in measures if any(s.table in owners or any(model.join_path(s.table, o) is not None
                                                                             for o in owners)
                                                   for s in model.dimension_by_name[m].sources)]
        if len(measures) > 1:  # 'viewers' of 'viewers 7 day' and 'viewers 28 day': which one is asked
            ambiguous.append(Ambiguity(text=mention_text(state, mention), options=measures))
            _aggregations_before(state, mention, rank_as_agg=True)  # read: the question keeps it for the answer
            mention.used = True
            continue
        if measures:
            # 'the max delay each month': one row per month, so 'the max' aggregates within each, picks none
            each = any(t.low in ("each", "every", "per") for t in state.tokens)
            aggs = _aggregations_before(state, mention, rank_as_agg=not has_grouping or not asks_which,
                                        grouped=has_grouping and not each, names=model.shapes.get("aggregation_names", []),
                                        units=model.unit_words)
            if not aggs and on_average:
                aggs = ["avg"]
                for said in state.mentions:  # 'on average' said the aggregation: read
                    if said.has("agg") and not said.used and said.of("agg")[0].name == "avg":
                        said.used = True
            if not aggs and in_total:  # 'minutes flights were delayed in total': the delays added up
                aggs = ["sum"]
            if not aggs and _events_counted(state, mention, measures[0], model):
                # 'how many delays', 'the most delays': the rows with one, counted by the metric that counts
                # them; with none (or several), the word is left unread and asked about, never averaged
                events = _counting_metrics_on(measures[0], model)
                if len(events) == 1:
                    choices.append(events)
                    mention.used = True
                continue
            if not aggs and not has_grouping:  # 'largest order by total price': the largest total price
                ranked = [m for m in rank_mentions if m.has("agg") and not m.used]
                if len(ranked) == 1:
                    aggs = [ranked[0].of("agg")[0].name]
                    ranked[0].used = True
            if not aggs and not has_grouping:  # 'the hottest temperature': its own adjective, the extreme
                implied = [m for m in rank_mentions if not m.used and model.ranking.implies_measure.get(
                    " ".join(words_of(state, m))) == measures[0]]
                if len(implied) == 1:
                    aggs = ["max" if any(e.name == "desc" for e in implied[0].of("rank")) else "min"]
                    implied[0].used = True
            if not aggs and _counted_by_quantity_word(state, mention, model):
                aggs = ["sum"]  # 'the most miles' adds the miles up; the word still ranks
            if not aggs and state.words_before(mention.start, 2) in _HOW_MANY and _counts_things(measures[0], model):
                aggs = ["sum"]  # 'how many star bakers did series 2 have': a column that counts them, added up
            if not aggs and (counts_things or counted_by_verb) and _counted_by_its_verb(state, mention, measures[0],
                                                                                          model):
                choices.append(metrics_for(measures[0], ["sum"], model))  # 'how many pizzas did we sell'
                mention.used = True
                continue
            if not aggs and (counted or _describes_counted_noun(state, mention, model)):
                mention.used = True  # 'how many planes were made by Boeing': a verb, not a second measure
                continue
            if not aggs and counts_things:
                continue  # 'how many flights arrived late': a condition on the measure nobody said: left unread, asked
            picked = metrics_for(measures[0], aggs, model) or _defined_for(measures[0], aggs, model, defined)
            if picked:
                choices.append(picked)
            else:
                label = model.dimension_by_name[measures[0]].label
                unmatched.append(f"{' and '.join(aggs)} of {label}" if aggs else label)
            mention.used = True
            continue
        if mention.has("entity"):
            table = model.table_by_name[mention.of("entity")[0].name]
            after = state.tokens[mention.end].low if mention.end < len(state.tokens) else ""
            if (measured := _aggregate_of_the_things_number(state, mention, table.name, model, defined)) is not None:
                choices.append(measured)  # 'average satisfaction score' of survey answers holding one score
                continue
            if conditioned and plural(state, mention) and after in {"with", "having", "that", "who", "which"}:
                subjects.append(table.name)  # the groups the condition is checked on, not a count
                mention.used = True
                continue
            named = mention_at(state, mention.end)
            if named is not None and named.start == mention.end and not plural(state, mention) and any(
                    reachable(e.name, table.name, model) for e in named.of("dimension")):
                mention.used = True  # 'list all pizza categories': whose categories, not pizzas counted
                continue
            compound = mention_at(state, mention.end)
            if compound is not None and compound.start == mention.end and compound.has("entity") \
                    and not plural(state, mention):
                mention.used = True  # 'patient visits': the last noun is what is counted, the first says whose
                continue
            if table.count_metric and plural(state, mention) and _listed_beside_a_measure(state, mention, model):
                choices.append(with_other_tables([table.count_metric], model))  # 'flights and avg dep delay'
                mention.used = True
                continue
            if mention.start and state.tokens[mention.start - 1].low in model.shapes.get("not_counted_after", []):
                continue  # 'usable in any city': no count of cities; left unread
            if table.count_metric:
                weak.append(with_other_tables([table.count_metric], model))
                mention.used = True
                if state.words_before(mention.start, 2) in _HOW_MANY:  # 'by number of suppliers'
                    state.consume(mention.start - 2, mention.start - 1)
    if not choices:
        for mention in rank_mentions:
            word = " ".join(t.low for t in state.tokens[mention.start:mention.end])
            measure = model.ranking.implies_measure.get(word)
            if measure and not _measure_of_things_named(state, mention, measure, model):
                unmatched.append(word)  # 'the biggest gift' where 'big' measures another table's rows (a party's size)
                break
            if measure:
                agg = [] if has_grouping else [e.name for e in mention.of("agg")]
                # 'the oldest movie': a column kept for grouping (a year) ranks by its own least or most
                extreme = ["max" if any(e.name == "desc" for e in mention.of("rank")) else "min"]
                picked = metrics_for(measure, agg, model) or _defined_for(measure, agg or extreme, model, defined)
                if not picked:
                    break  # no way to rank by it: the word stays unread and is asked about
                choices.append(picked)
                if not has_grouping:
                    mention.used = True
                break
    counted_only = all(model.metric_by_name[n].measure is None for c in choices for n in c if n in model.metric_by_name)
    for mention in state.mentions:
        if mention.has("agg") and not mention.used and not mention.has("rank") \
                and mention.of("agg")[0].name == "sum" and counted_only:
            # 'total number of orders': a total of a count is the count; of anything else it is no total
            # of it ('sum of all dep delay' read as the average), so it stays unread and is asked about
            mention.used = True
    rank_mentions = [m for m in rank_mentions if not m.used]
    for mention in rank_mentions:
        mention.used = True
    # a thing named only as the rows ('which carrier flies to the most destinations') is counted only when
    # nothing else is (`counting`: distinct values are)
    choices = _without_rows_named(choices, row_counts, model)
    chosen = choices or ([] if counting else weak[:1])
    unique: list[list[str]] = []
    for option in chosen:
        if option not in unique:
            unique.append(option)
    return MetricReading(unique, rank_mentions, unmatched, subjects, defined, ambiguous)


_ROWS_CUES = frozenset({"for", "of", "among", "across", "on", "over"})


def _listed_beside_a_measure(state: State, mention: Mention, model: SemanticModel) -> bool:
    """'flights and avg dep delay per day', 'avg fare and bookings': things named in a list with a measure are
    counted as one more measure, not only the rows the measure is taken over."""
    def a_measure(other: Mention | None) -> bool:
        return other is not None and other is not mention and (other.has("metric") or other.has("agg") or any(
            model.dimension_by_name[e.name].kind == "numeric" for e in other.of("dimension")))
    after = mention.end < len(state.tokens) and state.tokens[mention.end].low == "and" \
        and a_measure(mention_at(state, mention.end + 1))
    before = mention.start >= 2 and state.tokens[mention.start - 1].low == "and" \
        and a_measure(mention_at(state, mention.start - 2))
    return bool(after or before)


def _said_as_a_count(state: State, mention: Mention) -> bool:
    """'number of flights', 'flight count', 'the flights (count)': the rows' count asked in so many words."""
    before = [t.low for t in state.tokens[max(0, mention.start - 2):mention.start]]
    after = [t.low for t in state.tokens[mention.end:mention.end + 1]]
    # ('flights and avg delay per carrier': listed beside another measure, it is one too)
    return bool({"number", "count", "many", "total", "volume", "and", ",", "&", "plus"} & {*before[-1:], *after}
                or {"number", "count", "many", "total", "volume"} & set(before)) \
        or any(w in ("count", "number") for w in words_of(state, mention))


def _measure_said_with(state: State, mention: Mention, model: SemanticModel) -> bool:
    """'december flights per destination with avg arrival delay': a measure joined on by 'with' (an
    aggregation right after it) is asked beside the rows' count, so the count is a measure too; 'flights with
    a delay over 30' sets a condition and counts nothing more."""
    joined = {"with"}
    aggregations = {w for words in model.aggregations.values() for w in words if " " not in w}
    words = [t.low for t in state.tokens]
    for i in range(mention.end, len(words) - 1):
        after = next((w for w in words[i + 1:i + 3] if w not in ("the", "their", "its", "an", "a")), None)
        if words[i] in joined and after in aggregations:
            return True
    return False


def _without_rows_named(choices: list[list[str]], row_counts: list[list[str]], model: SemanticModel) -> list[list[str]]:
    """'avg dep delay per carrier for departures …': a table's count said after 'for' beside a measure of the same
    table names the rows the measure is taken over, not a second measure."""
    others = [c for c in choices if c not in row_counts]
    tables = {model.metric_by_name[n].table for c in others for n in c if n in model.metric_by_name}
    return [c for c in choices if c not in row_counts or not tables & {model.metric_by_name[n].table for n in c}]


def _measure_of_things_named(state: State, rank: Mention, measure: str, model: SemanticModel) -> bool:
    """Does the measure an adjective implies belong to the things it is said of, or to rows about them ('the
    biggest party': a party's size; not 'the biggest gift')? True when no table's rows follow the adjective
    within two words."""
    for start in range(rank.end, min(rank.end + 3, len(state.tokens))):
        after = mention_at(state, start)
        if after is not None and after.start == start and after.has("entity"):
            own = {s.table for s in model.dimension_by_name[measure].sources if s.join is None}
            # the measure's rows are the things, or point at them ('the best-selling pizza': its order lines)
            return any(e.name in own or any(model.resolve(model.table_by_name[e.name].entity or e.name, t) is not None
                                            for t in own) for e in after.of("entity"))
    return True


def _counted_by_quantity_word(state: State, mention: Mention, model: SemanticModel) -> bool:
    before = mention_at(state, mention.start - 1)
    return before is not None and before.has("rank") and words_of(state, before) in {
        phrase(w) for w in model.ranking.counting}


_HOW_MANY = {("how", "many"), ("number", "of"), ("count", "of")}


def _events_counted(state: State, mention: Mention, measure: str, model: SemanticModel) -> bool:
    """'how many delays', 'the most delays': a measure whose label is a mass noun ('departure delay'), said
    in the plural after a counting word, counts the rows that have one; a unit ('the most miles') or a
    label that already counts things ('star bakers') adds the measure up instead."""
    said = state.tokens[mention.end - 1].low
    if not plural(state, mention) or said in model.unit_words or _counts_things(measure, model):
        return False
    return state.words_before(mention.start, 2) in _HOW_MANY or _counted_by_quantity_word(state, mention, model)


def _counting_metrics_on(measure: str, model: SemanticModel) -> list[str]:
    """Metrics counting the rows their filter keeps, filtered on `measure` alone ('delayed flights':
    departure delay > 0)."""
    found = []
    for metric in model.metrics:
        if metric.filter is None or metric.agg is not None or not metric.expr.lower().startswith("count("):
            continue
        try:
            refs = parse_filter(metric.filter).refs
        except FilterSyntaxError:
            continue
        if [ref.name for ref in refs] == [measure]:
            found.append(metric.name)
    return found


def _counts_things(measure: str, model: SemanticModel) -> bool:
    """A numeric column whose label ends in a plural noun ('star bakers', 'children'): a number of things."""
    label = model.dimension_by_name[measure].label.lower().split()
    last = label[-1] if label else ""
    return last.isalpha() and "NOUN" in lemmas(last) and last not in lemmas(last)["NOUN"]


def _asks_how_many(state: State, model: SemanticModel) -> bool:
    """'how many planes', 'number of flights': the question counts one kind of thing."""
    for mention in state.mentions:
        counts = mention.has("entity") or any(model.metric_by_name[e.name].measure is None
                                              for e in mention.of("metric"))
        if counts and (state.words_before(mention.start, 2) in _HOW_MANY or words_of(state, mention)[:2] in _HOW_MANY):
            return True
    return False


def counts_by_verb(state: State, mention: Mention, model: SemanticModel) -> bool:
    """'sell', 'sold': the verb of a measure that is a number of things (a quantity), not its noun."""
    word = words_of(state, mention)
    return "VERB" in lemmas(word[-1]) and any(
        model.dimension_by_name[e.name].counts_things and word[-1] not in model.dimension_by_name[e.name].label.lower().split()
        for e in mention.of("dimension"))


def _counted_by_its_verb(state: State, mention: Mention, measure: str, model: SemanticModel) -> bool:
    """'how many pizzas did we sell': a verb of a measure that is a number of things, said of things its
    rows are of (an order line's pizza), asks for the measure's total, not for the things themselves."""
    dimension = model.dimension_by_name[measure]
    if not counts_by_verb(state, mention, model):
        return False
    lines = {s.table for s in dimension.sources}
    for counted in (m for m in state.mentions if m.has("entity") and m is not mention):
        table = counted.of("entity")[0].name
        if (state.words_before(counted.start, 2) in _HOW_MANY or _counted_by_quantity_word(state, counted, model)) \
                and any(line == table or model.join_path(line, table) for line in lines):
            return True
    return False


def _sold(state: State, counted: Mention, model: SemanticModel) -> bool:
    """'which pizza type sold the most pizzas': the things a quantity's verb is said of are added up
    by that quantity (the order lines' pizzas), not counted as rows of their own table."""
    table = counted.of("entity")[0].name
    for verb in state.mentions:
        if verb is counted or not counts_by_verb(state, verb, model):
            continue
        for entry in verb.of("dimension"):
            lines = {s.table for s in model.dimension_by_name[entry.name].sources}
            if any(line == table or model.join_path(line, table) for line in lines):
                return True
    return False


def _describes_counted_noun(state: State, mention: Mention, model: SemanticModel) -> bool:
    """'planes made by Airbus': a participle between a counted noun and 'by <value>' says what
    the things are, it does not ask for a measure of them."""
    if mention.end >= len(state.tokens) or state.tokens[mention.end].low != "by":
        return False
    agent = mention_at(state, mention.end + 1)
    if agent is None or not agent.has("value"):
        return False
    j = mention.start
    while j > 0 and state.tokens[j - 1].low in {"were", "was", "that", "which", "been"}:
        j -= 1
    noun = mention_at(state, j - 1)
    return noun is not None and noun.has("entity")


def _sibling_aggregations(state: State, mention: Mention, measure: str | None, model: SemanticModel) -> list[list[str]]:
    """'average and maximum departure delay': the words before 'and' aggregate the same measure."""
    if measure is None or mention.start < 2 or state.tokens[mention.start - 1].low not in {"and", "or"}:
        return []
    before = mention_at(state, mention.start - 2)
    if before is None or not before.has("agg") or before.used:
        return []
    before.used = True
    state.consume(mention.start - 1)
    return [metrics_for(measure, [before.of("agg")[0].name], model)]


def with_other_tables(metrics: list[str], model: SemanticModel) -> list[str]:
    """A table's count metric, then how the same things are counted from other tables' rows."""
    result = list(metrics)
    for table in model.tables:
        if table.count_metric in metrics:
            result += [m for m in table.counted_from.values() if m not in result]
    return result


_ONE_ROW_WORDS = frozenset({"single", "individual"})


def _aggregations_before(state: State, mention: Mention, rank_as_agg: bool, grouped: bool = False,
                         names: list[str] | None = None, units: Container[str] = ()) -> list[str]:
    """Aggregation words right before a measure: 'average', 'average and maximum', 'the total'."""
    aggs: list[str] = []
    j = mention.start
    single = j > 0 and state.tokens[j - 1].low in _ONE_ROW_WORDS
    if single:  # 'the biggest single delay per carrier': the largest one delay, not the largest average
        j -= 1
        rank_as_agg, grouped = True, False
    while j > 0:
        before = mention_at(state, j - 1)
        if before is not None and before.has("agg") and not before.used:
            # among groups, 'the highest delay' picks a group; 'highest delay by month' aggregates; an
            # aggregation's own name ('max delay … top 10') aggregates unless 'the' makes it pick a group
            named = words_of(state, before) in {phrase(n) for n in names or []}
            if before.has("rank") and ((not rank_as_agg and not named)
                                       or (grouped and state.cue_before(before.start, [("the",)], skip=()))):
                break
            aggs.insert(0, before.of("agg")[0].name)
            before.used = True
            j = before.start
            if j > 0 and state.tokens[j - 1].low in {"and", "or"}:
                j -= 1
                continue
            break
        if state.tokens[j - 1].low in {"the", "a", "an", "all"} and before is None:  # 'the sum of all delays'
            j -= 1
            continue
        if j > 1 and state.tokens[j - 1].low == "of" and {j - 1, j - 2} <= state.used_tokens and before is None:
            j -= 2  # 'total minutes of dep delay': the unit the answer is wanted in, read already
            continue
        if state.tokens[j - 1].low in units and j - 1 in state.used_tokens and before is None:
            j -= 1  # 'avg minutes behind schedule': the unit, read already
            continue
        if before is not None and before.has("entity") and not before.has("dimension"):
            j = before.start  # 'average order total price', 'average flight delay': whose measure it is
            continue
        break
    return aggs


def metrics_for(measure: str, aggs: list[str], model: SemanticModel) -> list[str]:
    metrics = [m for m in model.metrics if m.measure == measure]
    if not aggs:
        return [m.name for m in metrics if m.default][:1]
    return [m.name for agg in aggs for m in metrics if m.agg == agg][:len(aggs)] or []


def choose_metrics(choices: list[list[str]], fields: list[GroupKey], model: SemanticModel, dated: bool = False) -> list[str]:
    """For each metric mention, the first candidate whose table reaches every dimension named and, where
    the question says when (`dated`), has a date ('episodes aired in 2015': the episodes counted where
    their air dates are, when the episodes table has none)."""
    flat: list[str] = []
    lists = [[m for option in options for m in ([option] if isinstance(option, str) else option)] for options in choices]
    for n, expanded in enumerate(lists):
        # 'what cities are our shops in': the cities of some table's rows, and the shops: one table, the shops'
        shared = [m for m in expanded if any(m in other for k, other in enumerate(lists) if k != n)]
        if shared and len(expanded) > 1:
            expanded = shared
        # a second measure on the table the first is on, where it has one ('products out of stock': the
        # stock rows' products), so the question stays one table's
        same_table = [m for m in expanded if flat and model.metric_by_name[m].table == model.metric_by_name[flat[0]].table]
        if same_table and len(expanded) > 1:
            expanded = same_table
        chosen = expanded[0]
        fits = [name for name in expanded if all(reachable(f, model.metric_by_name[name].table, model) for f in fields)]
        with_dates = [name for name in fits if _has_dates(model.metric_by_name[name].table, model)]
        if dated and with_dates:
            chosen = with_dates[0]
        elif fits:
            chosen = fits[0]
        if chosen not in flat:
            flat.append(chosen)
    return flat


def _has_dates(table: str, model: SemanticModel) -> bool:
    spec = model.table_by_name[table]
    return bool(spec.agg_time or spec.time)


def reachable(field_name: GroupKey, table: str, model: SemanticModel) -> bool:
    names = field_name if isinstance(field_name, tuple) else (field_name,)
    return any(model.resolve(n, table) is not None for n in names)


def ranked_metric(by_metric: list[Mention], metrics: list[str], state: State, model: SemanticModel) -> str | None:
    for mention in by_metric:
        for entry in mention.of("metric"):
            if entry.name in metrics:
                return entry.name
    return None


def singular_superlative(state: State, rank_mentions: list[Mention], model: SemanticModel) -> bool:
    """'the busiest route', 'busiest month', 'the carrier with the most flights': one group is wanted."""
    for mention in state.mentions:
        groups = [e for e in mention.of("dimension") if model.dimension_by_name[e.name].kind != "numeric"]
        if not groups or plural(state, mention):
            continue
        if any(r.end == mention.start for r in rank_mentions):
            return True
        owner = mention_at(state, mention.start - 1) if mention.start else None  # 'our biggest candidate source'
        if owner is not None and owner is not mention and owner.end == mention.start and owner.has("entity") \
                and not plural(state, owner) and any(r.end == owner.start for r in rank_mentions):
            return True
        if mention.start >= 1 and state.tokens[mention.start - 1].low == "the" and mention.end < len(state.tokens) \
                and state.tokens[mention.end].low in {"with", "that", "having", "where"}:
            return True
    return False


_DEFINABLE = {"avg": "average", "min": "min", "max": "max"}


def _defined_for(dimension: str, aggs: list[str], model: SemanticModel, defined: list[Definition]) -> list[str]:
    """'the best average technical rank': a column the model keeps for grouping only (a rank, a year), whose
    average, minimum or maximum is asked in so many words: that aggregate of its column, defined by the
    question (a total of it is still asked back)."""
    dim = model.dimension_by_name[dimension]
    own = [src for src in dim.sources if src.join is None]
    if len(aggs) != 1 or aggs[0] not in _DEFINABLE or len(own) != 1:
        return []
    agg = _DEFINABLE[aggs[0]]
    definition = Definition(name=f"{dimension}_{agg}", label=f"{agg.capitalize()} {dim.label}", table=own[0].table,
                            kind="measure", expr=own[0].expr, agg=agg)
    if problems_of([definition], model):
        return []
    defined.append(definition)
    return [definition.name]


def measures_pass(draft: Draft) -> Draft:
    for mention in draft.state.mentions:  # 'how many sales': the sales counted, not their money
        if mention.has("entity") and mention.has("metric") and draft.state.words_before(mention.start, 2) in COUNT_ASKS:
            mention.entries = [e for e in mention.entries if e.kind != "metric"]
    choices, draft.rank_mentions, draft.unmatched, draft.subjects, defined, ambiguous = read_metrics(
        draft.state, draft.model, has_grouping=bool(draft.grouping), conditioned=bool(draft.having),
        counting=bool(draft.counted_metrics))
    draft.ambiguous += ambiguous
    if defined:
        draft.definitions += defined
        draft.model = with_definitions(draft.model, defined)
    if draft.subjects and not draft.grouping:  # 'customers with 30 or more orders': group by their name
        name = name_of(draft.subjects[0], draft.model)
        if name:
            draft.grouping[name] = None
    draft.metric_choices = draft.metric_choices + [[m] for m in draft.counted_metrics] + choices
    return draft
