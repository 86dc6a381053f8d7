"""Pass: calendar words as a TimeFilter (months and month ranges, days and day ranges, holidays,
seasons, weekdays, quarters and halves, a year)."""

from __future__ import annotations

import re

from agent.semantic.compile.intent import TimeFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.dates import read_dates
from agent.semantic.nlq.parse.lexicon import ORDINALS
from agent.semantic.nlq.parse.state import (
    GROUP_CUES,
    RANGE_WORDS,
    WHICH,
    State,
    consume_with_mentions,
    cue_indexes,
)
from agent.text.phrases import MONTH_ABBREVIATIONS, MONTHS, Token, phrase
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.draft import Extraction
from agent.semantic.nlq.parse.dates import moving_holiday


def read_time(state: State, model: SemanticModel) -> TimeFilter | None:
    tokens = state.tokens
    months: list[int] = []
    days: list[int] = []
    year: int | None = None
    years: list[int] = []
    dates = read_dates(state, model)

    month_mentions = [m for m in state.mentions if m.has("month") and not m.used]
    i = 0
    while i < len(month_mentions):
        first = month_mentions[i]
        start_month = first.of("month")[0].month
        first.used = True
        nxt = month_mentions[i + 1] if i + 1 < len(month_mentions) else None
        if nxt is not None and nxt.start - first.end == 1:
            link = tokens[first.end].low
            between = state.cue_before(first.start, [("between",), ("from",)]) is not None
            if link in RANGE_WORDS or (link == "and" and between):
                end_month = nxt.of("month")[0].month
                months += _month_range(start_month, end_month)
                nxt.used = True
                state.consume(first.end, *cue_indexes(state, first.start, [("between",), ("from",)]))
                i += 2
                continue
        months.append(start_month)
        # "October 5", "5 October", "October 5th", "Nov 24-30", "Feb 8 and 9", "the 4th of July"
        if first.end < len(tokens) and (day := day_of(tokens[first.end])) is not None:
            days.append(day)
            state.consume(first.end)
            joint = first.end + 1
            if joint + 1 < len(tokens) and tokens[joint].low in RANGE_WORDS | {"-", "and"} \
                    and (last := day_of(tokens[joint + 1])) is not None:
                days += list(range(days[-1] + 1, last + 1)) if tokens[joint].low != "and" else [last]
                state.consume(joint, joint + 1)
        elif first.start > 1 and tokens[first.start - 1].low == "of" \
                and (day := day_of(tokens[first.start - 2])) is not None:
            days.append(day)
            state.consume(first.start - 2, first.start - 1)
        elif first.start > 0 and (day := day_of(tokens[first.start - 1])) is not None \
                and first.start - 1 not in state.used_tokens \
                and (first.start < 2 or tokens[first.start - 2].low in {"on", "the"}):
            days.append(day)
            state.consume(first.start - 1)
        i += 1

    for mention in state.mentions:
        for entry in mention.of("season"):
            months += entry.numbers
            mention.used = True
        for entry in mention.of("day"):  # 'Christmas day', 'New Year's Eve'
            month, day = entry.month_day
            months.append(month)
            days.append(day)
            mention.used = True
    # 'the first week of January': days 1-7 of that month
    for index in range(len(tokens) - 3):
        if tokens[index].low in ORDINALS and tokens[index + 1].low == "week" and tokens[index + 2].low == "of" \
                and any(m.start == index + 3 and m.has("month") for m in state.mentions) and not days:
            week = ORDINALS[tokens[index].low] if tokens[index].low != "last" else 4
            days += list(range(7 * week - 6, min(7 * week, 31) + 1)) if tokens[index].low != "last" else list(
                range(25, 32))
            consume_with_mentions(state, [index, index + 1, index + 2])
    weekdays: list[int] = []
    for mention in state.mentions:
        # "on weekdays" restricts; "by weekday", "which weekday" group (left to the dimension reading)
        grouped = state.cue_before(mention.start, GROUP_CUES + [(w,) for w in WHICH])
        if mention.has("weekday") and not mention.used and not (mention.has("dimension") and grouped):
            weekdays += mention.of("weekday")[0].numbers
            mention.used = True

    words = [t.low for t in tokens]
    from_year, until_year = _year_bounds(state, model)
    # a year right after a quarter or a half names its year: 'q1 2025', 'h2 2023'
    period_ends: set[int] = set()  # (a season and a year may be a term's code: 'fall 2024' is asked about)
    for idx, word in enumerate(words):
        quarter = None
        span: list[int] = []
        if re.fullmatch(r"q[1-4]", word):
            quarter, span = int(word[1]), [idx]
        elif word in ORDINALS and idx + 1 < len(words) and words[idx + 1] == "quarter":
            quarter, span = ORDINALS[word], [idx, idx + 1]
        elif word == "quarter" and idx + 1 < len(words) and (number := tokens[idx + 1].number) in (1, 2, 3, 4):
            quarter, span = int(number), [idx, idx + 1]
        if quarter is not None:
            months += list(range(3 * quarter - 2, 3 * quarter + 1))
            consume_with_mentions(state, span + _of_the_year(words, span[-1]))
            period_ends.add(span[-1] + 1)
            continue
        half = None
        if re.fullmatch(r"h[12]", word):
            half, span = int(word[1]), [idx]
        elif word in ORDINALS and idx + 1 < len(words) and words[idx + 1] == "half":
            half, span = min(ORDINALS[word], 2), [idx, idx + 1]
        if half is not None:
            months += list(range(6 * half - 5, 6 * half + 1))
            consume_with_mentions(state, span + _of_the_year(words, span[-1]))
            period_ends.add(span[-1] + 1)
            continue
        decade = _decade(word)
        if decade is not None and idx not in state.used_tokens and idx > 0 and words[idx - 1] == "the":
            years = list(range(decade, decade + 10))  # 'in the 80s', 'during the 1990s'
            state.consume(idx - 1, idx)
            continue
        number = tokens[idx].number
        if number is not None and 1900 <= number <= 2100 and float(number).is_integer() and idx not in state.used_tokens:
            after_month = idx > 0 and (any(m.end == idx and m.has("month") for m in state.mentions)
                                       or idx in period_ends)
            pair = _year_pair(tokens, idx)
            if pair is not None and not years and year is None and (idx == 0 or words[idx - 1] not in {"between"}):
                years, span = pair  # '2023 vs 2022', 'in 2022 and 2023': both years, side by side
                state.consume(*span)
                continue
            through = _year_range(tokens, idx)
            if through is not None and (idx == 0 or words[idx - 1] in {"in", "during", "for", "of", "from", "between",
                                                                        "years"} or after_month
                                        or tokens[idx + 1].low != "and"):
                years, span = through  # '1993 through 1997', 'between 1993 and 1997'
                state.consume(*span, *([idx - 1] if idx and words[idx - 1] in {"from", "between"} else []))
                continue
            if idx > 0 and (words[idx - 1] in {"in", "during", "for", "of", "year"} or after_month):
                year = int(number)
                state.consume(idx)
    if not (months or days or year or years or weekdays or dates.from_day or dates.start or dates.relative
            or from_year or until_year):
        return None
    return TimeFilter(year=year, years=years, months=months, days=days, weekdays=weekdays, from_day=dates.from_day,
                      to_day=dates.to_day, start=dates.start, end=dates.end, relative=dates.relative,
                      from_year=from_year, until_year=until_year)


# shape name -> which bound a year after its words sets, and by how much the year said moves it
_BOUNDS = {"years_from": ("from", 0), "years_after": ("from", 1), "years_until": ("until", 0),
           "years_before": ("until", -1)}


def _year_bounds(state: State, model: SemanticModel) -> tuple[int | None, int | None]:
    """'since 2010', 'after 2010', 'until 2015', 'before 2000': open-ended years (the vocabulary's
    `years_*` shapes), both bounds included once moved ('after 2010' is from 2011)."""
    found: dict[str, int] = {}
    for idx, token in enumerate(state.tokens):
        number = token.number
        if number is None or not float(number).is_integer() or not 1900 <= number <= 2100 or idx in state.used_tokens:
            continue
        if idx >= 2 and state.tokens[idx - 2].number is not None:
            continue  # '2010 to 2015' is a run of years, read below
        for shape, (side, shift) in _BOUNDS.items():
            cue = state.cue_before(idx, [phrase(text) for text in model.shapes.get(shape, [])], skip=())
            if cue is None or side in found or _numeric_before(state, model, idx - len(cue) - 1):
                continue
            found[side] = int(number) + shift
            consume_with_mentions(state, [*range(idx - len(cue), idx), idx])
            break
    return found.get("from"), found.get("until")


def _numeric_before(state: State, model: SemanticModel, index: int) -> bool:
    """'planes built before 2000': a number column said right before the comparison holds the year
    (the comparisons pass reads it), not the calendar."""
    mention = next((m for m in state.mentions if m.start <= index < m.end), None) if index >= 0 else None
    return mention is not None and any(model.dimension_by_name[e.name].kind == "numeric"
                                       for e in mention.of("dimension"))


def _decade(word: str) -> int | None:
    """The first year of a decade said as '80s', "'80s" or '1980s' (two digits from 30 on are the 1900s)."""
    found = re.fullmatch(r"'?(\d{2}|\d{4})s", word)
    if found is None:
        return None
    digits = int(found.group(1))
    if len(found.group(1)) == 4:
        return digits if digits % 10 == 0 and 1900 <= digits <= 2090 else None
    if digits % 10:
        return None
    return 1900 + digits if digits >= 30 else 2000 + digits


_PAIR_WORDS = {"vs", "versus", "v", "against", "and", "or"}


def _year_pair(tokens: list[Token], idx: int) -> tuple[list[int], list[int]] | None:
    """'2023 vs 2022', '2022 and 2023', '2023 compared to 2022': two years set side by side, and the tokens said."""
    first = tokens[idx].number
    link = [idx + 1]
    if idx + 2 < len(tokens) and tokens[idx + 1].low in ("compared", "comparing") and tokens[idx + 2].low in ("to", "with"):
        link = [idx + 1, idx + 2]
    elif idx + 1 >= len(tokens) or tokens[idx + 1].low not in _PAIR_WORDS:
        return None
    at = link[-1] + 1
    second = tokens[at].number if at < len(tokens) else None
    if first is None or second is None or not float(second).is_integer() or not 1900 <= second <= 2100 \
            or second == first:
        return None
    return sorted({int(first), int(second)}), [idx, *link, at]


_SET_APART = {"vs", "versus", "v", "against"}


def _months_set_apart(state: State) -> list[int]:
    """The tokens setting two months against each other ('jan vs jul', 'march compared to june'), else []."""
    months = [i for i, t in enumerate(state.tokens) if t.low in MONTHS or t.low in MONTH_ABBREVIATIONS]
    if len(months) != 2:
        return []
    between = list(range(months[0] + 1, months[1]))
    words = [state.tokens[i].low for i in between]
    if words and (words[0] in _SET_APART and len(words) == 1 or words in (["compared", "to"], ["compared", "with"])):
        return between
    return []


def _year_range(tokens: list[Token], idx: int) -> tuple[list[int], list[int]] | None:
    """'1993 through 1997', '1993-1997', '1993 and 1997' after 'between': the years, and the tokens said."""
    link = idx + 1
    if link + 1 >= len(tokens) or tokens[link].low not in RANGE_WORDS | {"-", "and"}:
        return None
    last = tokens[link + 1].number
    first = tokens[idx].number
    if last is None or first is None or not float(last).is_integer() or not 1990 <= last <= 2100 \
            or last <= first:
        return None
    if tokens[link].low == "and" and (idx == 0 or tokens[idx - 1].low != "between"):
        return None  # '1995 and 1997' is two years, not the years between
    return list(range(int(first), int(last) + 1)), [idx, link, link + 1]


def day_of(token: Token) -> int | None:
    """The day of the month a token says, if it says one."""
    number = token.number
    return int(number) if number is not None and float(number).is_integer() and 1 <= number <= 31 else None


def _month_range(start: int, end: int) -> list[int]:
    if start <= end:
        return list(range(start, end + 1))
    return list(range(start, 13)) + list(range(1, end + 1))  # "November through February"


def _of_the_year(words: list[str], last: int) -> list[int]:
    tail = ("of", "the", "year")
    if tuple(words[last + 1:last + 4]) == tail:
        return [last + 1, last + 2, last + 3]
    return []


_WEEK_STARTS = {"starting", "beginning", "start", "starts", "begin", "begins"}
_DAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def _weeks_from_monday(state: State) -> None:
    """'weeks starting monday', 'mon-sun weeks': how a week is counted, not a day to keep. The calendar's weeks
    run Monday to Sunday (ISO), so saying so is read and restricts nothing; a week said to start on another
    day is left unread, and so asked about."""
    words = [t.low for t in state.tokens]

    def day(at: int) -> int | None:
        word = words[at] if 0 <= at < len(words) else ""
        return next((n for n, name in enumerate(_DAY_NAMES, 1) if len(word) >= 3 and name.startswith(word)), None)

    for i, word in enumerate(words):
        if word not in ("week", "weeks"):
            continue
        at = i + 1 + (i + 1 < len(words) and words[i + 1] == "that")
        if at < len(words) and words[at] in _WEEK_STARTS:
            first = at + 1 + (at + 1 < len(words) and words[at + 1] == "on")
            if day(first) == 1:
                consume_with_mentions(state, list(range(i + 1, first + 1)))
        if i >= 2 and day(i - 2) == 1 and day(i - 1) == 7:  # 'mon-sun weeks', 'monday sunday weeks'
            consume_with_mentions(state, [i - 2, i - 1])
        elif i >= 3 and day(i - 3) == 1 and words[i - 2] in ("to", "thru", "through") and day(i - 1) == 7:
            consume_with_mentions(state, [i - 3, i - 2, i - 1])


def calendar_pass(draft: Draft) -> Draft:
    """Topics the warehouse holds no data on end the reading; words about the whole data set are
    understood; then the calendar's words become the time filter. A holiday whose date moves is asked."""
    state, model = draft.state, draft.model
    topics = {e.name: " ".join(t.text for t in state.tokens[m.start:m.end]) for m in state.mentions
              for e in m.of("topic")}
    if topics:
        draft.outcome = Extraction(unsupported=unsupported_message(topics, model))
        return draft
    for mention in state.mentions:
        if mention.has("context"):
            mention.used = True
            state.consume(*range(mention.start, mention.end))
    _weeks_from_monday(state)
    draft.time = read_time(state, model)
    if draft.time is not None and len(draft.time.years) == 2 and draft.time.years[1] - draft.time.years[0] >= 1 \
            and "metric_time__year" in model.dimension_by_name and not _is_run(draft.time.years, state):
        draft.grouping.setdefault("metric_time__year", None)  # two years side by side: a row each
    if draft.time is not None and len(draft.time.months) == 2 and "metric_time__month" in model.dimension_by_name:
        link = _months_set_apart(state)
        if link:  # 'avg temp at ewr jan vs jul': both months, a row each (the model's own month column if any)
            state.consume(*link)
            own = next((d.name for d in model.dimensions if d.label.lower() == "month" and "__" not in d.name), None)
            draft.grouping.setdefault(own or "metric_time__month", None)
    hours = read_clock_hours(state)
    if hours:  # 'flights that left before 6am': the hours of the day, as 'at 5pm' or 'in hour 17' are
        draft.time = (draft.time or TimeFilter()).model_copy(update={"hours": hours})
    time = draft.time
    has_dates = time is not None and bool(time.days or time.from_day or time.start)
    holiday = moving_holiday(state, model, has_dates)
    return draft.stop(holiday) if holiday else draft


def _is_run(years: list[int], state: State) -> bool:
    """Were the two years said as a run ('2022 to 2023', 'from 2022 through 2023'), not set side by side?"""
    said = [i for i, t in enumerate(state.tokens) if t.number in years]
    return len(said) == 2 and said[1] == said[0] + 2 and state.tokens[said[0] + 1].low in RANGE_WORDS | {"-"}


# '6am', '9:30pm', '6 am': a time of day said on the clock (a bare number is never one)
_CLOCK = re.compile(r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?(?P<half>am|pm)")
_NAMED_TIMES = {"noon": 12, "midday": 12, "midnight": 0}
_BEFORE = {"before", "until", "till", "earlier"}
_AFTER = {"after", "from", "since", "later"}


def _clock_at(tokens: list[Token], i: int) -> tuple[int, int, int] | None:
    """(hour 0-23, minute, tokens it takes) for a clock time at token i."""
    low = tokens[i].low
    if low in _NAMED_TIMES:
        return _NAMED_TIMES[low], 0, 1
    said = _CLOCK.fullmatch(low)
    taken = 1
    if said is None and tokens[i].number is not None and i + 1 < len(tokens) and tokens[i + 1].low in ("am", "pm"):
        said, taken = _CLOCK.fullmatch(f"{low}{tokens[i + 1].low}"), 2
    if said is None or not 1 <= int(said["hour"]) <= 12:
        return None
    hour = int(said["hour"]) % 12 + (12 if said["half"] == "pm" else 0)
    return hour, int(said["minute"] or 0), taken


def read_clock_hours(state: State) -> list[int]:
    """The hours of the day said with clock times: 'before 6am' (0-5), 'after 9pm' (21-23), 'between 6am and
    9am' (6-8), 'at 5pm' (17). Only whole hours: a time with minutes is left unread (asked about)."""
    tokens = state.tokens
    for i in range(len(tokens)):  # '6pm or later', '9am and earlier', '8pm onwards': the clock, then the side
        clock = _clock_at(tokens, i) if i not in state.used_tokens else None
        if clock is None or clock[1]:
            continue
        end = i + clock[2]
        side = tuple(t.low for t in tokens[end:end + 2])
        if side in {("or", "later"), ("and", "later"), ("or", "after")} or side[:1] == ("onwards",):
            hours = list(range(clock[0], 24))
        elif side in {("or", "earlier"), ("and", "earlier"), ("or", "before")}:
            hours = list(range(0, clock[0] + 1))
        else:
            continue
        state.consume(*range(i - (1 if i and tokens[i - 1].low == "at" else 0),
                             end + (1 if side[:1] == ("onwards",) else 2)))
        return hours
    for i, token in enumerate(tokens):
        if i in state.used_tokens or token.low not in _BEFORE | _AFTER | {"between", "at"}:
            continue
        j = i + 1 + (tokens[i + 1].low == "than" if i + 1 < len(tokens) else 0)
        first = _clock_at(tokens, j) if j < len(tokens) else None
        if first is None or first[1]:
            continue
        end = j + first[2]
        if token.low == "between":
            second = _clock_at(tokens, end + 1) if end + 1 < len(tokens) and tokens[end].low in ("and", "to") else None
            if second is None or second[1] or second[0] <= first[0]:
                continue
            hours, end = list(range(first[0], second[0])), end + 1 + second[2]
        elif token.low == "at":
            hours = [first[0]]
        elif token.low in _BEFORE:
            hours = list(range(0, first[0]))
        else:
            hours = list(range(first[0], 24))
        if hours:
            state.consume(*range(i, end))
            return hours
    return []


def unsupported_message(topics: dict[str, str], model: SemanticModel) -> str:
    """`topics`: each topic the data lacks, with the words the person said for it. Their own word is named
    beside the topic's name ('ticket prices (“fare”)'), so the reply is plainly about what they asked."""
    asked = " or ".join(topic if said.lower() in topic.lower() else f"{topic} (“{said}”)"
                        for topic, said in topics.items())
    holds = ", ".join(t.label for t in model.tables if t.entity_words)
    measures = ", ".join(m.label.lower() for m in model.metrics if m.default or m.measure is None)
    return f"The warehouse has no data on {asked}. It holds {holds}, with measures such as {measures}."
