"""Pass, last: the reading must account for the question, or the reader asks back.

Every word must be read by some pass or be one that cannot carry a condition or a measure alone
(vocabulary.yaml `function_words:` and `coverage:`): grammar and filler words, the verbs rows are told
with ('orders placed in 1995'), a word that only follows a column's name ('priority level'), a unit,
the data set itself said as a place ('on the menu', 'in the catalog', a word of the warehouse's own
descriptions), a restatement (words in parentheses, words a read aside defines, a word naming what is
read already) or a period's name ('the feb 8-9 blizzard'). Any other word ends the reading with the
words named and, where the lexicon has something close, the nearest readings to choose from: a
question is never answered as a different one. Then the intent must fit the model; how much of the
question the reading covers is its confidence.
"""

from __future__ import annotations

from collections.abc import Container

from agent.semantic.compile.intent import validate_intent
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.display import unit_check
from agent.semantic.nlq.parse.draft import Draft, Extraction
from agent.semantic.nlq.parse.lexicon import Mention, lexicon_for
from agent.semantic.nlq.parse.state import (WHICH, Ambiguity, State, covered, mention_at, names_the_data, plural,
                                             words_of)
from agent.semantic.compile.reading import describe
from agent.text.phrases import CALENDAR_WORDS
from agent.text.words import inflection, lemmas, noun_forms, plural_phrase

_CLAUSES = {"when", "where", "while", "whenever"}
_PLACE = {"on", "in", "at", "across", "from", "of", "within", "throughout", "for", "about"}
_DETERMINERS = {"the", "our", "this", "that", "your", "my", "whole", "entire"}
_NEAR = 82  # rapidfuzz score above which a lexicon phrase is offered for an unread word


def coverage_pass(draft: Draft) -> Draft:
    assert draft.intent is not None
    problems = validate_intent(draft.intent, draft.model)
    if problems:
        return draft.stop(" ".join(problems))
    other_unit = unit_check(draft)
    if other_unit:
        return draft.stop(other_unit)
    counted = _amount_read_as_a_count(draft)
    if counted:
        return draft.stop(counted)
    unnamed = _which_thing_unnamed(draft) or _who_unnamed(draft) or _which_read_as_a_total(draft)
    if unnamed:
        return draft.stop(unnamed)
    unread = unread_words(draft)
    if unread:
        return ask_about(draft, unread)
    # a verb telling how rows come to be ('work overtime', 'did Nadiya make') was read as such, and a filler
    # ('them', 'pls') adds nothing: neither is reported as a word left unused
    verbs = set(draft.model.coverage.get("event_verbs", []))
    fillers = set(draft.model.coverage.get("fillers", []))
    read = covered(draft.state)
    ignored = [t.text for i, t in enumerate(draft.tokens) if i not in read and t.low not in draft.state.function_words
               and t.low not in fillers and t.number is None and not _asks_a_measure_read(draft, i)
               and not (_lemma_in(t.low, verbs, ("VERB",)) and _used_as_verb(draft.state, i))]
    content = [t for t in draft.tokens if t.low not in draft.state.function_words]
    coverage = 1.0 - len(ignored) / max(1, len(content))
    draft.outcome = Extraction(intent=draft.intent, ignored_words=ignored, confidence=round(0.5 + 0.5 * coverage, 2))
    return draft


def _amount_read_as_a_count(draft: Draft) -> str | None:
    """'how much did commercial customers pay us': an amount asked, and only rows counted in the reading. A
    count answers 'how many', never 'how much' (a share, 'how much of', and a change are read elsewhere)."""
    assert draft.intent is not None
    words = [t.low for t in draft.tokens]
    asked = any(a == "how" and b == "much" for a, b in zip(words, words[1:]))
    if not asked or draft.intent.share_of_total or draft.intent.compare is not None or draft.intent.definitions \
            or draft.intent.contrast is not None:
        return None
    metrics = [draft.model.metric_by_name.get(n) for n in draft.intent.all_metrics()]
    counts = {t.count_metric for t in draft.model.tables}
    if not metrics or any(m is None or (m.agg not in ("count", "count_distinct") and m.name not in counts)
                          for m in metrics):
        return None
    # 'how much $ did we collect in fines': the rows counted have one amount that adds up, and that is it
    tables = {m.table for m in metrics if m is not None}
    money = set(draft.model.coverage.get("money_heads", []))
    sums = [m.name for m in draft.model.metrics if m.table in tables and m.agg == "sum" and not m.filter
            and m.measure is not None and m.measure in draft.model.dimension_by_name
            and draft.model.dimension_by_name[m.measure].label.lower().split()[-1:][0] in money]
    if len(tables) == 1 and len(sums) == 1 and len(metrics) == 1:
        draft.intent = draft.intent.model_copy(update={"metrics": sums})
        return None
    label = metrics[0].label if metrics[0] is not None else ""
    return (f"“How much” asks for an amount, and the only thing I could read is a count ({label}); "
            "say which amount you mean.")


def _which_thing_unnamed(draft: Draft) -> str | None:
    """'which flight had the longest delay': a thing asked for by 'which', where the reading names none (no
    grouping, nothing listed) because the things have no name or key of their own to show. A total would answer
    another question; it is said instead."""
    assert draft.intent is not None
    state, model = draft.state, draft.model
    if draft.intent.dimensions:
        return None
    for mention in state.mentions:
        tables = [e.name for e in mention.of("entity")]
        if len(tables) != 1 or mention.has("dimension") or model.name_dimension(tables[0]) is not None \
                or not state.cue_before(mention.start, [(w,) for w in WHICH], skip=("the", "a", "an", "one")):
            continue
        things = plural_phrase(" ".join(words_of(state, mention)))
        return (f"I can't point at single {things}: they have no name or number of their own to list, so I would "
                f"only give a total. Without “which”, I read: {describe(draft.intent, model)}")
    return None


def _which_read_as_a_total(draft: Draft) -> str | None:
    """'which clients went over their budget': a question that opens with 'which' asks for things, and a reading
    of one total (no grouping, no sides set against each other) names none of them; said instead of the total."""
    assert draft.intent is not None
    intent = draft.intent
    if not draft.tokens or draft.tokens[0].low != "which" or intent.dimensions or intent.contrast \
            or intent.compare is not None or intent.count_groups:
        return None
    return ("“Which” asks for things by name, and I could only read one total: name the things to list. "
            f"Without “which”, I read: {describe(intent, draft.model)}")


def _who_unnamed(draft: Draft) -> str | None:
    """'who flies JFK to HNL': 'who' asks for people or companies, and a reading by nothing (one total) names
    none of them; it is said instead of a number answering another question."""
    assert draft.intent is not None
    words = [t.low for t in draft.tokens]
    if not words or words[0] not in ("who", "who's", "whom") or draft.intent.dimensions or draft.intent.contrast:
        return None
    return ("“Who” asks for people or companies, and I could not tell which ones: name them, with “which” and "
            f"what they are. Without “who”, I read: {describe(draft.intent, draft.model)}")


def unread_words(draft: Draft) -> list[int]:
    """Indexes of the tokens no pass read and no rule lets be."""
    state, model = draft.state, draft.model
    read = covered(state)
    words = model.coverage
    fillers = state.function_words | set(words.get("fillers", []))
    verbs = set(words.get("event_verbs", []))
    suffixes = set(words.get("label_suffixes", []))
    used = _used_names(draft)
    unread = []
    for i, token in enumerate(state.tokens):
        low = token.low
        if i in read or token.aside or (token.number is None and not any(c.isalpha() for c in low)):
            continue
        if _value_said_as_a_particle(draft, i):
            unread.append(i)
            continue
        if _lemma_in(low, verbs, ("VERB",)) \
                and _closes_with_a_particle(state, i, read, set(words.get("phrasal_particles", []))):
            unread += [i, i + 1]  # 'requests that actually go through': a phrasal verb says what happened to them
            continue
        if low in fillers or _lemma_in(low, fillers, ("VERB", "NOUN", "ADV")):
            continue
        if low in model.unit_words and i > 0 and state.tokens[i - 1].number is not None:
            continue  # '2 hours': a number's unit
        if low in CALENDAR_WORDS and i + 1 < len(state.tokens) and state.tokens[i + 1].low in _CLAUSES:
            continue  # 'in hours when the wind was over 25 mph': the clause says which hours
        if _lemma_in(low, verbs, ("VERB",)) and _used_as_verb(state, i):
            continue  # 'placed', 'scheduled', 'racked up', 'did we book': how rows come to be
        if low in suffixes and i > 0 and i - 1 in read and (before := mention_at(state, i - 1)) is not None \
                and _names_the_head(before, state.tokens[i - 1].low, model):
            continue  # 'priority level'; not 'card type' where 'card' is only a word of 'card number'
        if _asks_a_measure_read(draft, i):
            continue  # 'how warm does lga get, avg temp by month': the adjective asks for the measure read
        if _names_the_data_set(state, i, model) or names_the_data(state, i, words) or low in used or _names_a_period(state, i, read) \
                or _defined_by_aside(state, i) or _described_by_flag(state, i, read):
            continue
        unread.append(i)
    return unread


def _asks_a_measure_read(draft: Draft, i: int) -> bool:
    """'how warm …', 'how old …': after 'how', an adjective of a measure (its comparative ranks by it,
    thesaurus `measure_adjectives`) asks for that measure, which the reading measures already."""
    state, model = draft.state, draft.model
    if i == 0 or state.tokens[i - 1].low != "how" or draft.intent is None:
        return False
    low = state.tokens[i].low
    named = {model.ranking.implies_measure.get(form) for form in inflection(low, "JJR")} - {None}
    measured = {model.metric_by_name[m].measure for m in draft.intent.all_metrics() if m in model.metric_by_name}
    return bool(named) and named <= measured


def _closes_with_a_particle(state: State, i: int, read: set[int], particles: set[str]) -> bool:
    """'go through', 'come back', 'fall off' ending the clause (the question's end, a comma or a preposition
    follows): a verb with a particle of its own meaning, which no column's words said, not how rows come to be."""
    tokens = state.tokens
    if i + 1 >= len(tokens) or tokens[i + 1].low not in particles or i + 1 in read:
        return False
    after = tokens[i + 2] if i + 2 < len(tokens) else None
    # 'went out of JFK': 'out of' is one preposition, the verb only how rows come to be
    return after is None or not any(c.isalnum() for c in after.low) or (after.low in _PLACE and after.low != "of") \
        or after.low == "by"


def _names_the_head(mention: Mention, word: str, model: SemanticModel) -> bool:
    """Is `word` what the mention's column is named after: its own name, or the last word of its label
    ('priority' of 'order priority'), not a word before another head ('card' of 'card number')?"""
    for entry in mention.entries:
        if not entry.related:
            return True
        dim = model.dimension_by_name.get(str(entry.payload)) if entry.kind == "dimension" else None
        if dim is not None and word in noun_forms(dim.label.lower().split()[-1]) | {dim.label.lower().split()[-1]}:
            return True
    return False


def _value_said_as_a_particle(draft: Draft, i: int) -> bool:
    """'how many bakers went out in each series': a grammar word right after a verb, ending its phrase (the
    question's end or a preposition follows), that is also a whole value of a column ('OUT') may be that
    value, so it is not let be as grammar: the reader asks rather than drop a condition. 'in each series',
    'out of JFK' use the word as a preposition and stay grammar."""
    tokens = draft.state.tokens
    low = tokens[i].low
    if low not in draft.state.function_words or i == 0 or "VERB" not in lemmas(tokens[i - 1].low) \
            or "NOUN" in lemmas(tokens[i - 1].low):
        return False
    if i + 1 < len(tokens) and (tokens[i + 1].low not in _PLACE or tokens[i + 1].low == "of"):
        return False
    return any(low == value.lower() for values in draft.values.values.values() for value in values)


def ask_about(draft: Draft, unread: list[int]) -> Draft:
    """Ask back: the words not read, what was read, and the nearest readings as choices."""
    tokens = draft.state.tokens
    said = [tokens[i].text for i in unread]
    names = ", ".join(f"“{w}”" for w in dict.fromkeys(said))
    understood = describe(draft.intent, draft.model) if draft.intent is not None else ""
    reason = (f"I could not place {names} in this question, so I would be answering a different one. "
              + (f"Without {'it' if len(set(said)) == 1 else 'them'} I read: {understood}" if understood else ""))
    # the nearest names of the first word the lexicon knows nothing of ('agee'), else of the first unread
    unknown = [i for i in unread if mention_at(draft.state, i) is None] or unread
    options = _nearest(tokens[unknown[0]].low, draft)
    ambiguous = [Ambiguity(text=tokens[unknown[0]].text, options=options)] if options else []
    draft.outcome = Extraction(reason=reason.strip(), ambiguous=ambiguous, ignored_words=said, understood=understood,
                               understood_tables=draft.measured_tables())
    return draft


def _nearest(word: str, draft: Draft) -> list[str]:
    """Model names spelt close to an unread word ('salry' -> monthly income), best first."""
    from rapidfuzz import fuzz, process

    lexicon = lexicon_for(draft.model, draft.values)
    names: dict[str, str] = {}
    for bucket in lexicon.entries.values():
        for entry in bucket:
            if entry.kind in ("dimension", "metric", "entity", "flag") and len(entry.words) == 1:
                names.setdefault(entry.words[0], _label(entry.kind, entry.payload, draft.model))
    found = process.extract(word, list(names), scorer=fuzz.ratio, score_cutoff=_NEAR, limit=4)
    return list(dict.fromkeys(names[w] for w, _, _ in found))


def _label(kind: str, payload: object, model: SemanticModel) -> str:
    if kind == "entity":
        return str(model.table_by_name[str(payload)].entity_words[0]) if model.table_by_name[str(payload)].entity_words \
            else str(payload)
    if kind == "metric":
        return model.metric_by_name[str(payload)].label
    return str(payload)  # a dimension's name: the tool shows its label


def _lemma_in(word: str, vocabulary: Container[str], parts: tuple[str, ...]) -> bool:
    found = lemmas(word)
    return any(lemma in vocabulary for part in parts for lemma in found.get(part, ()))


def _names_the_data_set(state: State, i: int, model: SemanticModel) -> bool:
    """'on the menu', 'in the catalog', 'across the company': the data set said as a place, in words
    its own descriptions or table names use."""
    if state.tokens[i].low not in model.described_words:
        return False
    j = i - 1
    while j >= 0 and (state.tokens[j].low in _DETERMINERS or mention_at(state, j) is None
                      and state.tokens[j].low not in _PLACE and j == i - 1 and state.tokens[j].low.isupper()):
        j -= 1
    return j < i - 1 and j >= 0 and state.tokens[j].low in _PLACE


def _used_names(draft: Draft) -> set[str]:
    """Words of the labels of what the reading uses: a word naming one again restates it ('per year
    (by order date), in year order')."""
    intent, model = draft.intent, draft.model
    if intent is None:
        return set()
    labels = [model.metric_by_name[m].label for m in intent.metrics if m in model.metric_by_name]
    for name in [*intent.dimensions, *(f.field for f in intent.filters)]:
        if name in model.dimension_by_name:
            labels.append(model.dimension_by_name[name].label)
    return {form for label in labels for word in label.lower().split() for form in noun_forms(word)}


_PARTICLES = {"up", "out", "off", "in", "down"}
_AUXILIARIES = {"did", "do", "does", "will", "would", "can", "could", "should"}
_QUANTIFIERS = {"each", "every", "a", "an", "the", "our", "your", "their", "its"}
_SUBJECTS = {"we", "they", "you", "i", "he", "she", "it", "did", "do", "does", "to", "will", "would", "can", "could",
             "should", "who", "that", "which"}


def _used_as_verb(state: State, i: int) -> bool:
    """'placed', 'did we book', 'parts tie up': a verb here, not the noun it can also be."""
    low = state.tokens[i].low
    if "NOUN" not in lemmas(low):
        return True
    before = state.tokens[i - 1].low if i else ""
    after = state.tokens[i + 1].low if i + 1 < len(state.tokens) else ""
    subject = mention_at(state, i - 1) if i else None  # 'how many contestants work overtime': the rows do it
    named = subject is not None and subject.has("value") and subject.end == i  # 'did Nadiya make': a name does it
    measured = subject is not None and subject.has("metric") and subject.end == i  # 'revenue comes from'
    return before in _SUBJECTS or after in _PARTICLES or named or measured or (
        subject is not None and subject.has("entity") and plural(state, subject)) or (
        subject is not None and subject.end == i and _asked_of(state, subject.start))


def _asked_of(state: State, start: int) -> bool:
    """'how many planes did each airline use': the thing after an auxiliary ('did', 'does', 'will') is the
    subject, so the word after it is its verb."""
    j = start - 1
    while j >= 0 and state.tokens[j].low in _QUANTIFIERS:
        j -= 1
    return j >= 0 and state.tokens[j].low in _AUXILIARIES


def _names_a_period(state: State, i: int, read: set[int]) -> bool:
    """'during the feb 8-9 blizzard': a word right after dates read is the period's name."""
    if i == 0 or i - 1 not in read:
        return False
    before = mention_at(state, i - 1)
    number = state.tokens[i - 1].number
    if number is not None:  # a date's day or a year ('feb 8-9 blizzard', '2013 blizzard'), never 'top 3 meds'
        dated = any(m.has("month") for j in range(max(0, i - 4), i - 1) if (m := mention_at(state, j)) is not None)
        return dated or (float(number).is_integer() and 1900 <= number <= 2100)
    return before is not None and (before.has("month") or before.has("day"))


def _defined_by_aside(state: State, i: int) -> bool:
    """'below freezing (temp < 32F)', 'arrived late (receipt date after commit date)': up to three
    words right before an aside that was read are what it defines."""
    tokens = state.tokens
    read = covered(state)
    j = i
    while j < len(tokens) and j - i < 3 and not tokens[j].aside:
        j += 1
    if j >= len(tokens) or not tokens[j].aside:
        return False
    end = j
    while end < len(tokens) and tokens[end].aside:
        end += 1
    return any(k in read for k in range(j, end))


def _described_by_flag(state: State, i: int, read: set[int]) -> bool:
    """'late delivery rate': the thing a condition word describes ('late') is the rows it is about;
    'arrived late': the verb a condition word completes. A word that only says how ('left early' after
    'actually left') is a condition of its own, never the rows described."""
    before = mention_at(state, i - 1) if i else None
    if before is not None and i - 1 in read and before.has("flag"):
        return bool(lemmas(state.tokens[i].low).keys() - {"ADJ", "ADV"}) or not lemmas(state.tokens[i].low)
    after = mention_at(state, i + 1)
    return after is not None and i + 1 in read and after.has("flag") and "VERB" in lemmas(state.tokens[i].low) \
        and "NOUN" not in lemmas(state.tokens[i].low)
