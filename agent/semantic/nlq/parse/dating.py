"""Pass: which date the calendar words and time grains are about, when the question names one
that is not the measure's own ('line items shipped in December 1996', 'revenue per year (by
order date)'). Without one, a measure is dated by its model's agg_time_dimension."""

from __future__ import annotations

from agent.semantic.compile.intent import Filter, TimeFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.state import GROUP_CUES, State, consume_with_mentions, is_negated, mention_at
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.defining import asides
from agent.text.phrases import tokenize
from agent.text.words import lemmas, stem

_CUES = [("by",), ("using",), ("based", "on"), ("according", "to"), ("on",)]
# what follows a verb's stem in a date column's name: ship -> ship date, create -> created at
_DATE_SUFFIXES = ("date", "time", "at", "on", "day", "timestamp", "ts", "dt")


def read_dating(state: State, model: SemanticModel, dated: bool, grouped_by_grain: bool,
                asides: list[tuple[str, ...]]) -> str | None:
    """The time dimension chosen, or None. `dated`: the question has calendar words or a grain,
    so a date named 'by' or a verb ('shipped') says which date they are about. 'By <date>' groups
    by that date, unless the answer is already by a grain ('per year (by order date)') or it is
    said aside, in parentheses ('in 1996 (by order date)')."""
    if not dated:
        return None
    for mention in state.mentions:
        if mention.used:
            continue
        times = [e.name for e in mention.of("dimension") if model.is_date(e.name)]
        cue = state.cue_before(mention.start, _CUES)
        if not cue and _grain_of(state, mention.start):
            cue = ("of",)  # 'by year of order date': the grain is of that date
        if len(times) != 1 or not cue:
            continue
        said = tuple(t.low for t in state.tokens[mention.start - len(cue):mention.end])
        if grouped_by_grain or any(_contains(aside, said) for aside in asides):
            consume_with_mentions(state, [*range(mention.start - len(cue), mention.end)])
            return times[0]
    for index, token in enumerate(state.tokens):
        phrasal = _date_of_phrasal_verb(state, model, index)
        if phrasal is not None:
            return phrasal
        here = mention_at(state, index)
        # a verb the thesaurus gives a table's rows ('reviewed': what a review records) may name its date too
        verb_of_rows = here is not None and all(e.kind == "entity" and e.related for e in here.entries)
        # 'loads delivered each month': the verb of a date column ('delivered date') is that date, no grouping
        verb_of_date = here is not None and here.end == index + 1 and all(
            e.kind == "dimension" and model.is_date(e.name) for e in here.entries)
        # 'loads delivered each month' where 'delivered' is also a status: with calendar words, the verb says
        # which date they are about, and a date in the period holds only for what was delivered
        verb_of_status = here is not None and here.end == index + 1 and all(e.kind == "value" for e in here.entries)
        if index in state.used_tokens or (here is not None and not (verb_of_rows or verb_of_date or verb_of_status)) \
                or token.low in state.function_words:
            continue
        found = _dimension_of_verb(token.low, model)
        if found is not None:
            consume_with_mentions(state, [index])
            return found
        ended = _end_date_of_verb(token.low, model)
        if ended is not None:  # 'lapsed' dates the rows and, as a status, is still a condition of its own
            if here is None:
                consume_with_mentions(state, [index])
            return ended
    return None


def _date_of_phrasal_verb(state: State, model: SemanticModel, index: int) -> str | None:
    """'loads we picked up in Q1', 'guests who checked in last May': a verb and its particle that are a date
    column's name run together ('pickup date', 'checkin date') say which date the calendar words are about, when
    no cue makes that date a grouping ('by pickup date')."""
    here = mention_at(state, index)
    if here is None or here.used or here.start != index or here.end - here.start != 2 \
            or state.cue_before(here.start, GROUP_CUES + _CUES):
        return None
    dates = {e.name for e in here.entries if e.kind == "dimension" and model.is_date(e.name)}
    if len(dates) != 1 or len(dates) != len({e.payload for e in here.entries}):
        return None
    consume_with_mentions(state, [*range(here.start, here.end)])
    return dates.pop()


def _events_counted(state: State, model: SemanticModel) -> tuple[str, str] | None:
    """'how many check-ins', 'number of deliveries': a date column's event counted by its noun is the
    rows of the date's table that have one, dated by it: (the date, the table's count)."""
    for mention in state.mentions:
        dates = [e.name for e in mention.entries if e.kind == "dimension" and model.is_date(e.name)]
        if mention.used or not dates or len(dates) != len(mention.entries) or len(set(dates)) != 1 \
                or state.words_before(mention.start, 2) not in {("how", "many"), ("number", "of")} \
                or not state.tokens[mention.end - 1].low.endswith("s"):
            continue
        own = [s.table for s in model.dimension_by_name[dates[0]].sources if s.join is None]
        count = model.table_by_name[own[0]].count_metric if own and own[0] in model.table_by_name else None
        if count is not None:
            consume_with_mentions(state, list(range(mention.start, mention.end)))
            return dates[0], count
    return None


def _how_the_rows_came(state: State, model: SemanticModel) -> None:
    """'how many users have signed up', 'members who joined': with no calendar words, the verb of the date a
    named table's rows are dated by (each row's own beginning) says how every one of them came, and sets no
    condition. It is read, so it is not asked about; a verb of any other date stays unread."""
    tables = {e.name for m in state.mentions for e in m.of("entity")}
    own_dates = {model.table_by_name[t].agg_time for t in tables if t in model.table_by_name} - {None}
    for mention in state.mentions:
        dates = {e.name for e in mention.entries if e.kind == "dimension" and model.is_date(e.name)}
        verb = state.tokens[mention.start].low
        if mention.used or len(dates) != 1 or len(dates) != len(mention.entries) or not dates <= own_dates \
                or "VERB" not in lemmas(verb) or "NOUN" in lemmas(verb):
            continue
        consume_with_mentions(state, list(range(mention.start, mention.end)))


def _events_that_happened(state: State, model: SemanticModel) -> list[Filter]:
    """'how many tickets were escalated', 'escalated tickets', 'loans never returned': with no calendar words,
    the past participle of a date's verb ('escalatedAt', 'ReturnDate') says the event happened to the rows (the
    date is set), or, negated, that it did not; it never groups by that date. 'Escalation rate' (vocabulary
    `shapes.rate`): the share of rows it happened to, read by the shapes pass. Only a date of the named things
    (or of rows pointing at them) counts; their own date (set on every row: 'orders placed') is read above and
    sets nothing."""
    tables = {e.name for m in state.mentions for e in m.of("entity")}
    own_dates = {model.table_by_name[t].agg_time for t in tables if t in model.table_by_name} - {None}
    rate_words = set(model.shapes.get("rate", []))
    found: list[Filter] = []
    for index, token in enumerate(state.tokens):
        here = mention_at(state, index)
        verbs = lemmas(token.low).get("VERB", ())
        rated = index + 1 < len(state.tokens) and state.tokens[index + 1].low in rate_words
        if index in state.used_tokens or (here is not None and (here.used or here.end - here.start != 1)) \
                or state.cue_before(index, GROUP_CUES + _CUES):
            continue  # 'by escalated at' groups
        if not rated and (not verbs or token.low in verbs or "NOUN" in lemmas(token.low)):
            continue  # 'escalate' is no event that happened ('escalation rate' is: the share of rows it happened to)
        if here is not None:
            dates = {e.name for e in here.entries if e.kind == "dimension" and model.is_date(e.name)}
            date = dates.pop() if len(dates) == 1 and len(here.entries) == 1 else None
        else:
            date = _date_of_event_noun(token.low, model, tables) if rated else _dimension_of_verb(token.low, model)
        if date is None or date in own_dates or (tables or not rated) and not _happens_to(date, tables, model):
            continue
        never = index > 0 and state.tokens[index - 1].low == "never"
        if never:
            state.consume(index - 1)
        negated = never or is_negated(state, index)
        consume_with_mentions(state, [index])
        flt = Filter(field=date, op="is_null" if negated else "not_null")
        state.positions.setdefault((flt.field, flt.op, ()), index)
        found.append(flt)
    return found


def _happens_to(date: str, tables: set[str], model: SemanticModel) -> bool:
    """Is `date` one of the named things' own columns, or of rows pointing at them ('accounts escalated': the
    accounts' tickets were)?"""
    return any(s.table in tables and s.join is None for s in model.dimension_by_name[date].sources) \
        or any(model.reaches_back(date, t) for t in tables)


def _date_of_event_noun(word: str, model: SemanticModel, tables: set[str]) -> str | None:
    """'escalation' -> the date labelled 'escalated at': the one date, of the named things when any are named,
    whose verb shares the noun's stem (Snowball's), and that is no table's own date."""
    if "NOUN" not in lemmas(word):
        return None
    root = stem(word)
    found = {dim.name for dim in model.dimensions if model.is_date(dim.name)
             and any(stem(w) == root and "VERB" in lemmas(w) for w in dim.label.lower().split())
             and not any(t.agg_time == dim.name for t in model.tables)
             and (not tables or _happens_to(dim.name, tables, model))}
    return found.pop() if len(found) == 1 else None


def _grain_of(state: State, start: int) -> bool:
    """'year of order date': a time grain and 'of' right before the date."""
    if start < 2 or state.tokens[start - 1].low != "of":
        return False
    grain = mention_at(state, start - 2)
    return grain is not None and grain.has("grain")


def year_of_verb(state: State, model: SemanticModel) -> str | None:
    """'released in 1995', 'comedies released before 1990': the year column a verb names ('release_year' of
    a table dated by a year alone), read off the question; the calendar's years are about that column
    whichever rows are measured (a rating's own date is not its movie's release)."""
    for index, token in enumerate(state.tokens):
        if index in state.used_tokens or mention_at(state, index) is not None or token.low in state.function_words:
            continue
        found = _year_of_verb(token.low, model)
        if found is not None:
            state.consume(index)
            return found
    return None


def _year_of_verb(word: str, model: SemanticModel) -> str | None:
    """'released' names the release year of a table dated by a year alone ('release_year')."""
    years = {spec.time["year"] for spec in model.table_by_name.values() if "year" in spec.time and not spec.agg_time}
    if not years or not word.endswith("ed") or len(word) < 5:
        return None
    stems = {word[:-2], word[:-1], word[:-3] if word[-3] == word[-4] else word[:-2]}
    for name in sorted(years):
        dim = model.dimension_by_name.get(name)
        texts = (dim.label, dim.name, *dim.synonyms) if dim is not None else (name,)
        if any("".join(ch for ch in text.lower() if ch.isalnum()) in {stem + "year" for stem in stems} for text in texts):
            return name
    return None


def _years_as_conditions(time: TimeFilter, year: str) -> list[Filter] | None:
    """A time filter of whole years only, as conditions on a year column; None when it says more."""
    said = time.model_dump(exclude_defaults=True, exclude={"year", "years", "from_year", "until_year"})
    if said:
        return None
    if time.year is not None:
        return [Filter(field=year, op="=", values=[time.year])]
    if time.years:
        return [Filter(field=year, op="in", values=list(time.years))]
    bounds = [Filter(field=year, op=">=", values=[time.from_year])] if time.from_year is not None else []
    return bounds + ([Filter(field=year, op="<=", values=[time.until_year])] if time.until_year is not None else [])


def _dimension_of_verb(word: str, model: SemanticModel) -> str | None:
    """'shipped' -> the time dimension labelled 'ship date' (or shipdate, shipped_at), if one."""
    if not word.endswith("ed") or len(word) < 5:
        return None
    stems = {word[:-2], word[:-1], word[:-3] if word[-3] == word[-4] else word[:-2], word}
    names = {}
    for dim in model.dimensions:
        if not model.is_date(dim.name):
            continue
        for text in (dim.label, dim.name, *dim.synonyms):
            squashed = "".join(ch for ch in text.lower() if ch.isalnum())
            for prefix in ("", *_prefixes(dim.name)):
                squashed_here = squashed.removeprefix(prefix)
                if any(squashed_here in {stem + suffix for suffix in _DATE_SUFFIXES} | {stem} for stem in stems):
                    names[dim.name] = dim.name
    if len(names) > 1:  # 'aired': of a UK and a US air date, the one a table is dated by
        names = {name: name for name in names if any(t.agg_time == name for t in model.tables)}
    return next(iter(names)) if len(names) == 1 else None


def _end_date_of_verb(word: str, model: SemanticModel) -> str | None:
    """'lapsed', 'cancelled': a verb of coming to an end, with no date of its own name, is about the date the
    rows end ('end date', 'ended at'), when there is one."""
    endings = set(model.coverage.get("ending_verbs") or [])
    if word not in endings and not (set(lemmas(word).get("VERB", ())) & endings):
        return None
    return _dimension_of_verb("ended", model)


def _prefixes(name: str) -> list[str]:
    head = name.split("_")[0]
    return [head] if len(head) <= 3 and "_" in name else []


def _contains(words: tuple[str, ...], part: tuple[str, ...]) -> bool:
    return any(words[i:i + len(part)] == part for i in range(len(words) - len(part) + 1))


def dating_pass(draft: Draft) -> Draft:
    state, time = draft.state, draft.time
    grains = any(m.has("grain") for m in state.mentions)
    asides_said = [tuple(t.low for t in tokenize(inner)) for _, _, inner in asides(draft.question)]
    counted = _events_counted(state, draft.model)
    if counted is not None:  # 'how many check-ins each month': the rows of the check-in date, dated by it
        draft.dated_by, count = counted
        draft.metric_choices.append([count])
    else:
        draft.dated_by = read_dating(state, draft.model, dated=(time is not None and not time.is_empty()) or grains,
                                     grouped_by_grain=grains, asides=asides_said)
    dated = (time is not None and not time.is_empty()) or grains
    if not dated and counted is None:
        _how_the_rows_came(state, draft.model)
        draft.filters += _events_that_happened(state, draft.model)
    year = draft.year_column = year_of_verb(state, draft.model) if draft.dated_by is None and dated else None
    conditions = _years_as_conditions(time, year) if year is not None and time is not None else None
    if conditions:
        draft.filters += conditions
        draft.time = None
    return draft
