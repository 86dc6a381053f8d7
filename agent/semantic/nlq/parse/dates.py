"""Pass (part of the calendar pass): dates and runs of days, periods counted back from the data's
latest date, and holidays that move.

- ISO dates: 'on 2013-03-01', 'between 2013-03-01 and 2013-03-15' -> absolute start and end;
- runs of days across months: 'from December 20 to January 5', 'nov 24 - dec 2' -> calendar days
  in any year (with a year after each end, absolute dates);
- 'last month', 'the past 3 weeks', 'this year' -> a RelativePeriod, turned into dates by
  `resolve_relative` once the measured table, and so its latest date, is known: never today's clock;
- moving holidays ('thanksgiving'): their dates are only taken from dates said beside them.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta

from agent.semantic.compile.intent import MonthDay, RelativePeriod, StructuredIntent, TimeFilter, base_table
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.state import RANGE_WORDS, State, consume_with_mentions, phrased
from agent.text.phrases import Token
from agent.semantic.model.values import ValueIndex


@dataclass
class Dates:
    from_day: MonthDay | None = None
    to_day: MonthDay | None = None
    start: date | None = None
    end: date | None = None
    relative: RelativePeriod | None = None


def read_dates(state: State, model: SemanticModel) -> Dates:
    found = Dates()
    _iso(state, found)
    _day_run(state, found)
    _relative(state, model, found)
    return found


# -- ISO dates ------------------------------------------------------------------------------------------------

def _iso_at(tokens: list[Token], i: int) -> date | None:
    """'2013-03-01' is five tokens: 2013, -, 3, -, 1."""
    if i + 4 >= len(tokens) or tokens[i + 1].low != "-" or tokens[i + 3].low != "-":
        return None
    numbers = [tokens[i].number, tokens[i + 2].number, tokens[i + 4].number]
    if any(n is None or not float(n).is_integer() for n in numbers) or len(tokens[i].text) != 4:
        return None
    try:
        return date(int(numbers[0]), int(numbers[1]), int(numbers[2]))  # type: ignore[arg-type]
    except ValueError:
        return None


def _iso(state: State, found: Dates) -> None:
    tokens = state.tokens
    dates = [(i, d) for i in range(len(tokens)) if (d := _iso_at(tokens, i)) is not None]
    if not dates:
        return
    first_at, first = dates[0]
    last = first
    span = list(range(first_at, first_at + 5))
    if len(dates) > 1:
        link = dates[1][0] - 1
        if link == first_at + 5 and (tokens[link].low in RANGE_WORDS | {"and", "-"}):
            last = dates[1][1]
            span += [link, *range(dates[1][0], dates[1][0] + 5)]
    start, end = sorted((first, last))
    found.start, found.end = start, end
    cue = first_at - 1
    if cue >= 0 and tokens[cue].low in {"between", "from", "on", "since"}:
        span.append(cue)
    consume_with_mentions(state, span)


# -- runs of days across months ----------------------------------------------------------------------------------

def _day_run(state: State, found: Dates) -> None:
    """'from December 20 to January 5': month day LINK month day, each end maybe with a year."""
    tokens = state.tokens
    months = sorted((m for m in state.mentions if m.has("month") and not m.used), key=lambda m: m.start)
    for first, second in zip(months, months[1:]):
        day_at = first.end
        if not (_is_day(tokens, day_at)):
            continue
        year_at = day_at + 1 if _is_year(tokens, day_at + 1) else None
        link = (year_at or day_at) + 1
        if link >= len(tokens) or second.start != link + 1:
            continue
        between = first.start > 0 and tokens[first.start - 1].low in {"between", "from"}
        if not (tokens[link].low in RANGE_WORDS | {"-"} or (tokens[link].low == "and" and between)):
            continue
        if not _is_day(tokens, second.end):
            continue
        end_year_at = second.end + 1 if _is_year(tokens, second.end + 1) else None
        a = MonthDay(month=first.of("month")[0].month, day=int(tokens[day_at].number or 0))
        b = MonthDay(month=second.of("month")[0].month, day=int(tokens[second.end].number or 0))
        span = [day_at, link, second.end, *(i for i in (year_at, end_year_at) if i is not None)]
        if between:
            span.append(first.start - 1)
        if end_year_at is not None:
            end_year = int(tokens[end_year_at].number or 0)
            start_year = int(tokens[year_at].number or 0) if year_at is not None else (
                end_year - 1 if (a.month, a.day) > (b.month, b.day) else end_year)
            try:
                found.start, found.end = date(start_year, a.month, a.day), date(end_year, b.month, b.day)
            except ValueError:
                continue
        else:
            found.from_day, found.to_day = a, b
        first.used = second.used = True
        consume_with_mentions(state, span)
        return


def _is_day(tokens: list[Token], i: int) -> bool:
    n = tokens[i].number if i < len(tokens) else None
    return n is not None and float(n).is_integer() and 1 <= n <= 31


def _is_year(tokens: list[Token], i: int) -> bool:
    n = tokens[i].number if i < len(tokens) else None
    return n is not None and float(n).is_integer() and 1900 <= n <= 2100


# -- periods counted back from the latest date --------------------------------------------------------------------

def _ends_a_comparison_phrase(low: list[str], end: int, model: SemanticModel) -> bool:
    """Whether the words up to `end` finish a phrase comparing with an earlier period ('the same month last year'),
    vocabulary.yaml `shapes.previous_year` / `previous_period`."""
    for kind in ("previous_year", "previous_period"):
        for said in (model.phrases[text] for text in model.shapes.get(kind, [])):  # made once per model
            if len(said) > 2 and end >= len(said) and tuple(low[end - len(said):end]) == said:
                return True
    return False


def _relative(state: State, model: SemanticModel, found: Dates) -> None:
    tokens = state.tokens
    low = [t.low for t in tokens]
    cues = sorted(phrased(model.relative_cues), key=len, reverse=True)
    grains = {word: grain for grain, words in model.relative_grains.items() for word in words}
    for i in range(len(tokens)):
        cue = next((c for c in cues if tuple(low[i:i + len(c)]) == c), None)
        if cue is None:
            continue
        j = i + len(cue)
        count = 1
        if j < len(tokens) and (number := tokens[j].number) is not None and float(number).is_integer():
            count = int(number)
            j += 1
        if j >= len(tokens) or low[j] not in grains:
            continue
        if j + 1 < len(tokens) and low[j + 1] == "of":
            continue  # 'the last week of January': a week of that month, read by the calendar pass
        if _ends_a_comparison_phrase(low, j + 1, model):
            continue  # 'vs the same month last year': the period compared with, read by the shapes pass
        plural_grain = low[j].endswith("s")
        if count > 1 and not plural_grain:
            continue
        said = " ".join(t.text for t in tokens[i:j + 1])
        found.relative = RelativePeriod(words=said, grain=grains[low[j]], count=max(1, count))
        span = list(range(i, j + 1))
        if i > 0 and low[i - 1] in {"the", "in", "during", "for", "over"}:
            span.append(i - 1)
        so_far = [model.phrases[w] for w in model.relative_so_far]
        span += next((list(range(j + 1, j + 1 + len(p))) for p in so_far if tuple(low[j + 1:j + 1 + len(p)]) == p), [])
        span += next((list(range(i - len(p), i)) for p in so_far if i >= len(p) and tuple(low[i - len(p):i]) == p), [])
        consume_with_mentions(state, span)
        return


_WHOLE_PERIODS = {"month": 1, "quarter": 3, "year": 12}  # months in each
# Data that stops a few days short of a period's end (read on the 28th, loaded a day or two behind) has
# still seen that period through: 'last year' in data ending on 29 December is that year.
_LOAD_LAG_DAYS = 3


def _period_end(day: date, months: int) -> date:
    last_month = (day.month - 1) // months * months + months
    return date(day.year, last_month, calendar.monthrange(day.year, last_month)[1])


def resolve_relative(time: TimeFilter, latest: date) -> TimeFilter:
    """The relative period as dates ending with the period that holds `latest` (the data's latest date)."""
    period = time.relative
    assert period is not None
    n = period.count
    if period.whole and (_period_end(latest, _WHOLE_PERIODS[period.grain]) - latest).days > _LOAD_LAG_DAYS:
        # 'last year' when the data ends on 30 June 2025: 2024, the latest whole year, not half of 2025
        first = date(latest.year, (latest.month - 1) // _WHOLE_PERIODS[period.grain] * _WHOLE_PERIODS[period.grain] + 1, 1)
        latest = first - timedelta(days=1)
    if period.grain == "day":
        start, end = latest - timedelta(days=n - 1), latest
    elif period.grain == "week":
        monday = latest - timedelta(days=latest.weekday())
        start, end = monday - timedelta(weeks=n - 1), monday + timedelta(days=6)
    else:
        months = {"month": 1, "quarter": 3, "year": 12}[period.grain]
        first_month = (latest.month - 1) // months * months + 1 if months > 1 else latest.month
        index = latest.year * 12 + first_month - 1 - months * (n - 1)
        start = date(index // 12, index % 12 + 1, 1)
        end_index = latest.year * 12 + first_month - 1 + months - 1
        end_year, end_month = end_index // 12, end_index % 12 + 1
        end = date(end_year, end_month, calendar.monthrange(end_year, end_month)[1])
    return time.model_copy(update={"start": start, "end": end})


def the_present(values: ValueIndex, table: str, dated_by: str | None) -> date | None:
    """The day a relative period counts back from: the latest date of the date it is about, unless that runs
    past the rows' own latest date (a policy's end date a year ahead is planned, not past: 'this year' is
    the data's year)."""
    latest = values.latest_date(table, dated_by)
    own = values.latest_date(table) if dated_by else None
    return own if latest is not None and own is not None and own < latest else latest


def with_latest_dates(intent: StructuredIntent, model: SemanticModel,
                      values: ValueIndex) -> tuple[StructuredIntent, str | None]:
    """An intent whose relative period ('last month', from an LLM or a follow-up) has no dates yet,
    given them from the measured table's latest date; or a sentence saying why it cannot be."""
    time = intent.time
    if time is None or time.relative is None or time.start is not None:
        return intent, None
    table = base_table(intent, model)
    latest = the_present(values, table, intent.time_dimension) if table else None
    if latest is None:
        return intent, (f"I could not read the latest date in the data, so “{time.relative.words}” has no "
                        "dates to count back from.")
    return intent.model_copy(update={"time": resolve_relative(time, latest)}), None


# -- moving holidays ---------------------------------------------------------------------------------------------

def moving_holiday(state: State, model: SemanticModel, has_dates: bool) -> str | None:
    """A holiday whose date moves: with dates said beside it, those dates are what it means (its
    words, and 'week' or 'weekend' after it, are understood); alone, a sentence asking for dates."""
    low = [t.low for t in state.tokens]
    for name in sorted(phrased(model.moving_holidays), key=len, reverse=True):
        for i in range(len(low) - len(name) + 1):
            if tuple(low[i:i + len(name)]) != name:
                continue
            said = " ".join(t.text for t in state.tokens[i:i + len(name)])
            if not has_dates:
                return (f"{said.capitalize()} falls on a different date each year, so I will not guess its "
                        "dates: say which days you mean (for example 'nov 24-30').")
            span = list(range(i, i + len(name)))
            after = i + len(name)
            if after < len(low) and low[after] in {"week", "weekend", "day", "holiday", "holidays"}:
                span.append(after)
            consume_with_mentions(state, span)
    return None
