"""Numbers and names as people read them: 336,776 flights, 12.64 minutes, "average departure delay"."""

from __future__ import annotations

import calendar
import math
import re

from agent.charts.roles import Cell, parse_time, time_part
from agent.chatbi.meaning import ColumnMeaning, is_fraction
from agent.text.words import plural_phrase

# Abbreviations in column names, spelt out ("avg_dep_delay" -> "average departure delay").
_WORDS = {
    "avg": "average", "mean": "average", "max": "maximum", "min": "minimum", "cnt": "count",
    "num": "number of", "n": "number", "pct": "percent", "dep": "departure", "arr": "arrival",
    "dest": "destination", "sched": "scheduled", "temp": "temperature", "dewp": "dew point",
    "humid": "humidity", "precip": "precipitation", "visib": "visibility", "tz": "time zone",
    "qty": "quantity", "amt": "amount", "yr": "year", "mo": "month", "hr": "hour",
}

# Units come from the catalog or the semantic model (ColumnMeaning); a column name gives one only
# when it names the unit itself ("delay_minutes", "on_time_pct"); first match wins.
_UNITS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(^|_)(pct|percent|percentage)(_|$)"), "%"),
    (re.compile(r"(^|_)(minutes|mins)(_|$)"), "minutes"),
    (re.compile(r"(^|_)(hours|hrs)(_|$)"), "hours"),
    (re.compile(r"(^|_)(seconds|secs)(_|$)"), "seconds"),
    (re.compile(r"(^|_)(miles)(_|$)"), "miles"),
    (re.compile(r"(^|_)(km|kilometers|kilometres)(_|$)"), "km"),
)
_TIGHT_UNITS = ("%", "°F", "°C")

_NON_WORD = re.compile(r"[^0-9a-zA-Z]+")


def label(column: str) -> str:
    """A column name as words: `avg_dep_delay` -> "average departure delay", `count_star()` -> "count"."""
    words = [w for w in _NON_WORD.split(column.lower()) if w]
    if words[-1:] == ["star"]:
        words = words[:-1]
    if len(words) >= 2 and words[-1] == "count":
        # "flight_count" reads as "flights": the counted thing, not the word "count".
        words = words[:-2] + [plural(words[-2])]
    spelt = [_WORDS.get(w, w) for w in words]
    return " ".join(spelt) or column


def plural(noun: str) -> str:
    """'carrier' -> 'carriers', 'day of the week' -> 'days of the week' (lemminflect's forms)."""
    head, of, rest = noun.partition(" of ")
    return plural_phrase(head) + (of + rest if of else "")


def unit_of(column: str, meaning: ColumnMeaning | None = None) -> str | None:
    if meaning is not None and (meaning.unit or meaning.aggregate in ("count", "count_distinct")):
        return meaning.unit
    name = column.lower()
    for pattern, unit in _UNITS:
        if pattern.search(name):
            return unit
    return None


def number(value: float) -> str:
    """Thousands separators; whole numbers without decimals, others with one or two."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if float(value).is_integer():
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.1f}"
    if abs(value) >= 0.01:
        return f"{value:,.2f}"
    return f"{value:.2g}"


def quantity(value: float | None, column: str, meaning: ColumnMeaning | None = None) -> str:
    """A value with its unit: "12.64 minutes", "45.2%", "336,776"."""
    if value is None:
        return "no value"
    if time_part(column) == "year":
        return str(int(value)) if float(value).is_integer() else f"{value:.1f}"  # 2006, not 2,006
    if is_fraction(column, meaning):
        return percent(value * 100)
    unit = unit_of(column, meaning)
    if unit == "%":
        return percent(value)
    text = number(value)
    if unit is None:
        return text
    return f"{text}{unit}" if unit in _TIGHT_UNITS else f"{text} {unit}"


def points(value: float, *, signed: bool = False) -> str:
    """A difference of two rates: "3.2 percentage points", never "3.2%"."""
    text = f"{value:+.1f}" if signed else f"{abs(value):.1f}"
    return f"{text} percentage points"


def percent(value: float, *, signed: bool = False) -> str:
    return f"{value:+.1f}%" if signed else f"{value:.1f}%"


def is_number(value: Cell) -> bool:
    """A number in a result cell (a bool is not one). The facts and the chart's choice test every row's
    cells, so chatbi keeps this one-liner (the same as charts.roles') rather than call across per cell."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def time_label(value: Cell, column: str) -> str:
    """A time value as people say it: month 7 -> "July", 2013-07-01 -> "2013-07-01", hour 14 -> "14:00"."""
    part = time_part(column)
    if is_number(value) and part:
        whole = int(value)
        if part == "month" and 1 <= whole <= 12:
            return calendar.month_name[whole]
        if part == "quarter":
            return f"Q{whole}"
        if part == "hour":
            return f"{whole:02d}:00"
        if part in ("weekday", "dow") and 0 <= whole <= 7:
            # Works for both dayofweek (0 = Sunday) and isodow (7 = Sunday).
            return calendar.day_name[(whole - 1) % 7]
        return f"{part} {whole}" if part != "year" else str(whole)
    moment = parse_time(value)
    if moment is not None:
        if moment.hour or moment.minute:
            return moment.strftime("%Y-%m-%d %H:%M")
        return moment.strftime("%Y-%m-%d")
    return str(value)


def value_label(value: Cell) -> str:
    if value is None:
        return "(no value)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
