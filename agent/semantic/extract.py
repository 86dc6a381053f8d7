"""The offline semantic parser: a question in English -> a StructuredIntent, by general rules.

First the definitions a question gives itself ('inventory value (availqty * supplycost)',
'late = receiptdate > commitdate') are read and the model is extended with them
(`parse/defining.py`). Words are matched (longest phrase first) against a lexicon made from the semantic model
(metric and dimension names and synonyms, aggregation and ranking words, time words) and
from the warehouse's values (`parse/lexicon.py`). Then passes read the matches in context,
in this order, each in its own module under `agent/semantic/parse/` and each marking the
tokens it understood on the shared `State`:

1. `calendar`: months, day ranges, holidays, seasons, weekdays, quarters, a year;
   `dating`: which date they are about ('shipped in', 'by order date');
2. `comparisons`: numbers compared with a measure (row filters) or an aggregate (HAVING);
3. `limits`: how many groups to keep;
4. `patterns`: part of a text ('type ends in BRASS');
   `named_values`: flag words; `absence`: things said to be missing ('never placed an order'), warehouse values (negated, contrasted), unknown codes;
5. `groupings`: counted plurals ('how many routes') and groupings ('by month', 'which carrier');
6. `measures`: the metrics asked for, the table that reaches every dimension, the ranking;
7. `shapes` (agent/semantic/shapes.py): names not codes, previous period, contrasts,
   counting groups, unknown groups; and meaning words nobody placed make it decline.

What the model cannot express comes back as a reason (unsupported data, unknown value,
ambiguity, an unplaced word) so that the caller can say so or hand the question to the free
Text-to-SQL path. To extend it, add a pass module and call it here in its place.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from agent.semantic import shapes
from agent.semantic.intent import OrderBy, StructuredIntent, validate_intent
from agent.semantic.model import SemanticModel
from agent.semantic.parse.absence import read_absence
from agent.semantic.parse.calendar import read_time
from agent.semantic.parse.dates import moving_holiday, resolve_relative
from agent.semantic.parse.dating import read_dating
from agent.semantic.parse.defining import asides, read_definitions
from agent.semantic.parse.comparisons import read_comparisons, split_units
from agent.semantic.parse.groupings import (
    drop_per_entity,
    name_of,
    read_counted_dimensions,
    read_groupings,
    read_restated_grain,
)
from agent.semantic.parse.lexicon import lexicon_for
from agent.semantic.parse.limits import read_limit, read_limit_per
from agent.semantic.parse.measures import (
    choose_metrics,
    rankable,
    ranked_metric,
    read_metrics,
    singular_superlative,
)
from agent.semantic.parse.named_values import read_flags, read_values
from agent.semantic.parse.patterns import read_patterns
from agent.semantic.parse.state import (
    Ambiguity,
    State,
    UnknownValue,
    covered,
    mention_text,
    words_of,
)
from agent.semantic.text import STOPWORDS, phrase, tokenize
from agent.semantic.values import ValueIndex


class Extraction(BaseModel):
    intent: StructuredIntent | None = None
    unknown_values: list[UnknownValue] = Field(default_factory=list)
    unsupported: str | None = None  # why the warehouse cannot answer, naming what it holds
    ambiguous: list[Ambiguity] = Field(default_factory=list)
    reason: str | None = None  # why no intent came out, when it did not
    ignored_words: list[str] = Field(default_factory=list)
    confidence: float = 0.0


def extract_intent(question: str, model: SemanticModel, values: ValueIndex) -> Extraction:
    question, definitions, model = read_definitions(question, model)
    tokens = split_units(tokenize(question), model.unit_words)
    state = State(tokens, lexicon_for(model, values).match(tokens))

    topics = [e.payload for m in state.mentions for e in m.of("topic")]
    if topics:
        return Extraction(unsupported=_unsupported_message(topics, model))
    for mention in state.mentions:
        if mention.has("context"):
            mention.used = True
            state.consume(*range(mention.start, mention.end))

    time = read_time(state, model)
    has_dates = time is not None and bool(time.days or time.from_day or time.start)
    holiday = moving_holiday(state, model, has_dates)
    if holiday:
        return Extraction(reason=holiday)
    grains = any(m.has("grain") for m in state.mentions)
    dated_by = read_dating(state, model, dated=(time is not None and not time.is_empty()) or grains,
                           grouped_by_grain=grains, asides=_asides(question))
    filters, ambiguous, unresolved, having = read_comparisons(state, model)
    limit, top = read_limit(state)
    patterned, unplaced = read_patterns(state, model)
    filters += patterned + read_flags(state)
    unresolved += unplaced
    value_filters, unknown, compared = read_values(state, model, values)
    filters += value_filters
    absent = read_absence(state)
    counted_metrics, counted = read_counted_dimensions(state, model)
    grouping, which_singular, by_metric_mentions, dim_ambiguous = read_groupings(state, model, time)
    for dim in compared:
        grouping.setdefault(dim, None)
    ambiguous += dim_ambiguous
    metric_choices, rank_mentions, unmatched, subjects = read_metrics(state, model, has_grouping=bool(grouping),
                                                                      conditioned=bool(having))
    if subjects and not grouping:
        name = name_of(subjects[0], model)
        if name:
            grouping[name] = None
    metric_choices = [[m] for m in counted_metrics] + metric_choices

    ignored = [t.text for i, t in enumerate(tokens) if i not in covered(state) and t.low not in STOPWORDS
               and t.number is None]
    chosen_aggs = {model.metric_by_name[name].agg for options in metric_choices for name in options
                   if isinstance(name, str) and name in model.metric_by_name}
    idle = [m for m in state.mentions if m.has("agg") and not m.used and not m.has("rank")
            and m.of("agg")[0].payload not in chosen_aggs]  # 'how late on average': the metric is an average
    if idle:  # 'average order value' where no measure is the order value: an average of nothing named
        said = mention_text(state, idle[0])
        return Extraction(reason=f"I could not tell what “{said}” applies to: name a measure of this model.",
                          ignored_words=ignored)
    unknown += _partial_values(ignored, values)
    if unknown:
        names = ", ".join(f"'{u.text}'" for u in unknown)
        return Extraction(unknown_values=unknown, reason=f"{names} is not a value found in the warehouse.",
                          ignored_words=ignored)
    if ambiguous:
        return Extraction(ambiguous=ambiguous, reason="A word could mean more than one thing.", ignored_words=ignored)
    if unresolved:
        return Extraction(reason="I could not tell what " + ", ".join(f"'{u}'" for u in unresolved) + " refers to.",
                          ignored_words=ignored)
    if counted:
        return Extraction(reason="The semantic model has no metric counting distinct " + ", ".join(counted) + ".",
                          ignored_words=ignored)
    if unmatched:
        return Extraction(reason="The semantic model has no metric for the " + ", ".join(unmatched) + ".",
                          ignored_words=ignored)

    if not metric_choices and having:
        metric_choices = [[h.metric] for h in having]
    if not metric_choices and _asks_share(tokens, model):
        # 'late delivery rate by ship mode': the share of the rows the condition is on
        owners = {s.table for f in filters for s in model.dimension_by_name[f.field].sources if f.field in
                  model.dimension_by_name and model.dimension_by_name[f.field].kind == "flag"}
        counts = [model.table_by_name[t].count_metric for t in owners if model.table_by_name[t].count_metric]
        if len(counts) == 1:
            metric_choices = [[counts[0]]]
    if not metric_choices:
        unread = [w for w in ignored if not w[:1].isdigit()]
        if unread and (grouping or rank_mentions or filters or time) and model.default_metric:
            # no measure named, and words left unread: they may be the measure ('net revenue')
            return Extraction(reason="I could not tell what to measure: " + ", ".join(f"“{w}”" for w in unread)
                              + " is not a metric of this model.", ignored_words=ignored)
        if (grouping or rank_mentions or filters or time) and model.default_metric:
            metric_choices = [[model.default_metric]]
        else:
            return Extraction(reason="The question names nothing the semantic model can measure.",
                              ignored_words=ignored)

    grouping_mentions = dict(grouping)
    fields = list(grouping) + [f.field for f in filters]
    metrics = choose_metrics(metric_choices, fields, model)
    table = model.metric_by_name[metrics[0]].table
    if time is not None and time.relative is not None:
        latest = values.latest_date(table, dated_by)
        if latest is None:
            return Extraction(reason=f"I could not read the latest date in the {table} data, so "
                                     f"“{time.relative.words}” has no dates to count back from.", ignored_words=ignored)
        time = resolve_relative(time, latest)
    grouping = drop_per_entity(grouping, state, model, table)
    grouping = read_restated_grain(state, model, table, grouping, grouping_mentions)
    unresolved = [key for key in grouping if isinstance(key, tuple)]
    if unresolved:
        return Extraction(
            ambiguous=[Ambiguity(text=mention_text(state, grouping_mentions[key]), options=list(key)) for key in unresolved],
            reason="A word could mean more than one thing.", ignored_words=ignored)

    if any(not any(j.from_table == other and j.to_table == table for j in model.joins) for other, _ in absent):
        said = ", ".join(f"'{words}'" for _, words in absent)
        return Extraction(reason=f"I could not tell what {said} is missing from.", ignored_words=ignored)

    order_by: list[OrderBy] = []
    descending = next((m.of("rank")[0].payload == "desc" for m in rank_mentions), True)
    if grouping and (rank_mentions or top):
        ranked = ranked_metric(by_metric_mentions, metrics, state, model) or rankable(metrics, having, model)
        polar = rank_mentions and words_of(state, rank_mentions[0]) in {phrase(w) for w in model.shapes.get("polarity", [])}
        if polar and model.metric_by_name[ranked].higher_is_better:
            descending = not descending  # 'best first' of an on-time share is the highest
        order_by = [OrderBy(field=ranked, descending=descending if rank_mentions else True)]
        if limit is None and (which_singular or singular_superlative(state, rank_mentions, model)):
            limit = 1
        if limit is None and top:
            limit = 5
    elif limit is not None and grouping:
        order_by = [OrderBy(field=metrics[0], descending=True)]

    limit_per = read_limit_per(state, grouping_mentions, grouping) if order_by and limit is not None else None
    if limit_per is not None:  # the group the ranking restarts in comes first
        grouping = [limit_per] + [d for d in grouping if d != limit_per]
    used = set(metrics) | {f.field for f in filters} | set(grouping)
    intent = StructuredIntent(
        definitions=[d for d in definitions if d.name in used or any(h.metric == d.name for h in having)],
        metrics=metrics, dimensions=list(grouping), filters=filters,
        time=time if time is not None and not time.is_empty() else None, time_dimension=dated_by,
        having=having, absent=[other for other, _ in absent], order_by=order_by, limit=limit if grouping else None,
        limit_per=limit_per,
    )
    intent, unexplained = shapes.refine(intent, state, model)
    ignored = [t.text for i, t in enumerate(tokens) if i not in covered(state) and t.low not in STOPWORDS
               and t.number is None]  # again: the shapes pass places words too ('names', '% change')
    if unexplained:
        return Extraction(reason=unexplained, ignored_words=ignored)
    problems = validate_intent(intent, model)
    if problems:
        return Extraction(reason=" ".join(problems), ignored_words=ignored)
    content = [t for t in tokens if t.low not in STOPWORDS]
    coverage = 1.0 - len(ignored) / max(1, len(content))
    return Extraction(intent=intent, ignored_words=ignored, confidence=round(0.5 + 0.5 * coverage, 2))


def _partial_values(ignored: list[str], values: ValueIndex) -> list[UnknownValue]:
    """'urgent orders' where the data says '1-URGENT': a word of a value nobody placed would be a
    dropped condition, so it is asked back with the values it may mean."""
    found = []
    for word in ignored:
        if len(word) < 3 or not word.isalpha():
            continue
        hits = values.containing(word)
        if len(hits) == 1:
            dimension, options = next(iter(hits.items()))
            found.append(UnknownValue(text=word, dimension=dimension, suggestions=options))
    return found


def _asks_share(tokens, model: SemanticModel) -> bool:
    words = [t.low for t in tokens]
    for text in model.shapes.get("share", []):
        wanted = list(phrase(text))
        if any(words[i:i + len(wanted)] == wanted for i in range(len(words))):
            return True
    return False


def _asides(question: str) -> list[tuple[str, ...]]:
    """The words said in parentheses ('in 1996 (by order date)'), each aside as lower-case tokens."""
    return [tuple(t.low for t in tokenize(inner)) for _, _, inner in asides(question)]


def _unsupported_message(topics: list[str], model: SemanticModel) -> str:
    asked = " or ".join(dict.fromkeys(topics))
    holds = ", ".join(t.label for t in model.tables if t.entity_words)
    measures = ", ".join(m.label.lower() for m in model.metrics if m.default or m.measure is None)
    return f"The warehouse has no data on {asked}. It holds {holds}, with measures such as {measures}."
