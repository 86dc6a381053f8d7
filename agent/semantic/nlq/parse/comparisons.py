"""Pass: comparisons with numbers. On a measure they are row filters ('arrival delay over 2 hours');
on an aggregate they are HAVING conditions ('more than 20k flights'); one whose subject cannot be
told is returned as unresolved, never dropped."""

from __future__ import annotations

import re

from agent.semantic.compile.intent import Filter, MetricFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.measures import counts_by_verb, metrics_for
from agent.text.words import lemmas, noun_forms
from agent.semantic.nlq.parse.state import (
    COMPARATORS,
    Ambiguity,
    State,
    covered,
    consume_with_mentions,
    mention_text,
    mention_at,
    plural,
    words_of,
)
from agent.text.phrases import Token, phrase
from agent.text.vocabulary import english
from agent.semantic.nlq.parse.draft import Draft


def split_units(tokens: list[Token], units: dict[str, tuple[str, float]]) -> list[Token]:
    """'32F', '15min', '2h': a number glued to a unit word is a number and a unit."""
    out: list[Token] = []
    for token in tokens:
        glued = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z%]+)", token.low)
        if token.number is None and glued and glued.group(2) in units:
            out += [Token(glued.group(1), glued.group(1), float(glued.group(1)), aside=token.aside),
                    Token(glued.group(2), glued.group(2), aside=token.aside)]
        else:
            out.append(token)
    return out


def read_comparisons(state: State, model: SemanticModel
                     ) -> tuple[list[Filter], list[Ambiguity], list[str], list[MetricFilter]]:
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
        if i in state.used_tokens:  # 'between 1994 and 1996': read as years already
            i += 1
            continue
        op, values, span, end = _comparison_at(tokens, i, model.unit_words)
        implied = (_measure_comparative_at(tokens, i, model) or _measure_inside_comparison(state, i, model)) \
            if op is None else None
        if implied is not None:  # 'older than 50': the adjective names the measure and the direction
            op, values, span, end, measure = implied
            unit = model.unit_words.get(tokens[end].low) if end < len(tokens) else None
            filters.append(_compared(state, model, measure, op, values, span, unit, end if unit else None))
            i = end + 1
            continue
        if op is None and (joined := _number_joined_to_a_measure(state, i, model)) is not None:
            # 'the 4 engine ones', '2 seat planes': the number and the singular of a measure's word describe things
            filters.append(_compared(state, model, joined, "=", [clean_number(tokens[i].number or 0)], [i, i + 1],
                                     None, None))
            i += 2
            continue
        if op is None and (count := tokens[i].number) is not None and (exact := _exact_count_at(state, i, model)):
            op, values, span, end = "=", [count], exact, i + 1  # 'planes with 4 engines'
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
                mention = mention_at(state, index)
                if mention is not None:
                    mention.used = True
            scale = unit[1] if unit is not None else 1
            having.append(MetricFilter(metric=metric, op=op if op != "between" else ">=", value=values[0] * scale))
            consume_with_mentions(state, [*span, *used, *([unit_index] if unit_index is not None else [])])
            i = max(span[-1], end, *used) + 1
            continue
        if field_mention is not None:
            dim_name = field_mention.of("dimension")[0].name
            numeric = [e.name for e in field_mention.of("dimension") if model.dimension_by_name[e.name].kind == "numeric"]
            named = {e.name for m in state.mentions for e in m.of("entity")}
            owned = [d for d in numeric if {s.table for s in model.dimension_by_name[d].sources} & named]
            # 'suppliers … with account balance over 5000': the balance of the suppliers
            if len(owned) != 1 and len(numeric) > 1:  # 'more than 10 years': at the company, in the role…
                ambiguous.append(Ambiguity(text=mention_text(state, field_mention), options=numeric))
                field_mention.used = True
                consume_with_mentions(state, span)
                i = max(span[-1], end) + 1
                continue
            dim_name = (owned if len(owned) == 1 else numeric or [dim_name])[0]
            if field_mention.start >= end and (split := _split_synonym(state, span[0], field_mention, model)):
                dim_name, said_before = split
                state.consume(*said_before)  # 'landed' of 'landed more than 30 min late'
        elif unit is not None:
            candidates = [d.name for d in model.dimensions if d.kind == "numeric" and d.unit == unit[0]]
            # 'longer than 5 hours' compares a duration, not a delay: the comparative word narrows
            compared = [c for c in candidates if tokens[span[0]].low in model.dimension_by_name[c].comparatives]
            # '90F or hotter': the comparative of a measure's adjective after 'or' names the measure
            adjectived = [c for c in candidates if c in {model.ranking.implies_measure.get(tokens[j].low) for j in span}]
            candidates = compared or adjectived or candidates
            if len(candidates) == 1:
                dim_name = candidates[0]
            elif candidates:
                ambiguous.append(Ambiguity(text=" ".join(t.text for t in tokens[span[0]:end + 1]), options=candidates))
        if dim_name is None and op == ">=" and values == [1] and _a_valued_thing_at(state, end):
            consume_with_mentions(state, span)  # 'at least one chicken pizza': the value's rows, as 'a chicken pizza'
            i = max(span[-1], end) + 1
            continue
        if dim_name is None and (said := _counted_in_other_words(state, span[0], end, model)) is not None:
            dim_name, words_used = said
            consume_with_mentions(state, words_used)
        if dim_name is None:
            if unit is None or not ambiguous:
                unresolved.append(" ".join(t.text for t in tokens[span[0]:max(span[-1], end) + 1]))
            i = span[-1] + 1
            continue
        filters.append(_compared(state, model, dim_name, op, values, span, unit, unit_index))
        if field_mention is not None:
            field_mention.used = True
        i = max(span[-1], end) + 1
    return filters, ambiguous, unresolved, having


def _compared(state: State, model: SemanticModel, field: str, op: str, values: list[float], span: list[int],
              unit: tuple[str, float] | None, unit_index: int | None) -> Filter:
    """The filter a comparison reads as: its numbers in the measure's own unit ('over 2 hours' of a delay in
    minutes is 120), where it was said, and its words (with the unit's) read."""
    factor = unit[1] if unit is not None and unit[0] == model.dimension_by_name[field].unit else 1
    scaled = [clean_number(v * factor) for v in values]
    state.positions[(field, op, tuple(scaled))] = span[0]
    consume_with_mentions(state, [*span, *([unit_index] if unit_index is not None else [])])
    return Filter(field=field, op=op, values=scaled)


def _a_valued_thing_at(state: State, index: int) -> bool:
    """A value then the thing it is of, at `index` ('chicken pizza'): the rows a condition already says."""
    value = mention_at(state, index)
    if value is None or value.start != index or not value.has("value"):
        return False
    thing = mention_at(state, value.end)
    return thing is not None and thing.start == value.end and thing.has("entity")


def _counted_in_other_words(state: State, start: int, end: int, model: SemanticModel
                            ) -> tuple[str, list[int]] | None:
    """'won at least 3 technicals': the verb before the comparison and the noun after it are the words of a
    numeric column's label in other forms ('technical wins'), when exactly one column's are."""
    if end >= len(state.tokens) or start == 0 or mention_at(state, end) is not None:
        return None
    said = [start - 1, end]
    forms = [_lemma_set(state.tokens[i].low) for i in said]
    found = []
    for dim in model.dimensions:
        label = dim.label.lower().split()
        if dim.kind != "numeric" or len(label) != len(said):
            continue
        wanted = [_lemma_set(word) for word in label]
        if all(any(w & f for f in forms) for w in wanted) and all(any(f & w for w in wanted) for f in forms):
            found.append(dim.name)
    return (found[0], said) if len(found) == 1 else None


def _lemma_set(word: str) -> set[str]:
    return {word, *noun_forms(word), *(lemma for forms in lemmas(word).values() for lemma in forms)}


_QUALIFIERS = {"different", "distinct", "unique", "individual", "separate"}


def _metric_before(state: State, start: int, model: SemanticModel) -> Mention | None:
    """A measure's aggregate named right before a comparison ('an average departure delay above
    15 minutes'); a count before it ('how many flights were longer than ...') compares rows."""
    j = start
    while j > 0 and state.tokens[j - 1].low in {"was", "is", "were", "are", "of", "been", "be"}:
        j -= 1
    mention = mention_at(state, j - 1) if j > 0 else None
    if mention is not None and mention.end == j and mention.has("metric") and not mention.used \
            and all(model.metric_by_name[e.name].measure is not None for e in mention.of("metric")):
        return mention
    return None


def _aggregated_target(state: State, start: int, end: int, field: Mention | None,
                       model: SemanticModel) -> tuple[str, list[int]] | None:
    """The metric a comparison is about when it compares an aggregate, and the token indexes
    naming it: 'more than 20k flights' (a count), 'flew more than 400 times' (rows counted),
    'at least 6 different carriers' (distinct values), 'an avg arrival delay over 10 min'."""
    named = _metric_before(state, start, model)
    if named is not None and (field is None or field.start >= start):
        return named.of("metric")[0].name, list(range(named.start, named.end))  # 'an average delay above 15 min'
    agg = mention_at(state, start - 1) if start else None
    if field is not None and field.start >= end and agg is not None and agg.end == start and agg.has("agg") \
            and not agg.has("rank"):  # 'carriers averaging over 15 min late on arrival': the measure after it
        measure = next((e.name for e in field.of("dimension") if model.dimension_by_name[e.name].kind == "numeric"), None)
        averaged = metrics_for(measure, [agg.of("agg")[0].name], model) if measure else []
        if averaged:
            return averaged[0], [*range(agg.start, agg.end), *range(field.start, field.end)]
    if field is not None and field.start < start:
        things = mention_at(state, end)
        if things is not None and things.start == end and things.has("entity") and counts_by_verb(state, field, model):
            # 'sold fewer than 1,000 pizzas': the units sold added up, not the rows of pizzas
            measure = next(e.name for e in field.of("dimension") if model.dimension_by_name[e.name].counts_things)
            metrics = metrics_for(measure, ["sum"], model)
            if metrics:
                return metrics[0], [*range(field.start, field.end), *range(things.start, things.end)]
        agg = mention_at(state, field.start - 1)
        if agg is not None and agg.has("agg") and not agg.has("rank"):
            measure = next(e.name for e in field.of("dimension")
                           if model.dimension_by_name[e.name].kind == "numeric")
            metrics = metrics_for(measure, [agg.of("agg")[0].name], model)
            if metrics:
                return metrics[0], list(range(agg.start, field.end))
        return None
    j = end
    while j < len(state.tokens) and state.tokens[j].low in _QUALIFIERS and mention_at(state, j) is None:
        j += 1
    if j >= len(state.tokens):
        return None
    if state.tokens[j].low == "times" and model.default_metric:
        return model.default_metric, list(range(end, j + 1))
    mention = mention_at(state, j)
    if mention is None or mention.start != j:
        return None
    used = list(range(end, mention.end))
    if mention.has("metric"):
        return mention.of("metric")[0].name, used
    if mention.has("entity"):
        counted = model.table_by_name[mention.of("entity")[0].name]
        verb = mention_at(state, start - 1) if start else None
        if verb is not None and not verb.used:
            events = [e.name for e in verb.of("entity") if e.related]
            through = [counted.counted_from[t] for t in events if t in counted.counted_from]
            if len(through) == 1:
                # 'users who rated more than 100 movies': the movies counted among the ratings, the verb's rows
                return through[0], [*range(verb.start, verb.end), *used]
        if counted.count_metric:
            return counted.count_metric, used
    dims = [e.name for e in mention.of("dimension") if model.dimension_by_name[e.name].kind == "categorical"]
    numeric = any(model.dimension_by_name[e.name].kind == "numeric" for e in mention.of("dimension"))
    if dims and plural(state, mention) and not numeric:  # 'more than 2 engines' compares the engine count
        metric = model.distinct_count_metric(dims[0])
        if metric:
            return metric, used
    return None


def _split_synonym(state: State, start: int, after: Mention, model: SemanticModel) -> tuple[str, list[int]] | None:
    """'arrived more than an hour late': a measure's synonym ('arrived late', or a word for it: 'landed late',
    'got in late') split by the comparison; the measure and the tokens said before the comparison."""
    for size in (1, 2):
        if start < size:
            return None
        words = (*(t.low for t in state.tokens[start - size:start]), *words_of(state, after))
        found = next((d.name for d in model.dimensions if d.kind == "numeric"
                      and any(phrase(s) == words for s in [*d.synonyms, *d.related])), None)
        if found is not None:
            return found, list(range(start - size, start))
    return None


def _exact_count_at(state: State, i: int, model: SemanticModel) -> list[int]:
    """'with 4 engines', 'that have 2 engines', 'ratings that are 5 stars', 'a rating of 5 stars': a number
    owned by a measure named right after it (after 'is' or 'of', only by the measure's own word); 'a 5-star
    rating': a word joined to the number before the measure; 'ratings of 5', 'ratings that are 5': the
    measure said just before. The tokens the condition is said with, or none."""
    tokens = state.tokens
    token = tokens[i]
    if token.number is None or i == 0 or i in state.used_tokens:
        return []
    before = tokens[i - 1].low
    if before in {"with", "have", "has", "had"}:
        return [i] if _numeric_mention_after(state, i + 1, model) is not None else []
    after = mention_at(state, i + 1)
    if before in {"is", "are", "was", "were", "of", "gave", "given", "give", *_BEFORE_A_JOINED_NUMBER} \
            and after is not None and after.start == i + 1 and is_numeric(after, model):
        return [i]
    joined = tokens[i + 1].low if i + 1 < len(tokens) else ""
    measure = mention_at(state, i + 2)
    if before in _BEFORE_A_JOINED_NUMBER and after is None and joined.isalpha() and joined not in model.unit_words \
            and joined not in state.function_words and measure is not None and measure.start == i + 2 \
            and is_numeric(measure, model):
        return [i, i + 1]
    said = mention_at(state, i - 2) if i >= 2 else None
    if before in {"of", "is", "are", "was", "were"} and said is not None and said.end == i - 1 \
            and is_numeric(said, model) and not said.used and i - 2 not in state.used_tokens:
        return [i - 1, i]
    return []


def _number_joined_to_a_measure(state: State, i: int, model: SemanticModel) -> str | None:
    """'4 engine planes', 'the 2 seat ones': a whole number, then a noun in the singular whose plural names
    one numeric column ('engines'), then the things it describes: that column equals the number."""
    tokens = state.tokens
    number = tokens[i].number
    if i + 2 >= len(tokens) or number is None or not number.is_integer() or i in state.used_tokens \
            or not tokens[i + 1].low.isalpha():
        return None
    noun = tokens[i + 1].low
    forms = noun_forms(noun) - {noun}
    things = mention_at(state, i + 2)
    if not forms or not (tokens[i + 2].low in {"one", "ones"} or things is not None and things.start == i + 2
                         and things.has("entity")):
        return None
    named = [d.name for d in model.dimensions if d.kind == "numeric"
             and forms & {text.lower() for text in (d.label, *d.synonyms)}]
    return named[0] if len(named) == 1 else None


# Words before a number joined to a noun that qualifies a measure ('a 5-star rating', 'how many 5 star ratings').
_BEFORE_A_JOINED_NUMBER = {"a", "an", "many", "any"}


# '4 engines or more', '90F or hotter': the word after 'or' says which way (vocabulary.yaml `or_comparatives`)
_OR_SUFFIX: dict[str, str] = {word: op for op, words in english()["or_comparatives"].items() for word in words}


# '2010 onwards', '50 and up', 'from 2010 on': a number left open on one side (vocabulary.yaml `open_ended`)
_OPEN_ENDED: list[tuple[tuple[str, ...], str]] = sorted(
    [(tuple(text.split()), op) for op, texts in english()["open_ended"].items() for text in texts],
    key=lambda item: -len(item[0]))
_OPEN_AFTER_FROM = {tuple(text.split()) for text in english()["open_ended_after_from"]}


def _open_ended_at(words: tuple[str, ...], tokens: list[Token], i: int) -> tuple[str, list[float], list[int], int] | None:
    """'from 2010 on', '2010 onwards', '50 and up' starting at token i: (op, numbers, token indexes, next index)."""
    start, at = (i, i + 1) if words[i] == "from" else (i, i)
    if at >= len(tokens) or (number := tokens[at].number) is None:
        return None
    for gap in (0, 1):  # '200 seats and up': the measure may stand between the number and its end
        for said, op in _OPEN_ENDED + ([(w, ">=") for w in _OPEN_AFTER_FROM] if at > start and not gap else []):
            end = at + 1 + gap + len(said)
            if words[at + 1 + gap:end] == said:
                return op, [number], [*range(start, at + 1), *range(at + 1 + gap, end)], at + 1 if gap else end
    return None


def _comparison_at(tokens: list[Token], i: int, units: dict[str, tuple[str, float]]) -> tuple[str | None, list[float], list[int], int]:
    """A comparison starting at token i: (op, numbers, its token indexes, where a unit may stand)."""
    words = tuple(t.low for t in tokens)
    if (open_ended := _open_ended_at(words, tokens, i)) is not None:
        return open_ended
    if words[i] == "between" and i + 3 < len(tokens) and (low := tokens[i + 1].number) is not None \
            and words[i + 2] == "and" and (high := tokens[i + 3].number) is not None:
        return "between", [low, high], [i, i + 1, i + 2, i + 3], i + 4
    for cue, op in COMPARATORS:
        n = len(cue)
        if words[i:i + n] != cue:
            continue
        j = i + n
        if j < len(tokens) and words[j] in {"a", "an"} and j + 1 < len(tokens) and words[j + 1] in units:
            return op, [1.0], list(range(i, j + 1)), j + 1  # "over an hour"
        if j < len(tokens) and (number := tokens[j].number) is not None:
            return op, [number], list(range(i, j + 1)), j + 1
    if (number := tokens[i].number) is not None:
        # "4 engines or more", "2 hours or longer": the unit sits between the number and "or"
        for gap in (0, 1):
            k = i + 1 + gap
            if k + 1 < len(tokens) and words[k] == "or" and words[k + 1] in _OR_SUFFIX:
                # '30 or more orders': what is compared follows the 'or more'
                return _OR_SUFFIX[words[k + 1]], [number], [i, k, k + 1], i + 1 if gap else k + 2
    return None, [], [], i


def _measure_comparative_at(tokens: list[Token], i: int, model: SemanticModel
                            ) -> tuple[str, list[float], list[int], int, str] | None:
    """'older than 50', 'cheaper than 10': a comparative of a measure adjective (thesaurus
    `measure_adjectives:`), then 'than' and a number, compares that measure: above it for the high side's
    words, below it for the low side's."""
    if i + 2 >= len(tokens) or tokens[i + 1].low != "than":
        return None
    word = tokens[i].low
    measure = model.ranking.implies_measure.get(word)
    if measure is None or measure not in model.dimension_by_name or word.endswith("est"):
        return None
    at = i + 2  # 'older than age 50': the measure's own word may come before the number
    if tokens[at].number is None and at + 1 < len(tokens) \
            and tokens[at].low in model.dimension_by_name[measure].label.lower().split():
        at += 1
    number = tokens[at].number
    if number is None:
        return None
    op = ">" if word in model.ranking.descending else "<"
    return op, [number], list(range(i, at + 1)), at + 1, measure


def _measure_inside_comparison(state: State, i: int, model: SemanticModel
                               ) -> tuple[str, list[float], list[int], int, str] | None:
    """'larger than size 40', 'more than seats 300': the measure named between the comparison and its
    number is what is compared."""
    tokens = state.tokens
    words = tuple(t.low for t in tokens)
    for cue, op in COMPARATORS:
        j = i + len(cue)
        if words[i:j] != cue or j >= len(tokens):
            continue
        named = mention_at(state, j)
        if named is None or named.start != j or named.end >= len(tokens) or not is_numeric(named, model):
            return None
        number = tokens[named.end].number
        numeric = [e.name for e in named.of("dimension") if model.dimension_by_name[e.name].kind == "numeric"]
        if number is None or len(numeric) != 1:
            return None
        return op, [number], list(range(i, named.end + 1)), named.end + 1, numeric[0]
    return None


def clean_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _numeric_mention_after(state: State, index: int, model: SemanticModel) -> Mention | None:
    """'more than 200 seats': the measure named right after the number (or after its unit)."""
    for offset in (0, 1):
        mention = mention_at(state, index + offset)
        if mention is not None and mention.start == index + offset and is_numeric(mention, model):
            return mention
    return None


def _numeric_mention_before(state: State, index: int, model: SemanticModel) -> Mention | None:
    """'arrival delay over 2 hours', 'delayed by more than an hour': the measure just before; 'the wind at the
    origin was over 20 mph': past where it was measured, a place after 'at'."""
    j = index
    skipped = 0
    while j > 0 and skipped <= 3:
        mention = mention_at(state, j - 1)
        if mention is not None and not is_numeric(mention, model):
            at = mention.start - (mention.start > 0 and state.tokens[mention.start - 1].low == "the")
            if at > 1 and state.tokens[at - 1].low == "at" and not mention.has("metric"):
                j, skipped = at - 1, skipped + 1  # 'at the origin', 'at jfk': where, not what is compared
                continue
        if mention is not None:
            return mention if is_numeric(mention, model) and not mention.used else None
        if state.tokens[j - 1].low not in state.function_words and state.tokens[j - 1].low not in {"was", "were", "had"}:
            return None
        j -= 1
        skipped += 1
    return None


def is_numeric(mention: Mention, model: SemanticModel) -> bool:
    return any(model.dimension_by_name[e.name].kind == "numeric" for e in mention.of("dimension"))


def _signed_predicates(state: State, model: SemanticModel) -> list[Filter]:
    """'what % of flights arrived late', 'how many left early': a signed measure named by a word of its side
    (vocabulary.yaml `signed_predicates`), said with no number, is the rows on that side of zero. Not after
    'how' ('how late': the amount) or before 'much' ('delayed much'), nor next to a number or an aggregation word
    (those are read as such)."""
    sides = dict(w.rsplit(" ", 1) for w in model.shapes.get("signed_predicates", []))
    found = []
    for mention in state.mentions:
        said = words_of(state, mention)
        numeric = [e.name for e in mention.of("dimension") if model.dimension_by_name[e.name].kind == "numeric"]
        if mention.used or len(numeric) != 1 or not said or said[-1] not in sides:
            continue
        before = state.tokens[mention.start - 1].low if mention.start else ""
        after = state.tokens[mention.end] if mention.end < len(state.tokens) else None
        read = covered(state)  # a year read as a period ('left early in 2013') is no amount of the measure
        near = [i for i in range(max(0, mention.start - 3), min(len(state.tokens), mention.end + 2))
                if state.tokens[i].number is not None and i not in read]
        if before in {"how", "avg", "average", "mean", "total", "max", "min", "median"} or near \
                or (after is not None and after.low in {"by", "of", "much"}):
            continue  # 'delayed much': how much, the amount
        state.positions[(numeric[0], sides[said[-1]], (0,))] = mention.start  # where it was said: the part of a share
        consume_with_mentions(state, list(range(mention.start, mention.end)))
        found.append(Filter(field=numeric[0], op=sides[said[-1]], values=[0]))
    return found


def comparisons_pass(draft: Draft) -> Draft:
    filters, ambiguous, unresolved, having = read_comparisons(draft.state, draft.model)
    words = [t.low for t in draft.state.tokens]
    if not draft.amount_in_unit and ("in", "total") not in zip(words, words[1:]):
        filters += _signed_predicates(draft.state, draft.model)  # 'how many minutes were flights delayed': an amount
    draft.filters += filters
    draft.ambiguous += ambiguous
    draft.unresolved += unresolved
    draft.having += having
    return draft
