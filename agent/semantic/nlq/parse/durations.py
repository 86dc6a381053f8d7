"""Before the passes: how long something took, said the ways people say it, as a measure of the time
between two dates (or times) of one row, or of two rows one of which points at the other.

- 'avg days from order to ship', 'hours between opened and resolved': each end named by an event
  word of a date column ('ship' for `shipped_at`, 'payment' for `paid_on`), or the start by a thing's
  name alone when its rows have one date of their making ('from invoice': its issue date);
- 'days between a delivery and its payment', when no one table holds both dates: the start on one table,
  the end on a table linked to it directly. The measure is on the start's rows, one duration per start: an
  analyst asking how long deliveries wait for payment means each delivery once, to its first payment (a
  later reversal or a second instalment is not another wait), and a delivery not paid yet has no duration.
  When the start's row points at the end's (boxes and their shipment), that end is the one row's date.
  Two tables that only point at a third (boxes and claims of one shipment) pair no row with another: asked;
- 'first response time', 'time to close a ticket', 'how long does it take to close a case', 'how many
  days does it take to close a dispute': from the row's start (its opening, creation, start…) to the date
  the event names;
- 'outage length', 'length of stay', 'how long do subscriptions last': from the start to the end of
  the row's own span (start/end, opened/closed, check in/check out: the vocabulary's `durations.spans`).

The unit is the one said ('in hours', 'days from'), else days between dates and hours between times.
A word no date column answers to leaves the phrase as it was, for the passes to place or ask about.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from functools import cache

from sqlglot import exp
import sqlglot

from agent.semantic.compile.definitions import Definition
from agent.semantic.compile.first_end import FIRST_END, FirstEnd
from agent.semantic.compile.related import link_of
from agent.semantic.model.runtime import SemanticModel
from agent.text.vocabulary import english
from agent.text.words import lemmas, noun_forms, split_name

_AGG = r"(?:(?P<agg>average|avg|mean|typical|median|total|max|maximum|longest|min|minimum|shortest)\s+)?"
_AGGS = {"median": "median", "total": "sum", "max": "max", "maximum": "max", "longest": "max", "min": "min", "minimum": "min",
         "shortest": "min"}
_WORD = r"[a-z][a-z\-']*"
_END = r"(?=\s*(?:[,?.;:)(]|$|\s(?:by|per|for|in|of|when|where|across|on|at|during|this|last|each|split|broken)\b))"


@dataclass(frozen=True)
class TimeColumn:
    table: str
    expr: str
    label: str
    words: frozenset[str]  # what the column's name says happened ('shipped', 'ship'), without 'at', 'date'…
    said: frozenset[str]  # the words of its label alone ('closed' for `clsd_ts`)
    timed: bool  # holds a time of day


@dataclass(frozen=True)
class Said:
    start: int
    end: int
    agg: str | None
    unit: str | None
    first: list[str]  # the words naming where the time starts ([] when the row's own start is meant)
    last: list[str]  # the words naming where it ends ([] when the row's own end is meant)
    thing: list[str]  # the words naming whose rows these are, when said


def read_durations(text: str, model: SemanticModel) -> tuple[str, list[Definition]]:
    """The text with each duration said replaced by its measure's words, and the measures."""
    if model.project is None:
        return text, []
    columns = time_columns(model)
    if not columns:
        return text, []
    found: list[Definition] = []
    said_unit = _said_unit(text)
    for said in reversed(_phrases(text)):
        pair = _pair(said, columns, model, text)
        if pair is None:
            continue
        start, end = pair
        if _dated_otherwise(start, end, model) and _names_a_period(text):
            continue  # 'transit days in 2024' on rows dated by their booking: which date says 2024 is not said
        unit = _units().get(said.unit or "") or (said_unit[0] if said_unit else None) or \
            ("hours" if start.timed or end.timed else "days")
        agg = _AGGS.get(said.agg or "", "average")
        name = f"{start.table}__{unit}_{_slug(start.expr)}_to_{_slug(end.expr)}"
        words = {"sum": "total", "average": "average", "median": "median", "max": "longest", "min": "shortest"}[agg]
        label = f"{words} {unit} from {start.label} to {end.label}"
        # the end's date as the start's rows read it: their own column, or another table's (_across found one way)
        reached = _reach(start, end, model) if end.table != start.table else None
        read, first_end = reached or (end.expr, None)
        found.append(Definition(name=name if agg == "average" else f"{name}_{agg}", label=label, table=start.table,
                                kind="measure", expr=duration_sql(start, replace(end, expr=read), unit,
                                                                  model.project.dialect),
                                agg=agg, first_end=first_end))
        text = f"{text[:said.start]} \x00{len(found) - 1}\x00 {text[said.end:]}"
    if found and said_unit:
        text = text.replace(said_unit[1], " ", 1)
    if any(d.agg == "average" for d in found):  # 'how long do subscriptions last on average': said already
        text = re.sub(r"\b(?:on\s+)?(?:average|avg)\b", " ", text, flags=re.IGNORECASE)
    for n, definition in enumerate(found):
        text = text.replace(f"\x00{n}\x00", definition.label)
    return text, found


def duration_sql(start: TimeColumn, end: TimeColumn, unit: str, dialect: str) -> str:
    """Whole days between the two dates (the calendar's, whatever the times), or the exact hours, minutes
    or weeks between them, in the dialect's own spelling."""
    first, last = (sqlglot.parse_one(c.expr, read=dialect) for c in (start, end))
    if unit in ("days", "weeks"):
        if start.timed or end.timed:
            first, last = exp.cast(first, "DATE"), exp.cast(last, "DATE")
        days: exp.Expr = exp.DateDiff(this=last, expression=first, unit=exp.Var(this="DAY"))
        return days.sql(dialect=dialect) if unit == "days" else \
            exp.Div(this=days, expression=exp.Literal.number("7.0")).sql(dialect=dialect)
    seconds: exp.Expr = exp.TimestampDiff(this=last, expression=first, unit=exp.Var(this="SECOND")) \
        if dialect == "mysql" else exp.DateDiff(this=last, expression=first, unit=exp.Var(this="SECOND"))
    per = {"hours": "3600.0", "minutes": "60.0"}[unit]
    return exp.Div(this=exp.paren(seconds, copy=False), expression=exp.Literal.number(per)).sql(dialect=dialect)


@cache
def _vocabulary() -> tuple[frozenset[str], tuple[tuple[frozenset[str], frozenset[str]], ...], dict[str, str],
                            tuple[frozenset[str], ...], frozenset[str], frozenset[str]]:
    said = english().get("durations") or {}
    alike = tuple(frozenset(str(w) for w in group) for group in said.get("same_event") or [])
    suffixes = frozenset(str(w) for w in said.get("column_suffixes") or [])
    spans = tuple((frozenset(split_name(str(a)).split()), frozenset(split_name(str(b)).split()))
                  for a, b in said.get("spans") or [])
    units = {str(k): str(v) for k, v in (said.get("units") or {}).items()}
    beginnings = frozenset(str(w) for w in said.get("beginnings") or [])
    makings = frozenset(str(w) for w in said.get("makings") or [])
    return suffixes, spans, units, alike, beginnings, makings


_UNITS: dict[str, str] = {}


def _units() -> dict[str, str]:
    if not _UNITS:
        _UNITS.update(_vocabulary()[2])
    return _UNITS


def time_columns(model: SemanticModel) -> list[TimeColumn]:
    """The dates and times of each table's own rows, with the event words their names say."""
    suffixes = _vocabulary()[0]
    found = []
    for dim in model.dimensions:
        if dim.kind != "time":
            continue
        for source in dim.sources:
            if source.join is not None or not re.fullmatch(r'"?[A-Za-z_]\w*"?', source.expr):
                continue
            said = {w for text in (dim.name, dim.label, source.expr) for w in model.name_words[text].split()} - suffixes
            forms = set(said)
            for word in said:
                forms.update(lemma for found_lemmas in lemmas(word).values() for lemma in found_lemmas)
            if said:
                label = frozenset(model.name_words[dim.label].split()) - suffixes
                found.append(TimeColumn(source.table, source.expr, dim.label, frozenset(forms), label,
                                        model.has_times_of_day(source.table, dim.name)))
    return found


def _said_unit(text: str) -> tuple[str, str] | None:
    units = _units()
    match = re.search(rf"\b(?:in|as)\s+({'|'.join(map(re.escape, sorted(units, key=len, reverse=True)))})\b",
                      text, re.IGNORECASE)
    return (units[match.group(1).lower()], match.group(0)) if match else None


def _phrases(text: str) -> list[Said]:
    units = "|".join(map(re.escape, sorted(_units(), key=len, reverse=True)))
    low = text.lower()
    found: list[Said] = []
    between = re.compile(rf"{_AGG}(?:number\s+of\s+)?(?P<unit>{units}|time)\s+(?:it\s+takes?\s+)?(?:from|between)\s+"
                         rf"(?P<a>{_WORD}(?:\s+{_WORD})?)\s+(?:to|and|until|till)\s+(?P<b>{_WORD}(?:\s+{_WORD})?){_END}")
    for m in between.finditer(low):
        found.append(Said(m.start(), m.end(), m.group("agg"), m.group("unit"), m.group("a").split(),
                          m.group("b").split(), []))
    aside = re.compile(rf"{_AGG}(?:{_WORD}\s+)?(?P<unit>{units}|time)\s*\(\s*(?:from\s+)?(?P<a>{_WORD}(?:\s+{_WORD})?)"
                       rf"\s+(?:to|until|till|-)\s+(?P<b>{_WORD}(?:\s+{_WORD})?)\s*\)")
    for m in aside.finditer(low):  # 'avg transit days (pickup to delivery)'
        found.append(Said(m.start(), m.end(), m.group("agg"), m.group("unit"), m.group("a").split(),
                          m.group("b").split(), []))
    event_time = re.compile(rf"{_AGG}(?P<b>(?:{_WORD}\s+)?{_WORD})\s+(?:time|times){_END}")
    for m in event_time.finditer(low):
        found.append(Said(m.start(), m.end(), m.group("agg"), None, [], m.group("b").split(), []))
    time_to = re.compile(rf"(?:{_AGG}time\s+(?:it\s+takes?\s+(?:us\s+|them\s+)?)?to|how\s+(?:long|many\s+(?P<unit>{units}))"
                         rf"\s+(?:on\s+(?:average|avg)\s+)?(?:does|do|did)\s+it\s+take\s+(?:us\s+|them\s+|you\s+)?to)"
                         rf"\s+(?P<b>{_WORD})(?:\s+(?:a|an|the|our)?\s*(?P<t>{_WORD}))?")
    for m in time_to.finditer(low):  # 'how many days on average does it take to close a dispute' too
        found.append(Said(m.start(), m.end(), m.group("agg"), m.group("unit"), [], [m.group("b")],
                          [m.group("t")] if m.group("t") else []))
    span = re.compile(rf"{_AGG}(?:(?P<t>{_WORD})\s+)?(?:length|duration)(?:\s+of\s+(?:a\s+|the\s+)?(?P<u>{_WORD}))?")
    for m in span.finditer(low):
        thing = [w for w in (m.group("t"), m.group("u")) if w]
        found.append(Said(m.start(), m.end(), m.group("agg"), None, [], [], thing))
    lasting = re.compile(rf"how\s+long\s+(?:does|do|did)\s+(?:a\s+|an\s+|the\s+|our\s+)?(?P<t>(?:{_WORD}\s+)?{_WORD})"
                         rf"\s+(?:last|run|stay)\b")
    for m in lasting.finditer(low):
        found.append(Said(m.start(), m.end(), None, None, [], [], m.group("t").split()))
    found.sort(key=lambda s: (s.start, -s.end))
    kept: list[Said] = []
    for said in found:  # the first and longest of phrases that overlap
        if not kept or said.start >= kept[-1].end:
            kept.append(said)
    return kept


def _pair(said: Said, columns: list[TimeColumn], model: SemanticModel,
          text: str) -> tuple[TimeColumn, TimeColumn] | None:
    """The start and end columns the phrase names: of one table, else of two linked ones (`_across`); None
    unless exactly one pair fits."""
    for alike in (False, True):  # a word another column says too ('resolution' for closed) only when none says it
        found = _pairs(said, columns, model, text, alike)
        if found is not None:
            return found
    return None


def _pairs(said: Said, columns: list[TimeColumn], model: SemanticModel, text: str,
           alike: bool) -> tuple[TimeColumn, TimeColumn] | None:
    named = _tables_named(said.thing or re.findall(r"[a-z]+", text.lower()), model)
    options = []
    paired = False  # some table holds a pair, if not one only: which is meant is for the passes to ask
    for table in sorted({c.table for c in columns}):
        own = [c for c in columns if c.table == table]
        first, last = ([w for w in words if table not in _tables_named([w], model)] for words in (said.first, said.last))
        spans = _spans(own)
        ends = _named(last, own, alike) if last else [e for _, e in spans]
        if said.first:
            starts = _named(first, own, alike)
        elif said.last:  # 'time to close': from the row's start, said by its span or by a word of beginning
            starts = [s for s, _ in spans] or [c for c in own if c.words & _vocabulary()[4]]
        else:
            starts = [s for s, _ in spans]
        pairs = [(s, e) for s in starts for e in ends if s != e]
        if not said.first and not said.last:
            pairs = [p for p in pairs if p in spans]
        paired = paired or bool(pairs)
        if said.first and not first and len(pairs) > 1:  # 'from invoice': the thing's name, its making if one
            pairs = [p for p in pairs if p[0].words & _vocabulary()[5]]
        if len(pairs) == 1:
            options.append(pairs[0])
    if said.thing and not any(o[0].table in named for o in options):
        return None  # 'length of stay' names a thing none of whose rows keep a span
    if len(options) > 1:
        options = [o for o in options if o[0].table in named]
    if not paired and said.first and said.last:
        return _across(said, columns, model, alike)
    return options[0] if len(options) == 1 else None


def _across(said: Said, columns: list[TimeColumn], model: SemanticModel,
            alike: bool) -> tuple[TimeColumn, TimeColumn] | None:
    """Both ends named, on two tables one of which points at the other ('days between a delivery and its
    payment': the payment's row holds the delivery's key); None unless exactly one such pair fits. A start
    is named by its event word or, a thing's name alone, by the one date its table's rows were made on."""
    starts, ends = [], []
    for table in sorted({c.table for c in columns}):
        own = [c for c in columns if c.table == table]
        ends += _named(said.last, own, alike)
        events = _named(said.first, own, alike)
        made = [c for c in own if c.words & _vocabulary()[5]]
        if events:  # 'from delivery': its delivery date, on a table of deliveries too
            starts += events
        elif any(table in _tables_named([w], model) for w in said.first) and len(made) == 1:
            starts += made  # 'from invoice': the invoice's one date of making
    pairs = [(s, e) for s in starts for e in ends if s.table != e.table and _reach(s, e, model) is not None]
    return pairs[0] if len(pairs) == 1 else None


def _reach(start: TimeColumn, end: TimeColumn, model: SemanticModel) -> tuple[str, FirstEnd | None] | None:
    """The end as the start's rows read it: through the one join when they point at its row ('path'.date),
    else the first of the dates of the rows pointing at them (a column under FIRST_END, with its FirstEnd);
    None when neither table's rows point at the other's."""
    dialect = model.project.dialect if model.project is not None else "duckdb"
    name = sqlglot.parse_one(end.expr, read=dialect)
    assert isinstance(name, exp.Column)  # time_columns keeps plain column names only
    path = model.join_path(start.table, end.table)
    if path is not None and len(path) == 1:
        through = exp.to_identifier(path[0].name[len(start.table) + 2:], quoted=True)
        return exp.column(name.this, table=through).sql(dialect=dialect), None
    if link_of(model, start.table, end.table) == (None,):
        first = exp.column(name.this, table=exp.to_identifier(FIRST_END, quoted=True)).sql(dialect=dialect)
        return first, FirstEnd(table=end.table, column=end.expr)
    return None


def _named(words: list[str], own: list[TimeColumn], alike: bool) -> list[TimeColumn]:
    """The columns an event word names ('ship' -> shipped at). A thing's name ('from invoice') names none
    by itself: which of an invoice's dates is meant (issued, billed, due) is for its callers to narrow, to
    the one date of its making, or to ask."""
    words = [w for w in words if w not in ("the", "a", "an", "first", "its", "their")] or words
    if not alike:
        return [c for c in own if all(_answers(w, c.words) for w in words)]
    if len(words) != 1:
        return []
    group = next((group for group in _vocabulary()[3] if _answers(words[0], group)), frozenset())
    return [c for c in own if any(_answers(w, c.words) for w in group)]


def _answers(word: str, forms: frozenset[str]) -> bool:
    """Does a column's name say the event `word` does: the same word or dictionary form ('closed', 'close'),
    or one of its forms the word begins with ('pay' in 'payment', 'deliver' in 'delivery')?"""
    mine = {word, *(lemma for found in lemmas(word).values() for lemma in found)}
    if mine & forms:
        return True
    return any(len(f) >= 3 and word.startswith(f) and len(word) - len(f) <= 5 for f in forms) or \
        any(len(word) >= 5 and f.startswith(word[:5]) for f in forms if len(f) >= 5)


def _spans(own: list[TimeColumn]) -> list[tuple[TimeColumn, TimeColumn]]:
    """A row's own span: a column saying it began and one saying it ended, otherwise named alike
    ('period start dt', 'period end dt')."""
    found = []
    for first_words, last_words in _vocabulary()[1]:
        for start in own:
            if not first_words <= start.words:
                continue
            for end in own:
                if end is not start and last_words <= end.words and \
                        _rest(start, first_words | last_words) == _rest(end, first_words | last_words):
                    found.append((start, end))
    return found


def _rest(column: TimeColumn, pair: frozenset[str]) -> set[str]:
    """The label's words other than those of the span ('period' of 'period start dt')."""
    return {w for w in column.said if not ({w, *(x for f in lemmas(w).values() for x in f)} & pair)}


def _dated_otherwise(start: TimeColumn, end: TimeColumn, model: SemanticModel) -> bool:
    """Are the rows dated by another date than either end of the duration?"""
    dated = model.dated_by(start.table)
    return dated is None or dated.join is not None or dated.expr not in (start.expr, end.expr)


def _names_a_period(text: str) -> bool:
    """A year, a month's name or 'this/last <period>' in the question."""
    relative = english().get("relative_dates") or {}
    cues = "|".join(map(re.escape, relative.get("cues") or []))
    grains = "|".join(re.escape(str(w)) for forms in (relative.get("grains") or {}).values() for w in forms)
    months = "|".join(m.lower() for m in (*calendar.month_name[1:], *calendar.month_abbr[1:]))
    return re.search(rf"\b(?:(?:19|20)\d\d|q[1-4]|{months}|(?:{cues})\s+(?:{grains}))\b", text.lower()) is not None


def _tables_named(words: list[str], model: SemanticModel) -> set[str]:
    forms = {f for w in words for f in noun_forms(w)}
    return {t.name for t in model.tables if split_name(t.name).split()[-1:] and split_name(t.name).split()[-1] in forms}


def _slug(expr: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", expr.lower()).strip("_")
