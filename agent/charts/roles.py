"""What each result column can be on a chart: a time axis, a number to plot, or a category."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from enum import Enum
from typing import Any

# A result cell as the warehouse returns it: None, a number, text, a date or a timestamp (its type is
# only known by looking), and a row of them.
Cell = Any
Row = Sequence[Cell]

_NUMERIC_TYPE = re.compile(
    r"^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?\d*|INT\d+|FLOAT\d*|REAL|DOUBLE( PRECISION)?|DECIMAL.*|NUMERIC.*)$"
)
_INTEGER_TYPE = re.compile(r"^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?\d*|INT\d+)$")
_TIME_TYPE = re.compile(r"^(DATE|TIMESTAMP.*|DATETIME.*|TIME)$")
_ISO_DATE = re.compile(
    r"^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$"
)

# Integer columns named after a calendar part are a time axis when their values fit it.
TIME_PARTS: dict[str, tuple[int, int]] = {
    "year": (1800, 2200),
    "quarter": (1, 4),
    "month": (1, 12),
    "week": (0, 53),
    "day": (1, 31),
    "weekday": (0, 7),
    "dow": (0, 7),
    "hour": (0, 23),
    "minute": (0, 59),
}


class Role(str, Enum):
    TIME = "time"
    NUMBER = "number"
    CATEGORY = "category"


def is_number(value: Cell) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_integer_column(type_name: str, values: Sequence[Cell]) -> bool:
    if type_name:
        return bool(_INTEGER_TYPE.match(type_name.upper()))
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, int) and not isinstance(v, bool) for v in present)


def time_part(name: str) -> str | None:
    """The calendar part a column name refers to ("dep_month" -> "month"), if any."""
    for piece in re.split(r"[^a-z]+", name.lower()):
        if piece in TIME_PARTS:
            return piece
    return None


def parse_time(value: Cell) -> dt.datetime | None:
    """An ISO date or timestamp (as the warehouse returns them) as a naive datetime."""
    if isinstance(value, dt.datetime):
        return value if value.tzinfo is None else value.replace(tzinfo=None)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    if isinstance(value, str) and _ISO_DATE.match(value):
        text = value.replace("Z", "+00:00")
        if len(text) == 7:  # YYYY-MM
            text += "-01"
        try:
            parsed = dt.datetime.fromisoformat(text)
        except ValueError:
            return None
        return parsed if parsed.tzinfo is None else parsed.replace(tzinfo=None)
    return None


def column_role(name: str, type_name: str, values: Sequence[Cell]) -> Role:
    type_upper = (type_name or "").upper().strip()
    present = [v for v in values if v is not None]
    if _TIME_TYPE.match(type_upper):
        return Role.TIME
    numeric = bool(_NUMERIC_TYPE.match(type_upper)) if type_upper else bool(present) and all(map(is_number, present))
    if numeric:
        part = time_part(name)
        if part and present and is_integer_column(type_upper, present):
            low, high = TIME_PARTS[part]
            if all(low <= int(v) <= high for v in present):
                return Role.TIME
        return Role.NUMBER
    if present and all(parse_time(v) is not None for v in present):
        return Role.TIME
    return Role.CATEGORY


def column_roles(columns: list[str], types: list[str], rows: Sequence[Row]) -> list[Role]:
    types = list(types) + [""] * (len(columns) - len(types))
    return [
        column_role(name, types[i], [row[i] for row in rows])
        for i, name in enumerate(columns)
    ]
