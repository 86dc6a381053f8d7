"""A message in a thread read as an EDIT of the previous reading, or as a question of its own.

The words that only work on a previous reading (drop, instead, compare to, top 3, as a bar chart,
the median) are listed in `dialogue_words.yaml`; they are found and taken out first. What is left
is read by the ordinary question reader, and what it found (a value, a time window, a grouping, a
measure) is laid over the previous intent by the operations of `edits.py`: a value replaces the
condition on the same dimension, a grouping replaces the old one, and so on. A message that reads
as a complete question on its own (it names what to measure, and no edit word) starts fresh.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from agent.semantic.nlq import edits
from agent.semantic.nlq.dialogue_cues import Cues, dialogue_words, empty_words, find_cues, has, phrase
from agent.semantic.nlq.edits import Edited
from agent.semantic.nlq.extract import PASSES
from agent.semantic.nlq.shapes import label_dimension
from agent.semantic.compile.definitions import with_definitions
from agent.semantic.compile.intent import Filter, MetricFilter, StructuredIntent, base_table, validate_intent
from agent.semantic.compile.reading import describe
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft, Extraction
from agent.text.phrases import MONTH_ABBREVIATIONS, MONTHS
from agent.text.words import lemmas, noun_forms, plural_phrase
from agent.text.vocabulary import english
from agent.semantic.model.values import ValueIndex

@dataclass
class FollowUp:
    """How a message in a thread was read against the previous reading.

    `edited` is the new reading when the message edits the previous one; None with `fresh` when it
    is a question of its own; None without `fresh` when it could not be read as either (then
    `problem` says why, or the caller reads it the old way)."""

    edited: Edited | None = None
    fresh: bool = False
    problem: str | None = None
    extraction: Extraction | None = None
    unread: list[str] = field(default_factory=list)
    over_rows: bool = False  # 'which of them': the previous answer's rows, not every thing of its kind
    things_count: int | None = None  # 'those 3 carriers': the rows of the answer that had three
    row: int | None = None  # 'the 2nd one': of those rows, the one at this place (1 first, -1 last)


def _read(text: str, model: SemanticModel, values: ValueIndex, previous: StructuredIntent | None) -> tuple[Extraction, Draft]:
    """The question reader on `text`, with its last draft: whether a measure was said, not defaulted.
    A value of several dimensions is read as the one `previous` filters on ('now for LGA')."""
    fields = [f.field for f in previous.filters] if previous is not None else []
    measured = list(previous.all_metrics()) if previous is not None else []
    draft = Draft(question=text, model=model, values=values, thread_fields=fields, thread_metrics=measured)
    for run in PASSES:
        draft = run(draft)
        if draft.outcome is not None:
            break
    assert draft.outcome is not None
    outcome, intent = draft.outcome, draft.outcome.intent
    if previous is not None and intent is not None:
        # a word the previous question defined ('per bucket'): its definition comes along
        used = set(intent.all_metrics()) | set(intent.dimensions) | {f.field for f in intent.filters}
        known = {d.name for d in intent.definitions}
        used |= {str(d.denominator) for d in previous.definitions if d.kind == "ratio" and d.name in used}
        carried = [d for d in previous.definitions if d.name in used and d.name not in known]
        if carried:
            outcome = outcome.model_copy(update={"intent": intent.model_copy(
                update={"definitions": [*intent.definitions, *carried]})})
    return outcome, draft


def _dimension_words(model: SemanticModel, name: str) -> set[str]:
    dim = model.dimension_by_name[name]
    said = {dim.label.lower(), *(s.lower() for s in dim.synonyms), name.replace("_", " ")}
    return said | {w for s in said for w in s.split() if len(w) > 3}


def _fields_named(said: str, intent: StructuredIntent, model: SemanticModel) -> tuple[list[str], bool]:
    """The filtered dimensions `said` names (by a value or a dimension word), and whether it names the dates."""
    low = said.lower()
    tokens = set(re.findall(r"[\w'-]+", low))
    fields = [f.field for f in intent.filters if {str(v).lower() for v in f.values} & (tokens | {low})]
    for flt in intent.filters:
        if flt.field in model.dimension_by_name:
            named = _dimension_words(model, flt.field)
            if low in named or tokens & {w for w in named if " " not in w} or any(
                    w.rstrip("s") in named for w in tokens):
                fields.append(flt.field)
    dates = bool(tokens & set(dialogue_words()["time_nouns"])) or (intent.time is not None and any(
        t.isdigit() and intent.time.year == int(t) for t in tokens))
    return list(dict.fromkeys(fields)), dates


def _groupings_named(said: str, intent: StructuredIntent, model: SemanticModel) -> list[str]:
    """The dimensions the answer is grouped by that `said` names ('the month', 'carriers')."""
    low = said.lower()
    tokens = set(re.findall(r"[\w'-]+", low))
    return [d for d in intent.dimensions if d in model.dimension_by_name
            and (low in (named := _dimension_words(model, d)) or any(w in named or w.rstrip("s") in named for w in tokens))]


def _aggregation(text: str) -> tuple[str, re.Match[str]] | None:
    """An aggregation named on its own ('the median instead')."""
    for agg, phrases in dialogue_words()["aggregations_alone"].items():
        if m := has(text, phrases):
            return agg, m
    return None


def _the_datas_one_year(previous: StructuredIntent, model: SemanticModel, values: ValueIndex) -> int | None:
    """The year the data of the reading's measure falls in, when it all falls in one."""
    metric = model.metric_by_name.get(previous.metrics[0]) if previous.metrics else None
    if metric is None:
        return None
    first, last = values.earliest_date(metric.table), values.latest_date(metric.table)
    return first.year if first is not None and last is not None and first.year == last.year else None


def _without_the_replaced_aggregation(text: str) -> str:
    """'max not avg', 'the median rather than the mean': the aggregation said as replaced goes, so the one
    wanted is read alone."""
    phrases = [p for group in dialogue_words()["aggregations_alone"].values() for p in group]
    return re.sub(rf"(?<![\w'])(?:not|instead of|rather than)\s+(?:the\s+)?{phrase(phrases)}(?![\w'])", " ", text,
                  flags=re.I).strip()


def only_rows_named(found: StructuredIntent, text: str, model: SemanticModel) -> bool:
    """'flights to DEN': the rows' own noun, read as their count, with no word asking for a count."""
    counts = {t.count_metric for t in model.tables if t.count_metric}
    return bool(found.metrics) and set(found.metrics) <= counts and not has(text, dialogue_words()["counting_words"])


def _period_before(text: str, previous: StructuredIntent, model: SemanticModel, values: ValueIndex) -> str:
    """'vs the month before?' after October: September, by name, so the message reads as 'vs september'.
    A reading that names no year is about the data's one year, where it holds one: 'the year before' and,
    beside a compare word, 'last summer' are then the year before it ('summer of 2012'), which the data may lack."""
    time = previous.time
    said = dialogue_words()
    words = said["period_before"]
    year = time.year if time is not None and time.year is not None else _the_datas_one_year(previous, model, values)
    if has(text, said["compare_words"]):
        words = {grain: [*before, *said["period_last"][grain]] for grain, before in words.items()}
        seasons = [f"last {season}" for season in model.seasons]
        if year is not None and (m := has(text, seasons)):
            return text[:m.start()] + f"{m.group(0).split()[-1]} of {year - 1}" + text[m.end():]
    months = time.months if time is not None else []
    if time is not None and len(months) == 1 and (m := has(text, words["month"])):
        # the month before January is December of the year before, which the data may lack
        before = MONTHS[(months[0] - 2) % 12] + (f" of {year - 1}" if months[0] == 1 and year is not None else "")
        return text[:m.start()] + before + text[m.end():]
    quarter = (months[0] - 1) // 3 + 1 if months else 0
    if months == list(range(3 * quarter - 2, 3 * quarter + 1)) and quarter > 1 and (m := has(text, words["quarter"])):
        return text[:m.start()] + f"q{quarter - 1}" + text[m.end():]
    if year is not None and (m := has(text, words["year"])):
        return text[:m.start()] + str(year - 1) + text[m.end():]
    return text


def _each_of_the_ranked(cues: Cues, previous: StructuredIntent, model: SemanticModel) -> None:
    """'show every hour' after the worst hour: each of what the answer is by, the whole ranking (no
    condition on the hour to drop, and no new grouping)."""
    for said in cues.every:
        low = said.lower()
        grouped = [d for d in previous.dimensions if d in model.dimension_by_name
                   and (low in (named := _dimension_words(model, d)) or low.rstrip("s") in named)]
        # 'all airports' where the answer is by destination but one origin airport is kept: that condition goes
        filtered = [f.field for f in previous.filters if f.field in model.dimension_by_name
                    and (low in (words := _dimension_words(model, f.field)) or low.rstrip("s") in words)]
        if previous.limit is not None and grouped and not filtered:
            cues.all_rows, cues.text = True, ""
            cues.dropped = [d for d in cues.dropped if d != said]


def _ranking_adjective_with_a_number(cues: Cues, previous: StructuredIntent, model: SemanticModel) -> None:
    """'shortest 5 now' after destinations by average air time, longest first: a ranking word and how many,
    said alone of a ranked answer, rank the same measure that way (not the measure the word may name alone,
    distance)."""
    said = re.fullmatch(r"(?:the\s+)?([a-z]+)\s+(\d+)", cues.text.lower())
    if cues.limit is not None or said is None or not previous.metrics:
        return
    word, count = said.groups()
    measured = model.metric_by_name.get(previous.metrics[0])
    # 'fastest 5' after average speed by route in no order: the word is said of the measure the answer has
    said_of = model.ranking.said_of.get(word)
    own = measured is not None and measured.measure is not None and (
        model.ranking.implies_measure.get(word) == measured.measure
        or said_of is not None and measured.measure in said_of.measures)
    if not (previous.order_by or own):
        return
    if said_of is not None and own:
        cues.limit, cues.descending, cues.text = int(count), said_of.descending, ""
    elif word in model.ranking.descending or word in model.ranking.ascending:
        cues.limit, cues.descending, cues.text = int(count), word in model.ranking.descending, ""


def _measure_adjective_alone(cues: Cues, previous: StructuredIntent, model: SemanticModel) -> None:
    """'and the coldest' after 'the hottest temperature': a measure's own adjective said alone ranks (or picks
    the other extreme of) that measure, as 'the lowest' would; 'and the quietest' after a count of rows ranks
    the count."""
    said = re.fullmatch(r"(?:the\s+)?([a-z][a-z ]*?)(?:\s+one)?", cues.text.lower())
    metric = model.metric_by_name.get(previous.metrics[0]) if previous.metrics else None
    if cues.limit is not None or said is None or metric is None:
        return
    word = said.group(1)
    # 'and the quietest' after the busiest day: a busy word ranks by how many rows there are, so of a count
    counted = word in model.ranking.busy and any(t.count_metric == metric.name for t in model.tables)
    if not counted and (metric.measure is None or model.ranking.implies_measure.get(word) != metric.measure):
        return
    cues.limit, cues.text = 1, ""
    cues.descending = word not in model.ranking.ascending if counted else word in model.ranking.descending


def _direction(cues: Cues, intent: StructuredIntent, model: SemanticModel) -> bool | None:
    """Highest first for 'top', lowest for 'bottom'; 'best' and 'worst' by whether more is better."""
    if cues.polarity is None:
        return cues.descending
    metric = model.metric_by_name.get(intent.metrics[0]) if intent.metrics else None
    higher_is_better = metric is not None and metric.higher_is_better
    return higher_is_better == (cues.polarity == "best")


def _with_previous_measure(previous: StructuredIntent, rest: str, model: SemanticModel,
                           values: ValueIndex) -> Extraction | None:
    """The message's words read after the previous measure's name; None when that reads no better."""
    labels = [model.metric_by_name[m].label for m in previous.metrics if m in model.metric_by_name]
    if not labels:
        return None
    extraction, _ = _read(f"{' and '.join(labels)} {rest}", model, values, previous)
    return extraction if extraction.intent is not None else None


def _swapped_into_measure(previous: StructuredIntent, rest: str, model: SemanticModel,
                          values: ValueIndex) -> tuple[Extraction, Draft] | None:
    """'no, arrival' after 'median departure delay': a word or two said alone that, put in place of one
    word of the previous measure's name, name another measure ('median arrival delay')."""
    said = _content(rest)
    if not 1 <= len(said) <= 2:
        return None
    for name in previous.metrics:
        metric = model.metric_by_name.get(name)
        words = metric.label.lower().split() if metric is not None else []
        for i in range(len(words)):
            if words[i] in said:
                continue
            extraction, draft = _read(" ".join([*words[:i], *said, *words[i + 1:]]), model, values, previous)
            found = extraction.intent
            # another measure, not one the reading has already ('just lga' after flights and avg delay), named by
            # the words alone, not by a value put in its name ('lga departure delay')
            if found is not None and found.metrics and not set(found.metrics) <= set(previous.metrics) \
                    and not found.filters and not (extraction.ignored_words or draft.defaulted):
                return extraction, draft
    return None


def _the_rows_do_it(message: str, previous: StructuredIntent, model: SemanticModel) -> bool:
    """'where do they fly from ewr' after flights per month: 'they' doing something, after an answer by periods
    only, is the rows (the flights), which do things; the months do not, nor the values the question split it
    by ('per month out of ewr and lga': the two airports said)."""
    said = {f.field for f in previous.filters if f.op == "in"}
    dims = [d for d in previous.dimensions if d in model.dimension_by_name and d not in said]
    table = model.table_by_name.get(base_table(previous, model) or "")
    periods = set(table.time.values()) if table is not None else set()
    return re.search(r"\bthey\b", message, re.I) is not None and bool(dims) and all(
        model.time_grain(d) is not None or d in periods or model.dimension_by_name[d].kind == "time" for d in dims)


def _things(previous: StructuredIntent, model: SemanticModel, rows: bool = False) -> str:
    """'them' after an answer by carrier is the carriers: the previous grouping's name; after a count ('how
    many planes were built before 1980', then 'list them'), or where the rows do what is asked, the things
    counted."""
    dims = [d for d in previous.dimensions if d in model.dimension_by_name] if not rows else []
    table = model.table_by_name.get(base_table(previous, model) or "")
    if dims:
        return model.dimension_by_name[dims[0]].label
    return plural_phrase(table.entity_words[0]) if table is not None and table.entity_words else ""


def _things_put_in(text: str, previous: StructuredIntent, model: SemanticModel, rows: bool = False) -> str:
    """The message with the things pointed at named: 'which of those routes' keeps the noun it says (and so
    picks one of them: 'which of those routes is the longest'); 'which of them' takes the previous answer's."""
    said = re.search(r"\b(?:which|what)\s+\{things\}\s+([a-z]+)", text, re.I)
    if said and _names_a_thing(said.group(1).lower(), model):
        return text.replace("{things}", "of those")
    return text.replace("{things}", _things(previous, model, rows))


def _names_a_thing(word: str, model: SemanticModel) -> bool:
    forms = {word, *noun_forms(word)}
    return any(forms & _dimension_words(model, d.name) for d in model.dimensions) or any(
        forms & {w.lower() for w in table.entity_words} for table in model.table_by_name.values())


def _ranks_alone(cues: Cues) -> bool:
    """The message's only dialogue words say how many to keep and in which order ('top 5')."""
    return cues.limit is not None and not replace(cues, limit=None, descending=None, polarity=None).any


def _bare_year(text: str) -> str:
    """'what about 2015', 'sorry, I meant 2013': in a thread, a year said alone is the year asked about
    (in a question of its own a bare number may be anything, so the reader wants 'in 2015'). So is a
    month's name said alone ('no i meant may': 'may' is no verb there)."""
    content = _content(text)
    if len(content) == 1 and (re.fullmatch(r"(19|20)\d\d", content[0]) or content[0] in MONTHS
                              or content[0] in MONTH_ABBREVIATIONS):
        return f"in {content[0]}"
    return text


_COMPARED_WORDS = {">": "more than", "<": "less than", ">=": "at least", "<=": "at most"}


def _bare_number(text: str, previous: StructuredIntent, model: SemanticModel) -> str:
    """'make it 200' after 'planes with more than 300 seats', 'and 60+' after 'what % got in 30+ min late': a
    number said alone (with its unit, and '+' for 'or more') is the new bound of the one number the previous
    reading compares (in its conditions or its share's), said again with that number's name and comparison."""
    empty = set(dialogue_words()["empty_words"])
    words = [w for w in re.findall(r"\d+(?:\.\d+)?|\+|[a-z]+", text.lower()) if w not in empty]
    number = words[0] if words and re.fullmatch(r"\d+(?:\.\d+)?", words[0]) else None
    rest = words[1:]
    unit = rest.pop(0) if rest and rest[0] in model.unit_words else ""
    more = rest in (["+"], ["or", "more"], ["and", "up"])
    share = previous.contrast.first.filters if previous.contrast is not None and previous.contrast.kind == "share" \
        else []
    compared = [f for f in [*previous.filters, *share] if f.op in _COMPARED_WORDS
                and f.field in model.dimension_by_name and model.dimension_by_name[f.field].kind == "numeric"]
    if len(compared) == 1 and (open_ended := _open_ended_bound(text)) is not None:
        # 'what about planes from 2010 on' after planes built before 2000: the new bound of that one comparison
        match, op, said = open_ended
        dim = model.dimension_by_name[compared[0].field]
        before = text[:match.start()].rstrip()
        owners = {form for s in dim.sources if s.table in model.table_by_name
                  for w in model.table_by_name[s.table].entity_words for form in noun_forms(w)}
        if before.split() and before.split()[-1].lower() in owners:  # 'planes from 2010 on': whose year it is
            before = before.rsplit(None, 1)[0] if len(before.split()) > 1 else ""
        return f"{before} {dim.label} {_COMPARED_WORDS[op]} {said} {text[match.end():]}".strip()
    if number is None or (rest and not more) or len(compared) != 1:
        return text
    flt = compared[0]
    op = ">=" if more else flt.op
    return f"{model.dimension_by_name[flt.field].label} {_COMPARED_WORDS[op]} {number} {unit}".strip()


def _open_ended_bound(text: str) -> tuple[re.Match[str], str, str] | None:
    """'from 2010 on', '2010 onwards', '50 and up' in `text` (vocabulary.yaml `open_ended`): (where, op, number)."""
    vocabulary = english()
    for op, endings in vocabulary["open_ended"].items():
        if m := re.search(rf"(?<![\w'])(?:from\s+)?(\d+(?:\.\d+)?)\s+{phrase(endings)}(?![\w'])", text, re.I):
            return m, op, m.group(1)
    after_from = phrase([str(w) for w in vocabulary["open_ended_after_from"]])
    if m := re.search(rf"(?<![\w'])from\s+(\d+(?:\.\d+)?)\s+{after_from}(?![\w'])", text, re.I):
        return m, ">=", m.group(1)
    return None


def _content(text: str) -> list[str]:
    return [w for w in re.findall(r"[\w'-]+", text.lower()) if w not in set(dialogue_words()["empty_words"])]


def _thread_undecided(text: str, found: StructuredIntent, model: SemanticModel, values: ValueIndex,
                      previous: StructuredIntent) -> Extraction | None:
    """'what about LGA' after 'from JFK to BOS': a value of two dimensions the previous reading both filters
    on replaces either; the thread does not decide which, so it is asked (one button per meaning). The
    message read alone says whether its own words decide; None when they do or no such value was said."""
    # a list of the answer's rows kept ('among the 9 destinations of the previous answer') is no value said
    filtered = {f.field for f in previous.filters if f.op == "=" or f.op == "in" and len(f.values) <= 2}
    if len(filtered) < 2 or not any(f.field in filtered and f.op in ("=", "in") for f in found.filters):
        return None
    alone, _ = _read(text, model, values, None)
    asked = [a for a in alone.ambiguous if a.of_value and len(set(a.options) & filtered) >= 2]
    if not asked:
        return None
    return alone.model_copy(update={"ambiguous": [a.model_copy(update={"options": [o for o in a.options if o in filtered]})
                                                  for a in asked]})


def _months_named(said: str) -> list[int]:
    """The months a phrase names and nothing else ('december', 'jan and feb'); [] otherwise."""
    words = [w for w in re.findall(r"[\w'-]+", said.lower()) if w not in {"and", "or", "the", "nor"}]
    months = [MONTHS.index(w) + 1 if w in MONTHS else MONTH_ABBREVIATIONS.get(w) for w in words]
    return sorted({m for m in months if m is not None}) if words and None not in months else []


def _values_cued(said: str, model: SemanticModel, values: ValueIndex) -> str:
    """'exclude ua and aa': after a drop word the words are values, so a code read as a value only after its
    cue ('on aa') gets its dimension's cue, when it is such a code of one dimension only."""
    words = []
    for word in said.split():
        dims = {item.dimension for item in values.phrases if item.needs_cue and item.words == (word.lower(),)}
        cues = model.dimension_by_name[next(iter(dims))].value_cues if len(dims) == 1 else []
        words += [cues[0], word] if cues else [word]
    return " ".join(words)


def _rows_kept_without(said: str, model: SemanticModel, values: ValueIndex,
                       previous: StructuredIntent) -> list[Filter]:
    """'without the cancelled ones', 'exclude cancelled flights': the yes/no conditions the rows kept meet,
    read as 'not <what was said>' ('took off'); [] when the words name no such condition."""
    text = " ".join(w for w in said.split() if w.lower() not in {"the", "ones", "one", "those", "these"})
    negated, _ = _read("not " + text, model, values, previous)
    flags = negated.intent.filters if negated.intent is not None and not negated.ignored_words else []
    dims = model.dimension_by_name
    return list(flags) if flags and all(f.field in dims and dims[f.field].kind == "flag" for f in flags) else []


def _values_left_out(said: str, model: SemanticModel, values: ValueIndex,
                     previous: StructuredIntent) -> list[Filter] | Extraction:
    """'exclude UA', 'without LGA': the values named after a drop word that no condition holds, each to be
    left out; their reading when it must ask (a value of two columns), [] when they name no value."""
    extraction, _ = _read(_values_cued(said, model, values), model, values, previous)
    if extraction.unknown_values or extraction.ambiguous:
        return extraction
    found = extraction.intent
    if found is None or not found.filters or extraction.ignored_words:
        return []
    if any(f.op not in ("=", "in") or f.field not in model.dimension_by_name for f in found.filters):
        return []
    return list(found.filters)


def _years_outside_the_data(found: StructuredIntent, previous: StructuredIntent, model: SemanticModel,
                            values: ValueIndex) -> str | None:
    """'compare with 2012' on data that holds 2013 only: a year the message names that the data's dates do
    not reach is said, with the span they cover, and nothing is run (an empty answer would read as
    'nothing happened that year'). None when every year named is in the data, or its span is unknown."""
    time = found.time
    named = sorted({*([time.year] if time is not None and time.year is not None else []),
                    *(time.years if time is not None else [])})
    table = base_table(previous, model)
    if not named or table is None:
        return None
    first, last = values.earliest_date(table), values.latest_date(table)
    if first is None or last is None:
        return None
    missing = [y for y in named if not first.year <= y <= last.year]
    if not missing:
        return None
    held = str(first.year) if first.year == last.year else f"{first.year} to {last.year}"
    return (f"The {table} data runs from {first.isoformat()} to {last.isoformat()} ({held} only), so it has nothing "
            f"for {' or '.join(map(str, missing))}; I did not run it. Ask about {held} and I will.")


def _one_thing_pointed_at(previous: StructuredIntent, cues: Cues, model: SemanticModel) -> str | None:
    """'there', 'that airport' after an answer of one row by a grouping ('which origin had the most …'): the
    grouping whose one value the message points at; None when the answer was no single thing."""
    pointed = [w for w in cues.pointed if w not in ("one", "ones")]  # 'that one': the thing itself

    def names(dim: str) -> bool:
        # a period the answer is grouped by, by any word of its names ('that day' of dates, 'calendar day')
        spec = model.dimension_by_name[dim]
        named = _dimension_words(model, dim) | ({w for said in (spec.label, *spec.synonyms) for w in said.lower().split()}
                                                 if spec.kind == "time" else set())
        return any(w in named or w.rstrip("s") in named for w in pointed)

    # a period ('the wettest month') is pointed at only by its own name: 'that month'
    grouped = [d for d in previous.dimensions if d in model.dimension_by_name
               and (model.dimension_by_name[d].kind != "time" or names(d))]
    if previous.limit != 1 or len(grouped) != 1:
        return None
    if cues.place or names(grouped[0]):
        return grouped[0]
    if cues.pointer and not pointed and not cues.things:
        return grouped[0]  # 'which carriers fly it', 'what model is that one' after 'the busiest plane model'
    return None


def _not_the_old_grouping(message: str, previous: StructuredIntent, model: SemanticModel) -> str | None:
    """'by origin not carrier': 'not' with the name of what the previous answer is grouped by, a value it filters
    on or words of its measure, ending the message, says what the rest replaces; the message without those words,
    else None. 'not' before anything else ('not cancelled') is left to the reader."""
    text = re.sub(r"[?!.,;:]+(\s|$)", r" \1", " ".join(message.split())).strip()
    m = re.search(rf"(?<![\w']){phrase(dialogue_words()['not_this_words'])}\s+(?:the\s+)?([\w' -]+?)$", text, re.I)
    if m is None:
        return None
    said = m.group(1).lower().strip()
    if any(said in _dimension_words(model, d) or said.rstrip("s") in _dimension_words(model, d)
           for d in previous.dimensions if d in model.dimension_by_name):
        return text[: m.start()].strip()
    # 'jfk to atl not lga', 'arrivals not departures': a value the reading filters on, or a word of its
    # measure's name, said as the one replaced
    values = {str(v).lower() for f in previous.filters for v in f.values}
    measured = {form for name in previous.metrics if name in model.metric_by_name
                for word in model.metric_by_name[name].label.lower().split() for form in noun_forms(word)}
    words = said.split()
    if said in values or (words and all(w in measured or w.rstrip("s") in measured for w in words)):
        return text[: m.start()].strip()
    return None


def _cued_value(text: str, previous: StructuredIntent, model: SemanticModel, values: ValueIndex) -> str:
    """'what about sea' after 'to SFO': a code that is also an everyday word is a value only after its cue
    ('to sea'); said alone in a thread whose last reading filters that value's dimension, the old condition
    is its cue, so the dimension's own cue is put before it."""
    content = _content(text)
    if len(content) != 1:
        return text
    filtered = {f.field for f in previous.filters if f.op in ("=", "in")}
    for item in values.phrases:
        if item.needs_cue and item.words == (content[0],) and item.dimension in filtered:
            cues = model.dimension_by_name[item.dimension].value_cues
            if cues:
                return f"{cues[0]} {content[0]}"
    return text


def _place_the_data_lacks(found: StructuredIntent, previous: StructuredIntent, model: SemanticModel,
                          values: ValueIndex) -> str | None:
    """'and in boston?' after 'avg temp at JFK': a value of a dimension the measure's table does not have
    itself (reached only through another table: flights' destination from the weather), of the same kind
    of thing as the one filtered before (both labelled from the same table: airports), asks for another
    such thing the data does not hold. Said, with the ones it holds, and nothing is run."""
    table = base_table(previous, model)
    dims = model.dimension_by_name
    if table is None:
        return None
    filtered = [f for f in previous.filters if f.field in dims and f.op in ("=", "in")]
    for flt in found.filters:
        new = dims.get(flt.field)
        if new is None or new.value_labels is None or any(f.field == flt.field for f in filtered) or any(
                s.table == table and s.join is None for s in new.sources):
            continue
        for old in filtered:
            labels = dims[old.field].value_labels
            if old.field != flt.field and labels is not None and (labels.table, labels.key) == (
                    new.value_labels.table, new.value_labels.key):
                held = values.values.get(old.field, [])
                listed = f" ({', '.join(held)})" if 0 < len(held) <= 10 else ""
                return (f"The {table} data covers only its own {dims[old.field].label} values{listed}; it has "
                        f"nothing for {', '.join(map(str, flt.values))}, so I did not run it.")
    return None


def _rows_noun_put_in(text: str, previous: StructuredIntent, model: SemanticModel) -> str:
    """'how many were delayed' after an answer on flights: the count is of the previous answer's rows, so its
    table's noun goes where none was said ('how many flights were delayed')."""
    table = base_table(previous, model)
    nouns = model.table_by_name[table].entity_words if table in model.table_by_name else []
    if not nouns:
        return text
    words = dialogue_words()
    text = re.sub(rf"(?<![\w'])(how\s+many)\s+(?={phrase(words['counted_verbs'])}(?![\w']))",
                  lambda m: f"{m.group(1)} {plural_phrase(nouns[0])} ", text, flags=re.I)
    # 'what % touch down late' after average arrival delay: a share of the previous answer's rows, when a
    # verb says what they did
    return re.sub(r"(?<![\w'])(what\s+(?:%|percent(?:age)?|share|fraction|proportion))\s+([a-z]+)(?![\w'])",
                  lambda m: f"{m.group(1)} of {plural_phrase(nouns[0])} {m.group(2)}"
                  if "VERB" in lemmas(m.group(2).lower()) and m.group(2).lower() not in ("of", "is", "was", "are", "were")
                  else m.group(0), text, flags=re.I)


def _heads_of_the_grouping(text: str, previous: StructuredIntent, model: SemanticModel) -> str:
    """'avg seats per type then' after planes by aircraft type: the last word of a grouping's name, said
    alone, is that grouping ('aircraft type'), which the thread has settled among the model's other types."""
    for name in previous.dimensions:
        dim = model.dimension_by_name.get(name)
        words = dim.label.lower().split() if dim is not None else []
        if len(words) < 2:
            continue
        head = words[-1]
        others = [d for d in previous.dimensions if d != name and (o := model.dimension_by_name.get(d)) is not None
                  and o.label.lower().split()[-1:] == [head]]
        if not others:
            text = re.sub(rf"(?<![\w'-])(?<!{re.escape(words[-2])} ){head}s?(?![\w'-])", dim.label.lower(), text,
                          flags=re.I) if dim is not None else text
    return text


def _heads_of_the_measure(text: str, previous: StructuredIntent, model: SemanticModel) -> str:
    """'biggest single delay per carrier' after average arrival delay: the last word of the measure's name,
    said alone where the model has other measures of that word ('departure delay'), is the one the thread
    has been measuring; a word said before it that names another of them ('dep delay') keeps its own."""
    measures = {m.measure for name in previous.all_metrics() if (m := model.metric_by_name.get(name)) and m.measure}
    if not measures and previous.contrast is not None:
        # 'what % touch down late': a share whose condition is on the measure ('arrival delay > 0')
        measures = {f.field for f in previous.contrast.first.filters
                    if (dim := model.dimension_by_name.get(f.field)) is not None and dim.kind == "numeric"}
    if len(measures) != 1:
        return text
    own = model.dimension_by_name.get(measures.pop())
    if own is None or len(own.label.split()) < 2:
        return text
    words, label = own.label.lower().split(), own.label.lower()
    head = words[-1]
    siblings = [d for d in model.dimensions if d.kind == "numeric" and d.label.lower().split()[-1:] == [head]]
    if len(siblings) < 2:
        return text
    qualifiers = {name.lower().split()[-2] for d in siblings for name in [d.label, *d.synonyms]
                  if len(name.split()) >= 2 and name.lower().split()[-1] in (head, head + "s")}
    said = re.compile(rf"(?<![\w'-])({'|'.join(map(re.escape, sorted(qualifiers)))})?(\s*){head}s?(?![\w'-])", re.I)
    return said.sub(lambda m: m.group(0) if m.group(1) else f"{m.group(2)}{label}", text)


def _change_of_the_sides(message: str, previous: StructuredIntent, model: SemanticModel) -> tuple[str, Edited | None]:
    """'which one grew the most' after two periods side by side: a word of movement (vocabulary `shapes.movement`)
    turns the answer into the change between them ('which fell the most' after a change: the fall); the word is
    taken out, the rest ('which one … the most') ranks it."""
    if previous.contrast is None or previous.contrast.kind not in ("side_by_side", "difference", "pct_change"):
        return message, None
    moved = has(message, [w for w in model.shapes.get("movement", [])])
    if moved is None:
        return message, None
    falling = has(moved.group(0), model.shapes.get("falling", [])) is not None
    percent = has(message, model.shapes.get("pct_change", [])) is not None
    rest = (message[: moved.start()] + " " + message[moved.end():]).strip()
    return rest, edits.change_between_sides(Edited(previous), falling, percent)


def _place_in_the_ranking(message: str, previous: StructuredIntent, model: SemanticModel) -> str:
    """'whats the 2nd busiest' after an answer ranked from the busiest: its row at that place ('the 2nd one'). Only
    a place after the first, and a ranking word of the answer's own direction: 'the 2nd quietest' of a list
    ranked from the busiest is no row of it."""
    if not previous.order_by or previous.limit == 1:
        return message
    places = {str(k).lower(): int(v) for k, v in dialogue_words()["row_places"].items() if int(v) > 1}
    ranking = model.ranking.descending if previous.order_by[0].descending else model.ranking.ascending
    said = re.search(rf"(?<![\w'])(?:the\s+)?({phrase(list(places))})\s+{phrase(list(ranking))}(?![\w'])", message, re.I)
    return message if said is None else f"{message[:said.start()]}the {said.group(1)} one{message[said.end():]}"


def _new_bound_of_a_total(message: str, previous: StructuredIntent, model: SemanticModel) -> FollowUp | None:
    """'bump it to 20' after carriers averaging over 15 min late: a number said alone (after a verb that moves a
    bound) is the new bound of the reading's one condition on a total, where no row condition compares a number."""
    if len(previous.having) != 1 or any(f.op in _COMPARED_WORDS for f in previous.filters):
        return None
    skip = set(dialogue_words()["empty_words"]) | set(dialogue_words()["bound_verbs"])
    words = [w for w in re.findall(r"\d+(?:\.\d+)?|[a-z]+", message.lower()) if w not in skip and w not in model.unit_words]
    if len(words) != 1 or not re.fullmatch(r"\d+(?:\.\d+)?", words[0]):
        return None
    moved = any(w in dialogue_words()["bound_verbs"] for w in re.findall(r"[a-z]+", message.lower()))
    if not moved and re.fullmatch(r"(19|20)\d\d", words[0]):
        return None  # '2014' alone is a year asked about, not a bound
    old = previous.having[0]
    new = old.model_copy(update={"value": float(words[0])})
    metric = model.metric_by_name.get(old.metric)
    label = metric.label.lower() if metric is not None else old.metric
    said = f"{label} {old.op} {words[0]} instead of {old.op} {old.value:g}"
    return FollowUp(edited=Edited(previous).then(previous.model_copy(update={"having": [new]}), said))


def _the_other_ones(message: str, previous: StructuredIntent, model: SemanticModel, values: ValueIndex) -> FollowUp | None:
    """'what about the other two airports' after JFK: every other value of the one filtered thing, side by side;
    a number said that is not how many others there are is said, never guessed. The singular ('the other
    airport' of two) is left to be asked about."""
    number_words = {str(k).lower(): int(v) for k, v in dialogue_words()["number_words"].items()}
    said = re.search(rf"(?<![\w'])the\s+other\s+(?:(\d+|{'|'.join(map(re.escape, number_words))})\s+)?([a-z]+s)(?![\w'])",
                     message, re.I)
    if said is None:
        return None
    noun = said.group(2).lower()
    named = [f for f in previous.filters if f.op in ("=", "in") and f.field in model.dimension_by_name
             and (noun in _dimension_words(model, f.field) or noun[:-1] in _dimension_words(model, f.field))]
    if len(named) != 1 or not (held := values.values.get(named[0].field)):
        return None
    old = named[0]
    others = [v for v in held if v not in old.values]
    count = said.group(1)
    wanted = None if count is None else int(count) if count.isdigit() else number_words[count.lower()]
    label = model.dimension_by_name[old.field].label
    if wanted is not None and wanted != len(others) or not others:
        return FollowUp(problem=f"There are {len(others)} other {label} values ({', '.join(map(str, others[:8]))}), "
                                f"so I did not guess which {wanted} you mean. Name them.")
    kept = [f for f in previous.filters if f is not old]
    flt = Filter(field=old.field, op="in" if len(others) > 1 else "=", values=others)
    dims = previous.dimensions if old.field in previous.dimensions or len(others) == 1 else [*previous.dimensions, old.field]
    intent = previous.model_copy(update={"filters": [*kept, flt], "dimensions": dims})
    return FollowUp(edited=Edited(previous).then(intent, f"{' and '.join(map(str, others))} instead of "
                                                         f"{' and '.join(map(str, old.values))}"))


def _names_asked(message: str, previous: StructuredIntent, model: SemanticModel) -> str:
    """'what are those airports actually called', 'full airport names?': the names of the previous answer's
    things, said as 'names of those airports' for the reading of names after 'of those'."""
    words = dialogue_words()
    called = re.fullmatch(rf"\s*what(?:'s|\s+is|\s+are|\s+were|\s+was)\s+(.+?)\s+(?:actually\s+|really\s+)?"
                          rf"{phrase(words['called_words'])}\W*", message, re.I)
    if called is not None:
        return f"names of {called.group(1)}"
    asks = re.fullmatch(rf"\s*(?:the\s+)?(?:(?:full|real|proper)\s+)?(?:(\w+)\s+)?{phrase(words['name_asks'])}\W*",
                        message, re.I)
    if asks is not None and previous.dimensions and previous.dimensions[0] in model.dimension_by_name:
        noun = (asks.group(1) or "").lower()
        own = _dimension_words(model, previous.dimensions[0])
        if not noun or noun in own or noun.rstrip("s") in own:
            return "full names of them"
    return message


def read_follow_up(previous: StructuredIntent, message: str, model: SemanticModel, values: ValueIndex) -> FollowUp:
    # what the previous question defined for itself ('distance band: under 500, …') is a word of the thread now
    model = with_definitions(model, previous.definitions)
    message = _names_asked(message, previous, model)
    if (bound := _new_bound_of_a_total(message, previous, model)) is not None:
        return bound
    if (others := _the_other_ones(message, previous, model, values)) is not None:
        return others
    message, changed = _change_of_the_sides(message, previous, model)
    if changed is not None:
        previous = changed.intent
    message = _place_in_the_ranking(message, previous, model)
    kept = _not_the_old_grouping(message, previous, model)
    cues = find_cues(_without_the_replaced_aggregation(_period_before(kept if kept is not None else message, previous,
                                                                     model, values)))
    cues.replace = cues.replace or kept is not None
    _each_of_the_ranked(cues, previous, model)
    _measure_adjective_alone(cues, previous, model)
    _ranking_adjective_with_a_number(cues, previous, model)
    pointed_at = _one_thing_pointed_at(previous, cues, model)
    if cues.one_thing and pointed_at is None and previous.limit != 1 and previous.dimensions:
        # 'which routes did it fly' after the top 5 planes: one of them, and nothing says which
        return FollowUp(problem="“it” stands for one thing, and the previous answer has several, so I did not guess. "
                                "Say which one (for example “the top one” or its name).")
    if cues.row is not None and cues.row_ranks and previous.limit is None and not previous.order_by:
        # 'the bottom one' of an answer in no order: the first of a ranking from the bottom
        cues.limit, cues.descending = 1, cues.row > 0
        cues.row, cues.things, cues.text = None, False, cues.text.replace("{things}", "").strip()
    if cues.row is not None:  # 'the 2nd one': one row of the ranking, which has done its work
        previous = previous.model_copy(update={"limit": None, "order_by": []})
        # 'the 2nd one, who flies there': the row is named first, then asked about in a question of its own
        cues.text = re.sub(r"^\{things\}\s+(?=(?:who|which|what|how|where|when)\b)", "", cues.text, flags=re.I)
    if pointed_at is not None:
        # the one row's value stands for the thing; the ranking that chose it has done its work, and the
        # word naming the thing ('airport') is no new grouping or question
        naming = _dimension_words(model, pointed_at)
        thing = {w for w in cues.pointed if w in naming or w.rstrip("s") in naming or w in ("one", "ones")}  # 'airport' in 'that airport'
        cues.text = " ".join(w for w in cues.text.split() if w.lower() not in thing)
        previous = previous.model_copy(update={"limit": None, "order_by": []})
    _the_periods_counted(cues, previous)
    rows = cues.things and _the_rows_do_it(message, previous, model)
    if rows:
        cues.things = False  # the rows themselves, not the answer's rows to keep
    rest = _cued_value(_bare_year(_things_put_in(cues.text, previous, model, rows)), previous, model, values)
    rest = _bare_number(rest, previous, model)
    rest = _rows_noun_put_in(rest, previous, model)
    rest = _heads_of_the_grouping(rest, previous, model)
    rest = _heads_of_the_measure(rest, previous, model)
    extraction: Extraction | None = None
    draft: Draft | None = None
    if _content(rest):
        extraction, draft = _read(rest, model, values, previous)
        extraction, draft = _of_the_groups(rest, extraction, draft, previous, model, values)
    if extraction is not None and (extraction.intent is None or extraction.ignored_words):
        extraction, draft = _swapped_into_measure(previous, rest, model, values) or (extraction, draft)
    said_measure = draft is not None and extraction is not None and extraction.intent is not None \
        and not draft.defaulted and bool(draft.metric_choices or draft.counted_metrics) \
        and not only_rows_named(extraction.intent, rest, model) \
        and not set(extraction.intent.metrics) <= {h.metric for h in extraction.intent.having}
    agg = None
    if not said_measure:
        rest = _without_the_replaced_aggregation(rest)
    if not said_measure and (named := _aggregation(rest)):
        agg, match = named
        rest = (rest[: match.start()] + " " + rest[match.end():]).strip()
    if not said_measure and (averaged := _average_per_period(rest, agg, previous, model)) is not None:
        return averaged
    if agg is not None:
        extraction, draft = _read(rest, model, values, previous) if _content(rest) else (None, None)
    if extraction is not None and extraction.intent is not None and said_measure and not cues.any:
        intent = extraction.intent
        # 'biggest single delay per carrier' after flights to DEN by carrier: a new measure of the same groups,
        # with no condition or period of its own, is asked of the rows the thread is about
        same_rows = bool(previous.filters or previous.time) and not (intent.filters or intent.time) \
            and bool(intent.dimensions) and set(intent.dimensions) == set(previous.dimensions)
        if not same_rows and (intent.dimensions or intent.filters or intent.time or len(_content(rest)) >= 3):
            return FollowUp(fresh=True, extraction=extraction)
    if extraction is not None and extraction.intent is not None and said_measure and _ranks_alone(cues):
        # 'top 5 pizza types by quantity sold': a measure, things to rank and how many is a question of its
        # own, read whole (its 'top 5' too), not an edit of the previous one ('top 3 by arrival delay' is)
        whole, _ = _read(message, model, values, previous)
        if whole.intent is not None and whole.intent.dimensions and whole.intent.limit is not None:
            return FollowUp(fresh=True, extraction=whole)
    if extraction is not None and extraction.intent is None:
        # 'by size' alone takes the default measure, which may not go with it, and '2015' alone
        # names nothing to measure; the previous measure is what the message keeps, so its words
        # are read with that measure's
        reread = _with_previous_measure(previous, rest, model, values)
        if reread is not None and reread.intent is not None:
            # 'as a rate' after cancelled flights: the message's words made another measure of the previous one
            said_measure = bool(set(reread.intent.metrics) - set(previous.metrics)
                                - {h.metric for h in reread.intent.having})
        extraction = reread or extraction
    if extraction is not None and extraction.intent is not None and not said_measure:
        extraction = _year_of_the_filtered(previous, rest, extraction, model, values) or extraction
    if extraction is not None and (extraction.unknown_values or extraction.ambiguous or extraction.unsupported):
        return FollowUp(extraction=extraction)
    if extraction is not None and extraction.intent is not None and (
            undecided := _thread_undecided(rest, extraction.intent, model, values, previous)) is not None:
        return FollowUp(extraction=undecided)

    if extraction is not None and extraction.intent is not None and (
            outside := _years_outside_the_data(extraction.intent, previous, model, values)
            or _place_the_data_lacks(extraction.intent, previous, model, values)) is not None:
        return FollowUp(problem=outside)

    edited = Edited(previous, changed.changes if changed is not None else [])
    if cues.drop_all:
        edited = edits.drop_filters(edited, [f.field for f in previous.filters], model)
        if previous.time is not None and not previous.time.is_empty():
            edited = edits.whole_period(edited)
    for said in cues.dropped:
        fields, dates = _fields_named(said, edited.intent, model)
        if not fields and not dates and (months := _months_named(said)):  # 'without december'
            edited = edits.exclude_months(edited, months)
            continue
        if not fields and not dates and (still := _rows_kept_without(said, model, values, previous)):
            for flt in still:
                edited = edits.put_filter(edited, flt, model)
            continue
        if not fields and not dates and (passing := _groups_left_out(said, edited.intent, model, values)):
            edited = edits.keep_groups(edited, passing, model)  # 'ignore the ones with fewer than 50 planes'
            continue
        if not fields and not dates:
            left_out = _values_left_out(said, model, values, previous)
            if isinstance(left_out, Extraction):
                return FollowUp(extraction=left_out)
            for flt in left_out:
                edited = edits.exclude_value(edited, flt, model)
            continue
        period = edited.intent.time is not None and not edited.intent.time.is_empty()
        if not fields and not period and (grouped := _groupings_named(said, edited.intent, model)):
            edited = edits.drop_grouping(edited, grouped, model)  # 'drop the month' of an answer by month
            continue
        edited = edits.drop_filters(edited, fields, model)
        if dates:
            edited = edits.whole_period(edited)
    if cues.whole_period:
        edited = edits.whole_period(edited)

    found = extraction.intent if extraction is not None else None
    if found is not None:
        edited = _lay_over(edited, found, cues, said_measure, model)
        valued = {f.field for f in found.filters}  # 'JFK departures': the word says which of JFK's roles, no regrouping
        if not said_measure and not found.dimensions and (role := _other_role(rest, edited.intent, model, valued)):
            edited = edits.set_grouping(edited, role, model, add=False)
    elif extraction is not None and (role := _other_role(rest, edited.intent, model, set())):
        # 'and the arrival side, top 3': a role word the reader alone cannot place, the grouping's other role
        edited = edits.set_grouping(edited, role, model, add=False)
        extraction = extraction.model_copy(update={"ignored_words": [
            w for w in extraction.ignored_words if w.lower().rstrip("s") not in _role_words(role, model)]})
    share = previous.contrast if previous.contrast is not None and previous.contrast.kind == "share" else None
    if share is not None and edited.intent.contrast == share and not said_measure and asks_a_count(message):
        edited = edits.count_instead_of_share(edited, model)  # 'how many per month' after 'what % left late'
    if agg is not None:
        switched = edits.switch_aggregation(edited, agg, model)
        if switched is None:
            labels = {**{d.name: d.label for d in edited.intent.definitions},
                      **{m.name: m.label for m in model.metric_by_name.values()}}
            names = ", ".join(labels[m].lower() for m in edited.intent.metrics if m in labels)
            return FollowUp(problem=f"The semantic model has no {agg} of {names}, so I did not change the measure.")
        edited = switched
    if cues.percent:
        shown = edits.as_percent(edited, model, of_each=cues.percent_of_each)
        if isinstance(shown, str):
            return FollowUp(problem=shown)
        edited = shown
    # 'full list pls', 'which ones', 'which of them is busiest' after a count of the groups: the groups themselves
    listed = edits.list_the_counted(edited, model) if cues.all_rows or cues.things or cues.limit is not None \
        or has(message, dialogue_words()["list_them_words"]) is not None else None
    if listed is not None:
        edited = listed
    elif cues.all_rows:
        edited = edits.set_limit(edited, None)
    if cues.reverse and cues.limit is None:
        edited = edits.reverse_order(edited)
    if cues.limit is not None:
        down = _direction(cues, edited.intent, model)
        # 'and the lowest' of 'the highest temperature' (one value, a maximum): the minimum, not a ranking of one
        edited = edits.other_extreme(edited, model, down) or edits.set_limit(edited, cues.limit, descending=down)
    if cues.ordered and cues.limit is None and (metrics := edited.intent.metrics):
        # 'avg dep delay for each, worst first': the order is of the measure just asked for, else the first
        asked = [m for m in (found.metrics if found is not None and said_measure else []) if m in metrics]
        metric = asked[0] if asked else metrics[0]
        down = _direction(cues, edited.intent.model_copy(update={"metrics": [metric]}), model)
        edited = edits.order_by_measure(edited, metric, True if down is None else down, model)
    if cues.chart is not None:
        edited = edits.set_chart(edited, cues.chart)
    if not edited.changes and (other := _measure_with_word_swapped(previous, rest, model)) is not None:
        edited = edits.set_metrics(edited, [other], model, [])  # 'no, i meant arrivals' after departure delay
    if not edited.changes and cues.row is not None and set(re.findall(r"[\w']+", cues.text.replace("{things}", " ").lower())) \
            <= {"what", "whats", "what's", "which", "was", "is", "the", "and"}:
        return FollowUp(edited=edited, over_rows=True, row=cues.row)  # 'the 2nd one' alone: that row as it was
    if not edited.changes and cues.things_count is not None and previous.dimensions and all(
                w in _dimension_words(model, previous.dimensions[0]) or w.rstrip("s") in _dimension_words(
                    model, previous.dimensions[0]) for w in _content(cues.text.replace("{things}", " "))):
        # 'just those 3 carriers': the reading as it is, kept to the three things an answer showed
        return FollowUp(edited=edited, over_rows=True, things_count=cues.things_count)
    if not edited.changes:
        if found is not None and found.filters and all(f in previous.filters for f in found.filters) \
                and not (found.dimensions or found.time or said_measure or cues.any and not cues.back and not cues.lead_in):
            return FollowUp(edited=edited, extraction=extraction)  # 'back to SFO' when it is SFO: the reading as it is
        return FollowUp(extraction=extraction)
    problems = validate_intent(edited.intent, model)
    if problems:
        return FollowUp(problem=" ".join(problems), extraction=extraction)
    if extraction is not None and extraction.intent is None and extraction.ignored_words:
        # the edit words were read ('those top two') but the rest stopped on words no reading places ('what %
        # left early'): the edit alone would answer another question, so the words are named and nothing runs
        return FollowUp(problem=_unplaced(extraction.ignored_words, edited, model), extraction=extraction)
    # words of the message no reading placed are said with the answer, never dropped in silence
    unread = extraction.ignored_words if extraction is not None else []
    return FollowUp(edited=edited, extraction=extraction, unread=unread,
                    over_rows=cues.things or pointed_at is not None, row=cues.row, things_count=cues.things_count)


def _average_per_period(rest: str, agg: str | None, previous: StructuredIntent,
                        model: SemanticModel) -> FollowUp | None:
    """'avg per month instead' (or 'per week' after an average per day): the count over the periods its rows
    fall on. Only the period and 'instead' may be said besides; anything else is read the usual way."""
    averaging = agg == "avg" or any(d.agg == "count_distinct" for d in previous.definitions)
    # 'on that one', 'for it' (put in as the previous answer's things or rows): the answer it is said of,
    # which the previous reading already keeps to
    pointed = {w for rows in (False, True) for w in _things(previous, model, rows).lower().split()}
    words = [w for w in re.findall(r"[a-z]+", rest.lower()) if (w not in empty_words() or w == "per") and w not in pointed]
    if not averaging or len(words) != 2 or words[0] != "per":
        return None
    grain = next((g for g, forms in model.relative_grains.items() if words[1] in forms), None)
    edited = edits.average_per_period(Edited(previous), grain, model) if grain is not None else None
    if edited is None:
        return None
    problems = validate_intent(edited.intent, model)
    return FollowUp(problem=" ".join(problems)) if problems else FollowUp(edited=edited)


def _unplaced(words: list[str], edited: Edited, model: SemanticModel) -> str:
    names = ", ".join(f"“{w}”" for w in dict.fromkeys(words))
    changes = "; ".join(edited.changes)
    return (f"I could not place {names} in this message, so I would be answering a different question. Without "
            f"{'it' if len(set(words)) == 1 else 'them'} I read: same as before, {changes}. "
            f"{describe(edited.intent, model)} Say it with other words, or ask the whole question.")


def _lay_over(edited: Edited, found: StructuredIntent, cues: Cues, said_measure: bool, model: SemanticModel) -> Edited:
    """What the message's own reading names, put in place of the same parts of the previous reading."""
    previous = edited.intent
    metrics = _aggregation_kept(found.metrics, previous, cues.text, model)
    if said_measure and metrics and metrics != previous.metrics and (cues.add or cues.compare) and not cues.replace:
        # 'add humidity', 'put the avg next to it', 'compare with the median': beside the first
        edited = edits.add_metrics(edited, metrics, model, found.definitions)
    elif said_measure and metrics and cues.limit is not None and len(metrics) == 1 \
            and metrics[0] in previous.metrics and len(previous.metrics) > 1:
        # 'top 10 by number of flights' when the answer shows the flights beside the delay: ranked by them
        edited = edits.rank_by(edited, metrics[0], model)
    elif said_measure and metrics and metrics != previous.metrics:
        edited = edits.set_metrics(edited, metrics, model, found.definitions)
    elif not found.metrics and found.contrast is not None and found.contrast.kind == "share" \
            and found.contrast.first.filters and previous.contrast is None \
            and not all(f in previous.filters for f in found.contrast.first.filters):
        # (a share of rows that all meet its condition, 'at EWR' of EWR's flights, would say 100%)
        edited = edits.set_share(edited, found.contrast, model)  # 'what % of them left late' after a count
        # the rows the share is taken over ('departure delay is known'): kept beside the share's own condition
        over = [f for f in found.filters if any(f.field == c.field for c in found.contrast.first.filters)]
        edited = Edited(edited.intent.model_copy(update={"filters": [*edited.intent.filters, *(
            f for f in over if f not in edited.intent.filters)]}), edited.changes, edited.chart)
        found = found.model_copy(update={"filters": [f for f in found.filters if f not in over]})
    # 'compare with LGA', 'LGA too', 'add February' after 'from JFK in January': both values, one row each
    beside = cues.compare or cues.add and not cues.replace
    for flt in found.filters:
        if beside and flt.op in ("=", "in") and any(f.field == flt.field and f.op in ("=", "in")
                                                     for f in edited.intent.filters):
            edited = edits.compare_values(edited, flt, model)
        else:
            edited = edits.put_filter(edited, flt, model)
    if found.time is not None and not found.time.is_empty():
        edited = edits.compare_periods(edited, found.time, model) if beside else edits.set_time(edited, found.time)
    # 'top 3 by distance' after 'total distance by carrier': ranked by the measure, no grouping by what it sums
    measured = {model.metric_by_name[m].measure for m in edited.intent.metrics if m in model.metric_by_name} \
        if cues.limit is not None or found.limit is not None else set()
    grouped = [d for d in found.dimensions if d not in {f.field for f in found.filters}
               and not (cues.pointed and set(cues.pointed) & _dimension_words(model, d)) and d not in measured]
    if grouped and grouped != edited.intent.dimensions:
        # 'by carrier' after 'compare with February' splits both months by carrier; 'instead' replaces them;
        # 'w/ full airline names' after an answer by carrier puts each code's name beside it
        add = not cues.replace and (cues.add or _only_compared(edited.intent, model)
                                    or _names_of_the_codes(grouped, edited.intent, cues.text, model))
        edited = edits.set_grouping(edited, grouped, model, add=add)
    if found.limit is not None and cues.limit is None:
        descending = found.order_by[0].descending if found.order_by else True
        edited = edits.set_limit(edited, found.limit, descending=descending, per=found.limit_per, model=model)
    if found.having and edited.intent.dimensions:
        edited = edits.keep_groups(edited, found.having, model)  # 'only the ones with 1000+ flights'
    return edited


def _the_periods_counted(cues: Cues, previous: StructuredIntent) -> None:
    """'how many flights got cancelled in those hours' after 'hours with gusts over 40 mph per airport': the
    periods the previous answer counted are those its conditions hold in, which the edit keeps; the words
    pointing at them are taken out, and no row of the answer is kept by its key."""
    periods = {d.label.lower() for d in previous.definitions if d.agg == "count_distinct"}
    said = re.search(r"(?:\b(?:in|during|for|at)\s+)?\{things\}\s+(\w+)", cues.text)
    if cues.things and said is not None and said.group(1).lower() in periods:
        cues.things, cues.pointer = False, True  # pointed at: an edit of that answer, never a question of its own
        cues.text = " ".join((cues.text[: said.start()] + cues.text[said.end():]).split())


def _names_of_the_codes(grouped: list[str], intent: StructuredIntent, said: str, model: SemanticModel) -> bool:
    """Are the new groups the readable names of the codes the answer is grouped by, asked for with them ('with
    airline names', 'airline names too')? 'the full name of the 2nd one' asks for the name alone."""
    if not re.search(r"(?<![\w'])(?:with|too|also|as well|beside|alongside)(?![\w'])", said, re.I):
        return False
    table = base_table(intent, model)
    names = {label_dimension(d, table, model) for d in intent.dimensions} if table is not None else set()
    return bool(grouped) and set(grouped) <= names


def _of_the_groups(text: str, extraction: Extraction, draft: Draft, previous: StructuredIntent, model: SemanticModel,
                   values: ValueIndex) -> tuple[Extraction, Draft]:
    """'only the ones with 1000+ flights' after an answer by carrier: a condition on a total said with no groups
    of its own is about the previous answer's groups, so the message is read with them."""
    standing_for_groups = set(dialogue_words()["group_words"])
    if extraction.intent is not None or not set(map(str.lower, extraction.ignored_words)) <= standing_for_groups \
            or not draft.having or draft.grouping or not previous.dimensions or previous.count_groups:
        return extraction, draft  # (other words it could not place, or groups of its own: its own reading)
    labels = " and ".join(model.dimension_by_name[d].label.lower() for d in previous.dimensions
                          if d in model.dimension_by_name)
    grouped, grouped_draft = _read(f"{text} by {labels}", model, values, previous)
    return (grouped, grouped_draft) if grouped.intent is not None and grouped.intent.having else (extraction, draft)


_PASSED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "!=", "!=": "="}


def _groups_left_out(said: str, previous: StructuredIntent, model: SemanticModel,
                     values: ValueIndex) -> list[MetricFilter]:
    """'ignore the ones with fewer than 50 planes': the groups left out are those whose total meets the condition;
    the ones kept pass its opposite. Nothing when the words are no condition on a total of the answer's groups."""
    if not previous.dimensions or previous.count_groups:
        return []
    # 'the tiny ones, anything under 1000 flights': a part after a comma (gone to spaces in the cue) may say it alone
    for part in dict.fromkeys([said, *reversed([p.strip() for p in re.split(r",|\s{2,}", said) if p.strip()])]):
        extraction, draft = _read(part, model, values, previous)
        extraction, _ = _of_the_groups(part, extraction, draft, previous, model, values)
        found = extraction.intent
        if found is not None and found.having and not found.filters and found.time is None:
            return [h.model_copy(update={"op": _PASSED[h.op]}) for h in found.having]
    return []



def _only_compared(intent: StructuredIntent, model: SemanticModel) -> bool:
    """Is the reading grouped only by what it sets side by side: the values its condition lists ('JFK and
    LGA', grouped by origin), two periods of its calendar grain (January and February, by month), or the rows
    a condition of its own holds for against the rest ('weekends vs weekdays')?"""
    if not intent.dimensions:
        return False
    conditions = {d.name for d in intent.definitions if d.kind == "condition"}
    for dim in intent.dimensions:
        listed = dim in conditions or any(f.field == dim and f.op == "in" and len(f.values) >= 2
                                          for f in intent.filters)
        time = intent.time
        periods = {"month": len(time.months), "quarter": len({(m - 1) // 3 for m in time.months}),
                   "year": len(time.years)} if time is not None else {}
        grain = next((part for part in periods if edits.month_dimension(intent, model, part) == dim), None)
        if not listed and (grain is None or periods[grain] != 2):
            return False
    return True


def _other_role(text: str, intent: StructuredIntent, model: SemanticModel, named: set[str]) -> list[str] | None:
    """'same for arrivals' after flights by origin airport: a word naming only another dimension whose values
    are the same things (destination and origin are both airports) swaps it into the grouping; the grouping
    with it swapped in, else None. Not a dimension the message gives a value of (`named`): 'JFK departures'
    filters the origin."""
    dims = model.dimension_by_name
    words = {w.rstrip("s") for w in _content(text)} | set(_content(text))
    for i, name in enumerate(intent.dimensions):
        old = dims.get(name)
        if old is None or old.value_labels is None:
            continue
        for other in model.dimensions:
            labels = other.value_labels
            if other.name == name or other.name in named or labels is None or (labels.table, labels.key) != (
                    old.value_labels.table, old.value_labels.key) or other.name in intent.dimensions:
                continue
            if words & (_dimension_words(model, other.name) - _dimension_words(model, name)):
                return [*intent.dimensions[:i], other.name, *intent.dimensions[i + 1:]]
    return None


def _measure_with_word_swapped(previous: StructuredIntent, text: str, model: SemanticModel) -> str | None:
    """'arrivals' after average departure delay: the one word said, put in place of a word of the measure's
    name, names another measure of the model ('average arrival delay'); that measure, else None."""
    said = _content(text)
    if len(said) != 1 or len(previous.metrics) != 1 or previous.metrics[0] not in model.metric_by_name:
        return None
    forms = {said[0], *noun_forms(said[0])}
    words = model.metric_by_name[previous.metrics[0]].label.lower().split()
    labels = {m.label.lower(): m.name for m in model.metrics}
    found = {labels[swapped] for i in range(len(words)) for form in forms
             if form != words[i] and (swapped := " ".join([*words[:i], form, *words[i + 1:]])) in labels}
    return found.pop() if len(found) == 1 else None


def _role_words(dimensions: list[str], model: SemanticModel) -> set[str]:
    return {w for d in dimensions for words in _dimension_words(model, d) for w in words.split()} | {"side"}


def _year_of_the_filtered(previous: StructuredIntent, rest: str, extraction: Extraction, model: SemanticModel,
                          values: ValueIndex) -> Extraction | None:
    """'what about before 1990' after 'planes built after 2000': on a table with no calendar of its own, a year
    said alone is the year-valued number the previous reading compares ('year the plane was built'), read
    with that number's name; None when the table has a calendar or the message names no year."""
    time = extraction.intent.time if extraction.intent is not None else None
    table = base_table(previous, model)
    if time is None or table not in model.table_by_name or model.table_by_name[table].time or not (
            time.year or time.years or time.from_year or time.until_year):
        return None
    for flt in previous.filters:
        dim = model.dimension_by_name.get(flt.field)
        if dim is None or dim.kind != "numeric" or flt.op not in ("<", ">", "<=", ">=", "="):
            continue
        again, _ = _read(f"{dim.label} {rest}", model, values, previous)
        found = again.intent
        if found is not None and found.time is None and any(f.field == flt.field for f in found.filters):
            return again
    return None


def _aggregation_kept(metrics: list[str], previous: StructuredIntent, said: str, model: SemanticModel) -> list[str]:
    """'no, I meant arrival delay' after 'median departure delay': another measure named without an aggregation
    (read as its default one, the average) keeps the previous one's (the median of arrival delay), when the
    model has it; `metrics` as they are otherwise ('the longest arrival delay' names its own)."""
    by_name = model.metric_by_name
    old = [by_name[m] for m in previous.metrics if m in by_name]
    new = [by_name[m] for m in metrics if m in by_name]
    if len(old) != 1 or len(new) != 1 or len(metrics) != 1 or old[0].measure is None or new[0].measure is None \
            or old[0].agg is None or old[0].agg == new[0].agg or not new[0].default or _aggregation(said) is not None:
        return metrics
    kept = next((m for m in model.metrics if m.measure == new[0].measure and m.agg == old[0].agg and not m.filter), None)
    return [kept.name] if kept is not None else metrics


def outside_the_data(edited: StructuredIntent, previous: StructuredIntent, model: SemanticModel,
                     values: ValueIndex) -> str | None:
    """An edit made elsewhere (an LLM's) checked as the offline reader checks its own: a year the data's dates do
    not reach, or a place the measure's table does not hold, is said and nothing is run; None when it is fine."""
    return _years_outside_the_data(edited, previous, model, values) or _place_the_data_lacks(
        edited, previous, model, values)


def asks_a_count(text: str) -> bool:
    """Does the text ask for a count ('how many flights …', 'the number of …'), by its words alone?"""
    return bool(has(text, [w for w in dialogue_words()["counting_words"] if w != "per"]))


def names_no_measure(found: StructuredIntent, text: str, model: SemanticModel) -> bool:
    """'per month', 'by genre', 'what about comedy' read alone: a count of rows put in for a measure nobody named
    (no counting word but 'per', no word for the rows counted, no word of the count's own name)."""
    counts = {t.count_metric for t in model.tables if t.count_metric}
    if not found.metrics or not set(found.metrics) <= counts:
        return False
    table = model.table_by_name.get(base_table(found, model) or "")
    nouns = [*(table.entity_words if table else []), *(plural_phrase(w) for w in (table.entity_words if table else []))]
    metrics = [model.metric_by_name[m] for m in found.metrics if m in model.metric_by_name]
    names = [*nouns, *(m.label for m in metrics), *(s for m in metrics for s in m.synonyms)]
    return not asks_a_count(text) and not (names and has(text, names))
