"""The offline semantic parser: a question in English -> a StructuredIntent, by general rules.

Words are matched (longest phrase first) against a lexicon made from the semantic model
(metric and dimension names and synonyms, aggregation and ranking words, time words) and
from the warehouse's values. Small rules then read the matches in context: cue words
("by", "per", "each") make a dimension a grouping, prepositions ("from", "to") send an
airport to origin or destination, comparisons with numbers and units become filters,
"top 5" and "which ... highest" become an order and a limit. What the model cannot
express comes back as a reason (unsupported data, unknown value, ambiguity) so that the
caller can say so or hand the question to the free Text-to-SQL path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from agent.semantic.intent import (
    Filter,
    MetricFilter,
    OrderBy,
    StructuredIntent,
    TimeFilter,
    base_table,
    validate_intent,
)
from agent.semantic import shapes
from agent.semantic.model import SemanticModel
from agent.semantic.text import MONTH_ABBREVIATIONS, MONTHS, STOPWORDS, WEEKDAYS, Token, inflections, phrase, tokenize
from agent.semantic.values import ValueIndex


class UnknownValue(BaseModel):
    text: str
    dimension: str | None
    suggestions: list[str] = Field(default_factory=list)


class Ambiguity(BaseModel):
    text: str
    options: list[str]  # dimension names the word could mean


class Extraction(BaseModel):
    intent: StructuredIntent | None = None
    unknown_values: list[UnknownValue] = Field(default_factory=list)
    unsupported: str | None = None  # why the warehouse cannot answer, naming what it holds
    ambiguous: list[Ambiguity] = Field(default_factory=list)
    reason: str | None = None  # why no intent came out, when it did not
    ignored_words: list[str] = Field(default_factory=list)
    confidence: float = 0.0


# -- the lexicon ------------------------------------------------------------------------------

Kind = Literal["metric", "dimension", "grain", "entity", "agg", "rank", "month", "season", "weekday", "topic",
               "value", "context", "flag", "day"]

_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
             "last": 4, "final": 4}


@dataclass(frozen=True)
class Entry:
    words: tuple[str, ...]
    kind: Kind
    payload: object
    case_sensitive: bool = False
    needs_cue: bool = False


@dataclass
class Mention:
    start: int
    end: int
    entries: list[Entry]
    used: bool = False

    def of(self, kind: Kind) -> list[Entry]:
        return [e for e in self.entries if e.kind == kind]

    def has(self, kind: Kind) -> bool:
        return any(e.kind == kind for e in self.entries)


class Lexicon:
    def __init__(self, model: SemanticModel, values: ValueIndex):
        self.entries: dict[str, list[Entry]] = {}
        for metric in model.metrics:
            for text in [metric.label, *metric.synonyms]:
                self._add(phrase(text), "metric", metric.name)
        for dim in model.dimensions:
            for text in [dim.label, dim.name.replace("_", " "), *dim.synonyms]:
                if dim.kind == "flag":
                    self._add(phrase(text), "flag", dim.name)
                    continue
                for form in inflections(phrase(text)):
                    self._add(form, "dimension", dim.name)
            for text in dim.grain_words:
                self._add(phrase(text), "grain", dim.name)
        for table in model.tables:
            for text in table.entity_words:
                for form in inflections(phrase(text)):
                    self._add(form, "entity", table.name)
        for agg, words in model.aggregations.items():
            for text in words:
                self._add(phrase(text), "agg", agg)
        for direction, words in (("desc", model.ranking.descending), ("asc", model.ranking.ascending)):
            for text in words:
                self._add(phrase(text), "rank", direction)
        for number, name in enumerate(MONTHS, start=1):
            self._add((name,), "month", number)
        for name, number in MONTH_ABBREVIATIONS.items():
            self._add((name,), "month", number)
        for name, days in WEEKDAYS.items():
            for form in inflections(phrase(name)):
                self._add(form, "weekday", days)
        for name, months in model.seasons.items():
            self._add(phrase(name), "season", months)
        for name, (month, day) in model.named_days.items():
            self._add(phrase(name), "day", (month, day))
        for topic, words in model.unsupported_topics.items():
            for text in words:
                self._add(phrase(text), "topic", topic)
        for text in model.context_words:
            self._add(phrase(text), "context", None)
        for item in values.phrases:
            self._add(item.words, "value", (item.dimension, item.value), item.case_sensitive, item.needs_cue)

    def _add(self, words: tuple[str, ...], kind: Kind, payload, case_sensitive: bool = False,
             needs_cue: bool = False) -> None:
        if not words:
            return
        entry = Entry(words, kind, payload, case_sensitive, needs_cue)
        bucket = self.entries.setdefault(words[0].lower(), [])
        if entry not in bucket:
            bucket.append(entry)

    def match(self, tokens: list[Token]) -> list[Mention]:
        """Longest phrase first across the whole question, so 'per day of week' reads as
        'per' + 'day of week' rather than 'per day' + 'of week'; ties go to the leftmost.
        Every entry of the winning length is kept."""
        candidates = [m for i in range(len(tokens)) for m in self._matches_at(tokens, i)]
        taken: set[int] = set()
        mentions: list[Mention] = []
        for mention in sorted(candidates, key=lambda m: (m.start - m.end, m.start)):
            span = set(range(mention.start, mention.end))
            if not span & taken:
                taken |= span
                mentions.append(mention)
        return sorted(mentions, key=lambda m: m.start)

    def _matches_at(self, tokens: list[Token], i: int) -> list[Mention]:
        """Every phrase starting at token i, one mention per length."""
        by_length: dict[int, list[Entry]] = {}
        for entry in self.entries.get(tokens[i].low, []):
            n = len(entry.words)
            if i + n > len(tokens):
                continue
            window = tokens[i:i + n]
            if entry.case_sensitive:
                hit = all(t.text == w for t, w in zip(window, entry.words))
            else:
                hit = all(t.low == w for t, w in zip(window, entry.words))
            if hit and not (entry.kind == "month" and not _is_month_word(tokens, i)):
                by_length.setdefault(n, []).append(entry)
        return [Mention(i, i + n, entries) for n, entries in by_length.items()]


def _is_month_word(tokens: list[Token], i: int) -> bool:
    """'may' is a month only where a month can stand: 'in May', 'May through July', 'May 5'."""
    if tokens[i].low != "may":
        return True
    before = tokens[i - 1].low if i else ""
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    return (tokens[i].text == "May" and i > 0) or before in {"in", "of", "during", "between", "through", "to",
                                                             "and", "from", "until", "since"} or (
        after is not None and after.number is not None)


_LEXICONS: dict[tuple[int, int], tuple[SemanticModel, ValueIndex, Lexicon]] = {}


def _lexicon(model: SemanticModel, values: ValueIndex) -> Lexicon:
    key = (id(model), id(values))
    cached = _LEXICONS.get(key)
    if cached is None or cached[0] is not model or cached[1] is not values:
        cached = (model, values, Lexicon(model, values))
        _LEXICONS[key] = cached
    return cached[2]


# -- rules ---------------------------------------------------------------------------------------

_GROUP_CUES = [("by",), ("per",), ("each",), ("every",), ("across",), ("for", "each"), ("for", "every"),
               ("in", "each"), ("broken", "down", "by"), ("split", "by"), ("grouped", "by"), ("vs",),
               ("versus",), ("by", "each"), ("breakdown", "by"), ("for", "all")]
_WHICH = {"which", "what"}
_COMPARATORS: list[tuple[tuple[str, ...], str]] = sorted(
    [(phrase(text), op) for op, texts in {
        ">": ["more than", "greater than", "over", "above", "exceeding", "longer than", "later than", "after",
              "higher than", "bigger than", "larger than", "in excess of", "worse than", ">"],
        ">=": ["at least", ">=", "no less than"],
        "<": ["less than", "fewer than", "under", "below", "shorter than", "lower than", "smaller than", "before",
              "earlier than", "<"],
        "<=": ["at most", "no more than", "up to", "<="],
        "=": ["exactly", "equal to"],
    }.items() for text in texts],
    key=lambda item: -len(item[0]),
)
_NEGATIONS = [("excluding",), ("except",), ("not",), ("without",), ("other", "than"), ("apart", "from"),
              ("besides",), ("except", "for")]
_RANGE_WORDS = {"through", "thru", "to", "until", "till"}
_COUNT_CUES = {"how", "many", "number", "count"}
_CODE_LIKE = re.compile(r"[A-Z][A-Z0-9]{1,3}|[0-9][A-Z][A-Z0-9]{0,2}")


@dataclass
class _State:
    tokens: list[Token]
    mentions: list[Mention]
    used_tokens: set[int] = field(default_factory=set)
    positions: dict[tuple, int] = field(default_factory=dict)  # where each filter was said, for shapes

    def consume(self, *indexes: int) -> None:
        self.used_tokens.update(indexes)

    def words_before(self, start: int, n: int) -> tuple[str, ...]:
        return tuple(t.low for t in self.tokens[max(0, start - n):start])

    def cue_before(self, start: int, cues, skip=("the", "a", "an", "all")) -> tuple[str, ...] | None:
        """The cue phrase that ends right before `start` (skipping articles), if any."""
        end = start
        while end > 0 and self.tokens[end - 1].low in skip:
            end -= 1
        for cue in sorted(cues, key=len, reverse=True):
            if self.words_before(end, len(cue)) == tuple(cue):
                return tuple(cue)
        return None


def extract_intent(question: str, model: SemanticModel, values: ValueIndex) -> Extraction:
    tokens = _split_units(tokenize(question), model.unit_words)
    state = _State(tokens, _lexicon(model, values).match(tokens))

    topics = [e.payload for m in state.mentions for e in m.of("topic")]
    if topics:
        return Extraction(unsupported=_unsupported_message(topics, model))
    for mention in state.mentions:
        if mention.has("context"):
            mention.used = True
            state.consume(*range(mention.start, mention.end))

    time = _time_filter(state, model)
    filters, ambiguous, unresolved, having = _comparisons(state, model)
    limit, top = _limit(state)
    filters += _flags(state)
    value_filters, unknown, compared = _values(state, model, values)
    filters += value_filters
    counted_metrics, counted = _counted_dimensions(state, model)
    grouping, which_singular, by_metric_mentions, dim_ambiguous = _groupings(state, model, time)
    for dim in compared:
        grouping.setdefault(dim, None)
    ambiguous += dim_ambiguous
    metric_choices, rank_mentions, unmatched = _metrics(state, model, has_grouping=bool(grouping))
    metric_choices = [[m] for m in counted_metrics] + metric_choices

    ignored = [t.text for i, t in enumerate(tokens) if i not in _covered(state) and t.low not in STOPWORDS
               and t.number is None]
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
    if not metric_choices:
        if (grouping or rank_mentions or filters or time) and model.default_metric:
            metric_choices = [[model.default_metric]]
        else:
            return Extraction(reason="The question names nothing the semantic model can measure.",
                              ignored_words=ignored)

    grouping_mentions = dict(grouping)
    fields = list(grouping) + [f.field for f in filters]
    metrics = _choose_metrics(metric_choices, fields, model)
    table = model.metric_by_name[metrics[0]].table
    grouping = _drop_per_entity(grouping, state, model, table)
    unresolved = [key for key in grouping if isinstance(key, tuple)]
    if unresolved:
        return Extraction(
            ambiguous=[Ambiguity(text=_mention_text(state, grouping_mentions[key]), options=list(key)) for key in unresolved],
            reason="A word could mean more than one thing.", ignored_words=ignored)

    order_by: list[OrderBy] = []
    descending = next((m.of("rank")[0].payload == "desc" for m in rank_mentions), True)
    if grouping and (rank_mentions or top):
        ranked = _ranked_metric(by_metric_mentions, metrics, state, model) or _rankable(metrics, having, model)
        polar = rank_mentions and _words(state, rank_mentions[0]) in {phrase(w) for w in model.shapes.get("polarity", [])}
        if polar and model.metric_by_name[ranked].higher_is_better:
            descending = not descending  # 'best first' of an on-time share is the highest
        order_by = [OrderBy(field=ranked, descending=descending if rank_mentions else True)]
        if limit is None and (which_singular or _singular_superlative(state, rank_mentions, model)):
            limit = 1
        if limit is None and top:
            limit = 5
    elif limit is not None and grouping:
        order_by = [OrderBy(field=metrics[0], descending=True)]

    intent = StructuredIntent(
        metrics=metrics, dimensions=list(grouping), filters=filters,
        time=time if time is not None and not time.is_empty() else None,
        having=having, order_by=order_by, limit=limit if grouping else None,
    )
    intent, unexplained = shapes.refine(intent, state, model)
    if unexplained:
        return Extraction(reason=unexplained, ignored_words=ignored)
    problems = validate_intent(intent, model)
    if problems:
        return Extraction(reason=" ".join(problems), ignored_words=ignored)
    content = [t for t in tokens if t.low not in STOPWORDS]
    coverage = 1.0 - len(ignored) / max(1, len(content))
    return Extraction(intent=intent, ignored_words=ignored, confidence=round(0.5 + 0.5 * coverage, 2))


def _split_units(tokens: list[Token], units: dict) -> list[Token]:
    """'32F', '15min', '2h': a number glued to a unit word is a number and a unit."""
    out: list[Token] = []
    for token in tokens:
        glued = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z%]+)", token.low)
        if token.number is None and glued and glued.group(2) in units:
            out += [Token(glued.group(1), glued.group(1), float(glued.group(1))), Token(glued.group(2), glued.group(2))]
        else:
            out.append(token)
    return out


def _rankable(metrics: list[str], having: list[MetricFilter], model: SemanticModel) -> str:
    """What 'worst first' ranks when only conditions named measures ('routes with at least 2000
    flights and an average delay over 10 min'): the measured one, not the count."""
    if set(metrics) <= {h.metric for h in having}:
        measured = [m for m in metrics if model.metric_by_name[m].measure is not None]
        if measured:
            return measured[-1]
    return metrics[0]


def _flags(state: _State) -> list[Filter]:
    """'flights that actually took off': a true/false dimension said by its words, or negated."""
    filters = []
    for mention in state.mentions:
        for entry in mention.of("flag"):
            if not mention.used:
                filters.append(Filter(field=entry.payload, values=[not _negated(state, mention.start)]))
                mention.used = True
    return filters


def _mention_text(state: _State, mention: Mention | None) -> str:
    return "" if mention is None else " ".join(t.text for t in state.tokens[mention.start:mention.end])


def _covered(state: _State) -> set[int]:
    covered = set(state.used_tokens)
    for mention in state.mentions:
        if mention.used:
            covered.update(range(mention.start, mention.end))
    return covered


def _unsupported_message(topics: list[str], model: SemanticModel) -> str:
    asked = " or ".join(dict.fromkeys(topics))
    holds = ", ".join(t.label for t in model.tables if t.entity_words)
    measures = ", ".join(m.label.lower() for m in model.metrics if m.default or m.measure is None)
    return f"The warehouse has no data on {asked}. It holds {holds}, with measures such as {measures}."


# -- time ------------------------------------------------------------------------------------------

def _time_filter(state: _State, model: SemanticModel) -> TimeFilter | None:
    tokens = state.tokens
    months: list[int] = []
    days: list[int] = []
    year: int | None = None

    month_mentions = [m for m in state.mentions if m.has("month")]
    i = 0
    while i < len(month_mentions):
        first = month_mentions[i]
        start_month = first.of("month")[0].payload
        first.used = True
        nxt = month_mentions[i + 1] if i + 1 < len(month_mentions) else None
        if nxt is not None and nxt.start - first.end == 1:
            link = tokens[first.end].low
            between = state.cue_before(first.start, [("between",), ("from",)]) is not None
            if link in _RANGE_WORDS or (link == "and" and between):
                end_month = nxt.of("month")[0].payload
                months += _month_range(start_month, end_month)
                nxt.used = True
                state.consume(first.end, *_cue_indexes(state, first.start, [("between",), ("from",)]))
                i += 2
                continue
        months.append(start_month)
        # "October 5", "5 October", "October 5th", "Nov 24-30", "Feb 8 and 9", "the 4th of July"
        if first.end < len(tokens) and _is_day(tokens[first.end]):
            days.append(int(tokens[first.end].number))
            state.consume(first.end)
            link = first.end + 1
            if link + 1 < len(tokens) and tokens[link].low in _RANGE_WORDS | {"-", "and"} and _is_day(tokens[link + 1]):
                last = int(tokens[link + 1].number)
                days += list(range(days[-1] + 1, last + 1)) if tokens[link].low != "and" else [last]
                state.consume(link, link + 1)
        elif first.start > 1 and tokens[first.start - 1].low == "of" and _is_day(tokens[first.start - 2]):
            days.append(int(tokens[first.start - 2].number))
            state.consume(first.start - 2, first.start - 1)
        elif first.start > 0 and _is_day(tokens[first.start - 1]) and first.start - 1 not in state.used_tokens \
                and (first.start < 2 or tokens[first.start - 2].low in {"on", "the"}):
            days.append(int(tokens[first.start - 1].number))
            state.consume(first.start - 1)
        i += 1

    for mention in state.mentions:
        for entry in mention.of("season"):
            months += entry.payload
            mention.used = True
        for entry in mention.of("day"):  # 'Christmas day', 'New Year's Eve'
            months.append(entry.payload[0])
            days.append(entry.payload[1])
            mention.used = True
    # 'the first week of January': days 1-7 of that month
    for index in range(len(tokens) - 3):
        if tokens[index].low in _ORDINALS and tokens[index + 1].low == "week" and tokens[index + 2].low == "of" \
                and any(m.start == index + 3 and m.has("month") for m in state.mentions) and not days:
            week = _ORDINALS[tokens[index].low] if tokens[index].low != "last" else 4
            days += list(range(7 * week - 6, min(7 * week, 31) + 1)) if tokens[index].low != "last" else list(
                range(25, 32))
            _consume_with_mentions(state, [index, index + 1, index + 2])
    weekdays: list[int] = []
    for mention in state.mentions:
        # "on weekdays" restricts; "by weekday", "which weekday" group (left to the dimension reading)
        grouped = state.cue_before(mention.start, _GROUP_CUES + [(w,) for w in _WHICH])
        if mention.has("weekday") and not (mention.has("dimension") and grouped):
            weekdays += mention.of("weekday")[0].payload
            mention.used = True

    words = [t.low for t in tokens]
    for idx, word in enumerate(words):
        quarter = None
        span: list[int] = []
        if re.fullmatch(r"q[1-4]", word):
            quarter, span = int(word[1]), [idx]
        elif word in _ORDINALS and idx + 1 < len(words) and words[idx + 1] == "quarter":
            quarter, span = _ORDINALS[word], [idx, idx + 1]
        elif word == "quarter" and idx + 1 < len(words) and tokens[idx + 1].number in (1, 2, 3, 4):
            quarter, span = int(tokens[idx + 1].number), [idx, idx + 1]
        if quarter is not None:
            months += list(range(3 * quarter - 2, 3 * quarter + 1))
            _consume_with_mentions(state, span + _of_the_year(words, span[-1]))
            continue
        half = None
        if re.fullmatch(r"h[12]", word):
            half, span = int(word[1]), [idx]
        elif word in _ORDINALS and idx + 1 < len(words) and words[idx + 1] == "half":
            half, span = min(_ORDINALS[word], 2), [idx, idx + 1]
        if half is not None:
            months += list(range(6 * half - 5, 6 * half + 1))
            _consume_with_mentions(state, span + _of_the_year(words, span[-1]))
            continue
        number = tokens[idx].number
        if number is not None and 1990 <= number <= 2100 and float(number).is_integer() and idx not in state.used_tokens:
            if idx > 0 and words[idx - 1] in {"in", "during", "for", "of", "since", "year"}:
                year = int(number)
                state.consume(idx)
    if not (months or days or year or weekdays):
        return None
    return TimeFilter(year=year, months=months, days=days, weekdays=weekdays)


def _is_day(token: Token) -> bool:
    return token.number is not None and float(token.number).is_integer() and 1 <= token.number <= 31


def _month_range(start: int, end: int) -> list[int]:
    if start <= end:
        return list(range(start, end + 1))
    return list(range(start, 13)) + list(range(1, end + 1))  # "November through February"


def _of_the_year(words: list[str], last: int) -> list[int]:
    tail = ("of", "the", "year")
    if tuple(words[last + 1:last + 4]) == tail:
        return [last + 1, last + 2, last + 3]
    return []


def _cue_indexes(state: _State, start: int, cues) -> list[int]:
    cue = state.cue_before(start, cues)
    return list(range(start - len(cue), start)) if cue else []


def _consume_with_mentions(state: _State, indexes: list[int]) -> None:
    state.consume(*indexes)
    for mention in state.mentions:
        if any(i in indexes for i in range(mention.start, mention.end)):
            mention.used = True


# -- comparisons and limits -------------------------------------------------------------------------

def _mention_at(state: _State, index: int) -> Mention | None:
    return next((m for m in state.mentions if m.start <= index < m.end), None)


def _comparisons(state: _State, model: SemanticModel):
    """'over 2 hours', 'more than 200 seats': a comparison becomes a filter on the measure it
    names; 'more than 20k flights', 'an average delay over 10 min', 'at least 6 different
    carriers' compare an aggregate, so they become conditions on a metric (HAVING); one whose
    measure cannot be told is returned as unresolved, never dropped."""
    tokens = state.tokens
    having: list[MetricFilter] = []
    filters: list[Filter] = []
    ambiguous: list[Ambiguity] = []
    unresolved: list[str] = []
    i = 0
    while i < len(tokens):
        op, values, span, end = _comparison_at(tokens, i, model.unit_words)
        if op is None and _exact_count_at(state, i, model):
            op, values, span, end = "=", [tokens[i].number], [i], i + 1  # 'planes with 4 engines'
        if op is None:
            i += 1
            continue
        unit = model.unit_words.get(tokens[end].low) if end < len(tokens) else None
        unit_index = end if unit else None
        after = _numeric_mention_after(state, end, model)
        before = _numeric_mention_before(state, span[0], model)
        # 'visibility under 1 mile': the unit word ('mile') may name a measure too; the measure said
        # before the comparison wins over a unit after it
        field_mention = before if before is not None and (after is None or (unit and after.start == end)) else after
        dim_name = None
        aggregated = _aggregated_target(state, span[0], end, field_mention, model)
        if aggregated is not None:
            metric, used = aggregated
            for index in used:
                mention = _mention_at(state, index)
                if mention is not None:
                    mention.used = True
            scale = unit[1] if unit is not None else 1
            having.append(MetricFilter(metric=metric, op=op if op != "between" else ">=", value=values[0] * scale))
            _consume_with_mentions(state, [*span, *used, *([unit_index] if unit_index is not None else [])])
            i = max(span[-1], end, *used) + 1
            continue
        if field_mention is not None:
            dim_name = field_mention.of("dimension")[0].payload
            dim_name = next((e.payload for e in field_mention.of("dimension")
                             if model.dimension_by_name[e.payload].kind == "numeric"), dim_name)
            if field_mention.start >= end:
                dim_name = _split_synonym(state, span[0], field_mention, model) or dim_name
        elif unit is not None:
            candidates = [d.name for d in model.dimensions if d.kind == "numeric" and d.unit == unit[0]]
            # 'longer than 5 hours' compares a duration, not a delay: the comparative word narrows
            compared = [c for c in candidates if tokens[span[0]].low in model.dimension_by_name[c].comparatives]
            candidates = compared or candidates
            if len(candidates) == 1:
                dim_name = candidates[0]
            elif candidates:
                ambiguous.append(Ambiguity(text=" ".join(t.text for t in tokens[span[0]:end + 1]), options=candidates))
        if dim_name is None:
            if unit is None or not ambiguous:
                unresolved.append(" ".join(t.text for t in tokens[span[0]:max(span[-1], end) + 1]))
            i = span[-1] + 1
            continue
        dim = model.dimension_by_name[dim_name]
        factor = unit[1] if unit is not None and unit[0] == dim.unit else 1
        scaled = [_clean_number(v * factor) for v in values]
        filters.append(Filter(field=dim_name, op=op, values=scaled))
        state.positions[(dim_name, op, tuple(scaled))] = span[0]
        _consume_with_mentions(state, [*span, *([unit_index] if unit_index is not None else [])])
        if field_mention is not None:
            field_mention.used = True
        i = max(span[-1], end) + 1
    return filters, ambiguous, unresolved, having


_QUALIFIERS = {"different", "distinct", "unique", "individual", "separate"}


def _metric_before(state: _State, start: int, model: SemanticModel) -> Mention | None:
    """A measure's aggregate named right before a comparison ('an average departure delay above
    15 minutes'); a count before it ('how many flights were longer than ...') compares rows."""
    j = start
    while j > 0 and state.tokens[j - 1].low in {"was", "is", "were", "are", "of", "been", "be"}:
        j -= 1
    mention = _mention_at(state, j - 1) if j > 0 else None
    if mention is not None and mention.end == j and mention.has("metric") and not mention.used \
            and all(model.metric_by_name[e.payload].measure is not None for e in mention.of("metric")):
        return mention
    return None


def _aggregated_target(state: _State, start: int, end: int, field: Mention | None, model: SemanticModel):
    """The metric a comparison is about when it compares an aggregate, and the token indexes
    naming it: 'more than 20k flights' (a count), 'flew more than 400 times' (rows counted),
    'at least 6 different carriers' (distinct values), 'an avg arrival delay over 10 min'."""
    named = _metric_before(state, start, model)
    if named is not None and (field is None or field.start >= start):
        return named.of("metric")[0].payload, list(range(named.start, named.end))  # 'an average delay above 15 min'
    if field is not None and field.start < start:
        agg = _mention_at(state, field.start - 1)
        if agg is not None and agg.has("agg") and not agg.has("rank"):
            measure = next(e.payload for e in field.of("dimension")
                           if model.dimension_by_name[e.payload].kind == "numeric")
            metrics = _metrics_for(measure, [agg.of("agg")[0].payload], model)
            if metrics:
                return metrics[0], list(range(agg.start, field.end))
        return None
    j = end
    while j < len(state.tokens) and state.tokens[j].low in _QUALIFIERS and _mention_at(state, j) is None:
        j += 1
    if j >= len(state.tokens):
        return None
    if state.tokens[j].low == "times" and model.default_metric:
        return model.default_metric, list(range(end, j + 1))
    mention = _mention_at(state, j)
    if mention is None or mention.start != j:
        return None
    used = list(range(end, mention.end))
    if mention.has("metric"):
        return mention.of("metric")[0].payload, used
    if mention.has("entity"):
        count = model.table_by_name[mention.of("entity")[0].payload].count_metric
        if count:
            return count, used
    dims = [e.payload for e in mention.of("dimension") if model.dimension_by_name[e.payload].kind == "categorical"]
    if dims and _plural(state, mention):
        metric = model.distinct_count_metric(dims[0])
        if metric:
            return metric, used
    return None


def _split_synonym(state: _State, start: int, after: Mention, model: SemanticModel) -> str | None:
    """'arrived more than an hour late': a measure's synonym ('arrived late') split by the comparison."""
    if start == 0:
        return None
    words = (state.tokens[start - 1].low, *_words(state, after))
    return next((d.name for d in model.dimensions if d.kind == "numeric"
                 and any(phrase(s) == words for s in d.synonyms)), None)


def _exact_count_at(state: _State, i: int, model: SemanticModel) -> bool:
    """'with 4 engines', 'that have 2 engines': a number owned by a measure named right after it."""
    token = state.tokens[i]
    return token.number is not None and i > 0 and state.tokens[i - 1].low in {"with", "have", "has", "had"} \
        and i not in state.used_tokens and _numeric_mention_after(state, i + 1, model) is not None


_OR_SUFFIX = {"more": ">=", "greater": ">=", "longer": ">=", "over": ">=", "less": "<=", "fewer": "<=",
              "shorter": "<=", "under": "<="}


def _comparison_at(tokens: list[Token], i: int, units: dict) -> tuple[str | None, list[float], list[int], int]:
    """A comparison starting at token i: (op, numbers, its token indexes, where a unit may stand)."""
    words = tuple(t.low for t in tokens)
    if words[i] == "between" and i + 3 < len(tokens) and tokens[i + 1].number is not None \
            and words[i + 2] == "and" and tokens[i + 3].number is not None:
        return "between", [tokens[i + 1].number, tokens[i + 3].number], [i, i + 1, i + 2, i + 3], i + 4
    for cue, op in _COMPARATORS:
        n = len(cue)
        if words[i:i + n] != cue:
            continue
        j = i + n
        if j < len(tokens) and words[j] in {"a", "an"} and j + 1 < len(tokens) and words[j + 1] in units:
            return op, [1.0], list(range(i, j + 1)), j + 1  # "over an hour"
        if j < len(tokens) and tokens[j].number is not None:
            return op, [tokens[j].number], list(range(i, j + 1)), j + 1
    if tokens[i].number is not None:
        # "4 engines or more", "2 hours or longer": the unit sits between the number and "or"
        for gap in (0, 1):
            k = i + 1 + gap
            if k + 1 < len(tokens) and words[k] == "or" and words[k + 1] in _OR_SUFFIX:
                return _OR_SUFFIX[words[k + 1]], [tokens[i].number], [i, k, k + 1], i + 1
    return None, [], [], i


def _clean_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _numeric_mention_after(state: _State, index: int, model: SemanticModel) -> Mention | None:
    """'more than 200 seats': the measure named right after the number (or after its unit)."""
    for offset in (0, 1):
        mention = _mention_at(state, index + offset)
        if mention is not None and mention.start == index + offset and _numeric(mention, model):
            return mention
    return None


def _numeric_mention_before(state: _State, index: int, model: SemanticModel) -> Mention | None:
    """'arrival delay over 2 hours', 'delayed by more than an hour': the measure just before."""
    j = index
    skipped = 0
    while j > 0 and skipped <= 3:
        mention = _mention_at(state, j - 1)
        if mention is not None:
            return mention if _numeric(mention, model) and not mention.used else None
        if state.tokens[j - 1].low not in STOPWORDS and state.tokens[j - 1].low not in {"was", "were", "had"}:
            return None
        j -= 1
        skipped += 1
    return None


def _numeric(mention: Mention, model: SemanticModel) -> bool:
    return any(model.dimension_by_name[e.payload].kind == "numeric" for e in mention.of("dimension"))


def _limit(state: _State) -> tuple[int | None, bool]:
    """'top 5', 'bottom 3', '5 busiest': how many groups to keep; and whether 'top' was said."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.low in {"top", "bottom", "first"} and index + 1 < len(tokens):
            nxt = tokens[index + 1]
            if nxt.number is not None and index + 1 not in state.used_tokens:
                state.consume(index + 1)
                return int(nxt.number), token.low == "top"
            if token.low == "top":
                return None, True
        mention = _mention_at(state, index + 1)
        if token.number is not None and index not in state.used_tokens and mention is not None \
                and mention.has("dimension") and index > 0 and tokens[index - 1].low in _WHICH:
            state.consume(index)  # "which 3 carriers ..."
            return int(token.number), False
        if token.number is not None and index not in state.used_tokens and mention is not None \
                and mention.has("dimension") and (index == 0 or tokens[index - 1].low in {"the", "show", "list", "me"}) \
                and tokens[mention.end - 1].low.endswith("s"):
            state.consume(index)  # "5 tail numbers that ...", "show the 10 routes ..."
            return int(token.number), False
        if token.number is not None and index not in state.used_tokens and mention is not None \
                and mention.has("rank") and (index == 0 or tokens[index - 1].low in {"the", "show", "list"}):
            state.consume(index)
            return int(token.number), False
    return None, False


# -- values ---------------------------------------------------------------------------------------------

def _values(state: _State, model: SemanticModel, values: ValueIndex) -> tuple[list[Filter], list[UnknownValue], list[str]]:
    """Value filters, words that look like values but are none, and the dimensions whose
    values are set against each other ('Delta vs United') and so also group the answer."""
    chosen: dict[str, list[str]] = {}
    negated: dict[str, list[str]] = {}
    placed: list[tuple[Mention, str]] = []
    for mention in state.mentions:
        candidates = [e.payload for e in mention.of("value") if not e.needs_cue or _value_cue_before(state, mention, e, model)]
        if not candidates or mention.used:
            continue
        dims = list(dict.fromkeys(dim for dim, _ in candidates))
        dim = _value_dimension(state, mention, dims, model)
        target = negated if _negated(state, mention.start) else chosen
        for value in (v for d, v in candidates if d == dim):  # 'Canadair': CANADAIR and CANADAIR LTD
            if value not in target.setdefault(dim, []):
                target[dim].append(value)
        mention.used = True
        if target is chosen:
            placed.append((mention, dim))
            for _, value in candidates:
                state.positions.setdefault((dim, str(value)), mention.start)
    filters = [Filter(field=d, op="=" if len(v) == 1 else "in", values=v) for d, v in chosen.items()]
    filters += [Filter(field=d, op="!=", values=[value]) for d, v in negated.items() for value in v]
    unknown = _unknown_values(state, model, values)
    return filters, unknown, _compared_dimensions(state, placed)


_CONTRASTS = {("vs",), ("versus",), ("v",), ("compared", "to"), ("compared", "with"), ("against",)}


def _compared_dimensions(state: _State, placed: list[tuple[Mention, str]]) -> list[str]:
    """'American vs Delta', 'compare JFK and LGA': each value is wanted on its own row."""
    comparing = any(t.low in {"compare", "comparing", "comparison"} for t in state.tokens)
    compared: list[str] = []
    for (first, dim), (second, other) in zip(placed, placed[1:]):
        link = tuple(t.low for t in state.tokens[first.end:second.start])
        if dim == other and (link in _CONTRASTS or (comparing and link in {("and",), ("with",)})):
            state.consume(*range(first.end, second.start))
            if dim not in compared:
                compared.append(dim)
    if compared:
        state.consume(*(i for i, t in enumerate(state.tokens) if t.low in {"compare", "comparing", "comparison"}))
    return compared


def _negated(state: _State, start: int) -> bool:
    """'not JFK', 'except Delta', 'not operated by United': a negation, maybe across function words."""
    for gap in range(4):
        if start - gap < 0 or any(t.low not in STOPWORDS for t in state.tokens[start - gap:start]):
            break
        cue = state.cue_before(start - gap, _NEGATIONS, skip=())
        if cue:
            state.consume(*range(start - gap - len(cue), start - gap))
            return True
    return False


def _value_cue_before(state: _State, mention: Mention, entry: Entry, model: SemanticModel) -> bool:
    dimension = model.dimension_by_name[entry.payload[0]]
    return state.cue_before(mention.start, [phrase(c) for c in dimension.value_cues]) is not None


def _value_dimension(state: _State, mention: Mention, dims: list[str], model: SemanticModel) -> str:
    """A value both an origin and a destination: the word before it decides ('from', 'to');
    a dimension named just before it ('carrier B6') decides too; else the model's order."""
    if len(dims) == 1:
        return dims[0]
    before = _mention_at(state, mention.start - 1)
    if before is not None:
        named = [e.payload for e in before.of("dimension") if e.payload in dims]
        if named:
            before.used = True
            return named[0]
    for dim in dims:
        cues = [phrase(c) for c in model.dimension_by_name[dim].value_cues]
        if cues and state.cue_before(mention.start, cues):
            return dim
    return dims[0]


def _unknown_values(state: _State, model: SemanticModel, values: ValueIndex) -> list[UnknownValue]:
    """Code-like words ('ZZ', 'XYZ') that match nothing are reported, never silently dropped."""
    covered = _covered(state) | {i for m in state.mentions for i in range(m.start, m.end)}
    value_cues = [phrase(c) for d in model.dimensions if d.values for c in d.value_cues]
    unknown = []
    for index, token in enumerate(state.tokens):
        if index in covered or re.fullmatch(r"[QH][1-4]", token.text):
            continue
        # a code ('ZZ') anywhere, or a name ('Dallas') right after 'from' / 'to'
        named = index > 0 and token.text[:1].isupper() and token.low not in STOPWORDS \
            and state.cue_before(index, value_cues) is not None
        if not (_CODE_LIKE.fullmatch(token.text) or named):
            continue
        dim = None
        before = _mention_at(state, index - 1)
        if before is not None:
            dim = next((e.payload for e in before.of("dimension") if model.dimension_by_name[e.payload].values), None)
            if dim is not None:
                before.used = True
        if dim is None:
            for candidate in (d for d in model.dimensions if d.values and d.value_cues):
                if state.cue_before(index, [phrase(c) for c in candidate.value_cues]):
                    dim = candidate.name
                    break
        suggestions = values.suggest(dim, token.text) if dim else []
        unknown.append(UnknownValue(text=token.text, dimension=dim, suggestions=suggestions))
    return unknown


def _counted_dimensions(state: _State, model: SemanticModel) -> tuple[list[str], list[str]]:
    """'the most routes', 'how many manufacturers': a count of distinct values. Returns the
    metrics that count them, and the labels of those no metric counts (so the question is
    not answered as a grouping). 'The busiest routes' describes routes: not counted here."""
    metrics: list[str] = []
    missing: list[str] = []
    counting = {phrase(w) for w in model.ranking.counting}
    for mention in state.mentions:
        if mention.used or mention.has("metric") or mention.has("entity") or not _plural(state, mention):
            continue
        dims = [e.payload for e in mention.of("dimension") if model.dimension_by_name[e.payload].kind == "categorical"]
        if not dims:
            continue
        before = _mention_at(state, mention.start - 1)
        quantity = before is not None and before.has("rank") and _words(state, before) in counting
        if quantity or state.words_before(mention.start, 2) in {("how", "many"), ("number", "of")}:
            metric = model.distinct_count_metric(dims[0])
            if metric is not None:
                metrics.append(metric)
            else:
                missing.append(model.dimension_by_name[dims[0]].label + "s")
            mention.used = True
    return metrics, missing


def _words(state: _State, mention: Mention) -> tuple[str, ...]:
    return tuple(t.low for t in state.tokens[mention.start:mention.end])


# -- groupings --------------------------------------------------------------------------------------------

def _groupings(state: _State, model: SemanticModel, time: TimeFilter | None):
    grouping: dict[str, Mention | None] = {}
    by_metric: list[Mention] = []
    ambiguous: list[Ambiguity] = []
    which_singular = False
    single_month = time is not None and len(time.months) == 1 and not time.days
    for mention in state.mentions:
        if mention.used:
            continue
        if mention.has("grain"):
            dim = mention.of("grain")[0].payload
            if dim == "day" and not single_month:
                dim = "date"  # days across several months are dates, not days of the month
            grouping.setdefault(dim, mention)
            mention.used = True
            continue
        if mention.has("metric"):
            if state.cue_before(mention.start, [("by",)]):
                by_metric.append(mention)  # "top 5 carriers by average delay": the ranking measure
            continue
        dims = [e.payload for e in mention.of("dimension")]
        if not dims:
            continue
        cue = state.cue_before(mention.start, _GROUP_CUES)
        which = state.cue_before(mention.start, [(w,) for w in _WHICH], skip=("the", "a", "an", "top"))
        after_top = state.cue_before(mention.start, [("top",), ("bottom",)]) or (
            mention.start > 0 and state.tokens[mention.start - 1].number is not None
            and mention.start - 1 in state.used_tokens)
        numeric = all(model.dimension_by_name[d].kind == "numeric" for d in dims)
        after = state.tokens[mention.end].low if mention.end < len(state.tokens) else ""
        if after in {"when", "where", "while"} and not (cue or which or after_top):
            continue  # 'in hours when the wind was over 25 mph': a clause, not a grouping
        if (numeric or mention.has("entity")) and not (cue or which or after_top):
            continue  # a measure ("average delay") or a counted thing ("how many planes")
        if dims[0] == "day" and not single_month:
            dims = ["date" if d == "day" else d for d in dims]
        if len(set(dims)) > 1:
            mention.used = True
            grouping.setdefault(tuple(dims), mention)  # resolved once the metric's table is known
        else:
            grouping.setdefault(dims[0], mention)
            mention.used = True
        if which and not _plural(state, mention):
            which_singular = True
    return grouping, which_singular, by_metric, ambiguous


def _plural(state: _State, mention: Mention) -> bool:
    last = state.tokens[mention.end - 1].low
    return last.endswith("s") and not last.endswith("ss")


def _drop_per_entity(grouping: dict, state: _State, model: SemanticModel, table: str) -> list[str]:
    """'seats per plane' over planes rows is an average per row, not a grouping by plane;
    several dimensions behind one word keep the one the metric's table can reach."""
    entity_words = {form for w in model.table_by_name[table].entity_words for form in inflections(phrase(w))}
    result: list[str] = []
    for key, mention in grouping.items():
        if mention is not None and mention.has("entity") and \
                tuple(t.low for t in state.tokens[mention.start:mention.end]) in entity_words:
            continue
        if isinstance(key, tuple):
            reachable = [d for d in key if model.resolve(d, table) is not None]
            key = reachable[0] if len(reachable) == 1 else key
        result.append(key)
    return result


# -- metrics --------------------------------------------------------------------------------------------------

def _metrics(state: _State, model: SemanticModel, has_grouping: bool) -> tuple[list[list[str]], list[Mention], list[str]]:
    choices: list[list[str]] = []
    unmatched: list[str] = []
    weak: list[list[str]] = []
    rank_mentions = [m for m in state.mentions if m.has("rank") and not m.used]
    on_average = any(t.low == "average" for t in state.tokens) and ("on", "average") in {
        (a.low, b.low) for a, b in zip(state.tokens, state.tokens[1:])}
    counts_things = _asks_how_many(state, model)
    # 'max arrival delay per route' aggregates; 'which route has the highest delay' ranks
    asks_which = any(t.low in _WHICH | {"top", "bottom"} for t in state.tokens)
    for mention in state.mentions:
        if mention.used and not mention.has("metric"):
            continue
        if mention.has("metric"):
            names = [e.payload for e in mention.of("metric")]
            choices += _sibling_aggregations(state, mention, model.metric_by_name[names[0]].measure, model)
            choices.append(_with_other_tables(names, model))
            mention.used = True
            continue
        measures = [e.payload for e in mention.of("dimension") if model.dimension_by_name[e.payload].kind == "numeric"]
        if measures:
            aggs = _aggregations_before(state, mention, rank_as_agg=not has_grouping or not asks_which,
                                        grouped=has_grouping)
            if not aggs and on_average:
                aggs = ["avg"]
            if not aggs and _counted_by_quantity_word(state, mention, model):
                aggs = ["sum"]  # 'the most miles' adds the miles up; the word still ranks
            if not aggs and (counts_things or _describes_counted_noun(state, mention, model)):
                mention.used = True  # 'how many planes were made by Boeing': a verb, not a second measure
                continue
            picked = _metrics_for(measures[0], aggs, model)
            if picked:
                choices.append(picked)
            else:
                label = model.dimension_by_name[measures[0]].label
                unmatched.append(f"{' and '.join(aggs)} of {label}")
            mention.used = True
            continue
        if mention.has("entity"):
            table = model.table_by_name[mention.of("entity")[0].payload]
            if table.count_metric:
                weak.append(_with_other_tables([table.count_metric], model))
                mention.used = True
    if not choices:
        for mention in rank_mentions:
            word = " ".join(t.low for t in state.tokens[mention.start:mention.end])
            measure = model.ranking.implies_measure.get(word)
            if measure:
                agg = [] if has_grouping else [e.payload for e in mention.of("agg")]
                choices.append(_metrics_for(measure, agg, model))
                if not has_grouping:
                    mention.used = True
                break
    for mention in state.mentions:
        if mention.has("agg") and not mention.used and not mention.has("rank"):
            mention.used = True  # an aggregation word with nothing to aggregate adds nothing
    rank_mentions = [m for m in rank_mentions if not m.used]
    for mention in rank_mentions:
        mention.used = True
    chosen = choices or weak[:1]
    unique: list[list[str]] = []
    for option in chosen:
        if option not in unique:
            unique.append(option)
    return unique, rank_mentions, unmatched


def _counted_by_quantity_word(state: _State, mention: Mention, model: SemanticModel) -> bool:
    before = _mention_at(state, mention.start - 1)
    return before is not None and before.has("rank") and _words(state, before) in {
        phrase(w) for w in model.ranking.counting}


_HOW_MANY = {("how", "many"), ("number", "of"), ("count", "of")}


def _asks_how_many(state: _State, model: SemanticModel) -> bool:
    """'how many planes', 'number of flights': the question counts one kind of thing."""
    for mention in state.mentions:
        counts = mention.has("entity") or any(model.metric_by_name[e.payload].measure is None
                                              for e in mention.of("metric"))
        if counts and (state.words_before(mention.start, 2) in _HOW_MANY or _words(state, mention)[:2] in _HOW_MANY):
            return True
    return False


def _describes_counted_noun(state: _State, mention: Mention, model: SemanticModel) -> bool:
    """'planes made by Airbus': a participle between a counted noun and 'by <value>' says what
    the things are, it does not ask for a measure of them."""
    if mention.end >= len(state.tokens) or state.tokens[mention.end].low != "by":
        return False
    agent = _mention_at(state, mention.end + 1)
    if agent is None or not agent.has("value"):
        return False
    j = mention.start
    while j > 0 and state.tokens[j - 1].low in {"were", "was", "that", "which", "been"}:
        j -= 1
    noun = _mention_at(state, j - 1)
    return noun is not None and noun.has("entity")


def _sibling_aggregations(state: _State, mention: Mention, measure: str | None, model: SemanticModel) -> list[list[str]]:
    """'average and maximum departure delay': the words before 'and' aggregate the same measure."""
    if measure is None or mention.start < 2 or state.tokens[mention.start - 1].low not in {"and", "or"}:
        return []
    before = _mention_at(state, mention.start - 2)
    if before is None or not before.has("agg") or before.used:
        return []
    before.used = True
    state.consume(mention.start - 1)
    return [_metrics_for(measure, [before.of("agg")[0].payload], model)]


def _with_other_tables(metrics: list[str], model: SemanticModel) -> list[str]:
    """A table's count metric, then how the same things are counted from other tables' rows."""
    result = list(metrics)
    for table in model.tables:
        if table.count_metric in metrics:
            result += [m for m in table.counted_from.values() if m not in result]
    return result


def _aggregations_before(state: _State, mention: Mention, rank_as_agg: bool, grouped: bool = False) -> list[str]:
    """Aggregation words right before a measure: 'average', 'average and maximum', 'the total'."""
    aggs: list[str] = []
    j = mention.start
    while j > 0:
        before = _mention_at(state, j - 1)
        if before is not None and before.has("agg") and not before.used:
            # among groups, 'the highest delay' picks a group; 'highest delay by month' aggregates
            if before.has("rank") and (not rank_as_agg or (grouped and state.cue_before(before.start, [("the",)], skip=()))):
                break
            aggs.insert(0, before.of("agg")[0].payload)
            before.used = True
            j = before.start
            if j > 0 and state.tokens[j - 1].low in {"and", "or"}:
                j -= 1
                continue
            break
        if state.tokens[j - 1].low in {"the", "a", "an", "flight", "flights"} and before is None:
            j -= 1
            continue
        break
    return aggs


def _metrics_for(measure: str, aggs: list[str], model: SemanticModel) -> list[str]:
    metrics = [m for m in model.metrics if m.measure == measure]
    if not aggs:
        return [m.name for m in metrics if m.default][:1]
    return [m.name for agg in aggs for m in metrics if m.agg == agg][:len(aggs)] or []


def _choose_metrics(choices: list[list[str]], fields: list, model: SemanticModel) -> list[str]:
    """For each metric mention, the first candidate whose table reaches every dimension named."""
    flat: list[str] = []
    for options in choices:
        expanded = [m for option in options for m in ([option] if isinstance(option, str) else option)]
        chosen = expanded[0]
        for name in expanded:
            table = model.metric_by_name[name].table
            if all(_reachable(f, table, model) for f in fields):
                chosen = name
                break
        if chosen not in flat:
            flat.append(chosen)
    return flat


def _reachable(field_name, table: str, model: SemanticModel) -> bool:
    names = field_name if isinstance(field_name, tuple) else (field_name,)
    return any(model.resolve(n, table) is not None for n in names)


def _ranked_metric(by_metric: list[Mention], metrics: list[str], state: _State, model: SemanticModel) -> str | None:
    for mention in by_metric:
        for entry in mention.of("metric"):
            if entry.payload in metrics:
                return entry.payload
    return None


def _singular_superlative(state: _State, rank_mentions: list[Mention], model: SemanticModel) -> bool:
    """'the busiest route', 'busiest month', 'the carrier with the most flights': one group is wanted."""
    for mention in state.mentions:
        groups = [e for e in mention.of("dimension") if model.dimension_by_name[e.payload].kind != "numeric"]
        if not groups or _plural(state, mention):
            continue
        if any(r.end == mention.start for r in rank_mentions):
            return True
        if mention.start >= 1 and state.tokens[mention.start - 1].low == "the" and mention.end < len(state.tokens) \
                and state.tokens[mention.end].low in {"with", "that", "having", "where"}:
            return True
    return False
