"""Pass: what the earlier passes could not place, each a reason to ask back or to say what is missing
instead of answering a different question: an aggregation with nothing to apply to, part of a value,
a value the warehouse lacks, a word with two meanings, a condition whose subject is unknown, a
distinct count or a measure the model lacks."""

from __future__ import annotations

import re

from agent.semantic.compile.filters import Filter
from agent.semantic.nlq.parse.coverage import ask_about, unread_words
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.state import Ambiguity, UnknownValue, covered, mention_at, mention_text
from agent.semantic.model.values import ValueIndex
from agent.text.words import is_common, lemmas

_WORDS = re.compile(r"[^0-9a-z]+")


def blockers_pass(draft: Draft) -> Draft:
    state, model = draft.state, draft.model
    chosen_aggs = {model.metric_by_name[name].agg for options in draft.metric_choices for name in options
                   if isinstance(name, str) and name in model.metric_by_name}
    idle = [m for m in state.mentions if m.has("agg") and not m.used and not m.has("rank")
            and m.of("agg")[0].name not in chosen_aggs]  # 'how late on average': the metric is an average
    if idle:  # 'average order value' where no measure is the order value: an average of nothing named
        unread = unread_words(draft)
        if unread:  # 'average agee': the word it applies to was not read; offer the nearest names
            return ask_about(draft, unread)
        return draft.stop(f"I could not tell what “{mention_text(state, idle[0])}” applies to: name a measure of "
                          "this model.")
    draft.ambiguous = _told_by_the_measure(draft)
    draft.unknown = _named_by_their_end(draft)
    fillers = {w.lower() for w in draft.model.coverage.get("fillers", [])}  # 'rn' is 'now': no 'R&B Now'
    shaping = _shape_words(draft)  # 'what share of tickets': the shapes pass reads it, no 'share a dashboard'
    unknown = draft.unknown + partial_values([w for w in draft.ignored() if not _describes_the_rows(draft, w)
                                              and w.lower() not in fillers | shaping], draft.values)
    if unknown:
        names = ", ".join(f"'{u.text}'" for u in unknown)
        return draft.stop(f"{names} is not a value found in the warehouse.", unknown_values=unknown)
    if draft.ambiguous:
        return draft.stop("A word could mean more than one thing.", ambiguous=draft.ambiguous)
    if draft.unresolved:
        return draft.stop("I could not tell what " + ", ".join(f"'{u}'" for u in draft.unresolved) + " refers to.")
    if draft.uncounted:
        return draft.stop("The semantic model has no metric counting distinct " + ", ".join(draft.uncounted) + ".")
    if draft.unmatched:
        return draft.stop("The semantic model has no metric for the " + ", ".join(draft.unmatched) + ".")
    return draft


def _told_by_the_measure(draft: Draft) -> list[Ambiguity]:
    """'avg temp at lga by month': a value of two dimensions (origin, destination) of which the measure's table
    reaches one only (the weather is kept by origin) is that one's. Returns the ambiguities left."""
    tables = {draft.model.metric_by_name[m].table for options in draft.metric_choices for m in options
              if isinstance(m, str) and m in draft.model.metric_by_name}
    left = []
    for ambiguity in draft.ambiguous:
        reached = [d for d in ambiguity.options if tables and all(draft.model.resolve(d, t) is not None for t in tables)]
        value = next((v for v in draft.values.values.get(reached[0], []) if str(v).lower() == ambiguity.text.lower()),
                     None) if ambiguity.of_value and len(reached) == 1 else None
        if value is None:
            left.append(ambiguity)
            continue
        draft.filters.append(Filter(field=reached[0], op="=", values=[value]))
    return left


def _named_by_their_end(draft: Draft) -> list[UnknownValue]:
    """'the Cubs', 'Red Sox', 'the Rowlett store': words no pass placed that end or begin exactly one value of the
    data ('Chicago Cubs', 'Boston Red Sox', 'Rowlett Bikes') name it, as people shorten a name to its distinctive
    part; read as that value and said so in the reading ('Chicago Cubs, for ‘Cubs’'). Words ending or beginning
    several values ('Sox', 'Chicago') stay asked about, and everyday words typed in lower case are never taken
    for a name.
    Returns the unknown values left."""
    state, tokens = draft.state, draft.tokens
    placed = covered(state)
    loose = [i for i, t in enumerate(tokens) if i not in placed and t.low not in state.function_words
             and t.number is None and t.low.isalpha() and len(t.low) >= 3]
    runs: list[list[int]] = []
    for i in loose:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    spans = sorted(([run[a:b] for run in runs for a in range(len(run)) for b in range(a + 1, len(run) + 1)]),
                   key=lambda span: (-len(span), span[0]))  # 'Red Sox' before 'Sox'
    named: set[str] = set()
    taken: set[int] = set()
    for span in spans:
        words = [tokens[i].low for i in span]
        if taken & set(span) or all(_everyday(w) and not tokens[i].text[:1].isupper() for w, i in zip(words, span)):
            continue
        said = [(dim, value, value) for dim, values in draft.values.values.items() for value in values]
        said += [(dim, value, label) for dim, labels in draft.values.labels.items() for value, label in labels.items()]
        ends = {(dim, value) for dim, value, name in said
                if len(parts := [p for p in _WORDS.split(str(name).lower()) if p]) > len(words)
                and words in (parts[-len(words):], parts[:len(words)])}
        if len(ends) != 1:
            continue
        dim, value = ends.pop()
        draft.filters.append(Filter(field=dim, op="=", values=[value], said=" ".join(tokens[i].text for i in span)))
        state.consume(*span)
        taken.update(span)
        named.update(tokens[i].text for i in span)
    return [u for u in draft.unknown if u.text not in named]


# the shapes an answer's numbers are set against each other in (vocabulary.yaml `shapes`), read after this pass
_SHAPES_READ_LATER = ("share", "amount_share", "ratio", "pct_change", "difference", "side_by_side", "movement",
                    "falling", "previous_period", "previous_year")


def _shape_words(draft: Draft) -> set[str]:
    shapes = draft.model.shapes
    return {word for shape in _SHAPES_READ_LATER for said in shapes.get(shape, []) for word in said.lower().split()}


def _describes_the_rows(draft: Draft, word: str) -> bool:
    """'insurance claims' where the claims table is described as 'Insurance claims, one per …': a word the table's
    own description puts before its rows' name qualifies the rows, and is no part of a value."""
    tokens = draft.state.tokens
    for i, token in enumerate(tokens[:-1]):
        after = mention_at(draft.state, i + 1)
        if token.low != word.lower() or after is None or after.start != i + 1 or not after.has("entity"):
            continue
        rows = " ".join(t.low for t in tokens[after.start:after.end])
        described = " ".join(" ".join(draft.model.table_by_name[e.name].description.lower().split())
                             for e in after.of("entity") if e.name in draft.model.table_by_name)
        if f"{token.low} {rows}" in described:
            return True
    return False


def _everyday(word: str) -> bool:
    """A common word of the dictionary ('home', 'giants'), not a name that is merely frequent ('charlotte',
    'denver': the dictionary of word forms has no entry for a proper name)."""
    return is_common(word) and bool(lemmas(word))


def partial_values(ignored: list[str], values: ValueIndex) -> list[UnknownValue]:
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
