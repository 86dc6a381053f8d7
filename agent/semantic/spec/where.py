"""The dbt Semantic Layer filter grammar, read by a small parser instead of Jinja.

A MetricFlow filter is SQL with object references in double braces::

    {{ Dimension('flight__origin') }} = 'JFK'
    {{ TimeDimension('flight__flight_date', 'month') }} >= '2013-06-01'
    {{ Dimension('flight__flight_date').grain('week') }} IS NOT NULL
    {{ Entity('carrier') }} IN ('AA', 'DL')

Each reference becomes a placeholder column (`__ref_0`, ...), the remaining text is parsed
by sqlglot, and the compiler later swaps each placeholder for the SQL of what it names.
Anything else inside braces (Jinja statements, `Metric(...)`, unknown calls) is reported as
unsupported with the text that was not understood, never evaluated and never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import sqlglot
from sqlglot import exp

RefKind = Literal["dimension", "time_dimension", "entity"]
GRAINS = ("hour", "day", "week", "month", "quarter", "year")

_BRACES = re.compile(r"\{\{(.*?)\}\}|\{%.*?%\}", re.S)
_PLACEHOLDER = "__ref_{}"


class FilterSyntaxError(ValueError):
    """A filter that cannot be read; the message names the part that failed."""


@dataclass(frozen=True)
class Ref:
    """One object reference: `entity__name` split into its entity path and element name."""

    kind: RefKind
    name: str  # the element (dimension or entity) name
    entity_path: tuple[str, ...] = ()  # 'flight__plane__manufacturer' -> ('flight', 'plane')
    grain: str | None = None

    @property
    def qualified(self) -> str:
        return "__".join([*self.entity_path, self.name])


@dataclass(frozen=True)
class ParsedFilter:
    """A filter as a sqlglot condition whose `__ref_N` columns stand for `refs[N]`."""

    text: str
    condition: exp.Expr
    refs: tuple[Ref, ...]

    def placeholders(self) -> dict[str, Ref]:
        return {_PLACEHOLDER.format(i): ref for i, ref in enumerate(self.refs)}


def parse_filter(text: str, dialect: str = "duckdb") -> ParsedFilter:
    refs: list[Ref] = []

    def replace(match: re.Match[str]) -> str:
        if match.group(1) is None:
            raise FilterSyntaxError(f"Jinja statements are not supported: {match.group(0).strip()!r}")
        refs.append(_parse_call(match.group(1).strip()))
        return _PLACEHOLDER.format(len(refs) - 1)

    sql = _BRACES.sub(replace, text)
    if "{{" in sql or "}}" in sql or "{%" in sql:
        raise FilterSyntaxError(f"unbalanced braces in {text.strip()!r}")
    try:
        condition = sqlglot.parse_one(sql, read=dialect)
    except sqlglot.errors.ParseError as exc:
        raise FilterSyntaxError(f"the SQL around the references does not parse: {exc}") from None
    return ParsedFilter(text=text.strip(), condition=condition, refs=tuple(refs))


# -- the call grammar: Name '(' args ')' ( '.' method '(' args ')' )* -------------------------------------

_TOKEN = re.compile(r"\s*(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<string>'[^']*'|\"[^\"]*\")|(?P<punct>[().,\[\]=]))")


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            if text[pos:].strip() == "":
                break
            raise FilterSyntaxError(f"unexpected {text[pos:].strip()[:20]!r} in {{{{ {text} }}}}")
        kind = match.lastgroup or ""
        value = match.group(kind)
        out.append((kind, value[1:-1] if kind == "string" else value))
        pos = match.end()
    return out


class _Cursor:
    def __init__(self, text: str):
        self.text = text
        self.items = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def take(self, kind: str, value: str | None = None) -> str:
        item = self.peek()
        if item is None or item[0] != kind or (value is not None and item[1] != value):
            wanted = value or kind
            raise FilterSyntaxError(f"expected {wanted} in {{{{ {self.text} }}}}")
        self.i += 1
        return item[1]

    def arguments(self) -> tuple[list[str], dict[str, str]]:
        """'(' [arg (',' arg)*] ')' where an arg is a string or name=string."""
        self.take("punct", "(")
        positional: list[str] = []
        named: dict[str, str] = {}
        while self.peek() != ("punct", ")"):
            item = self.peek()
            if item is not None and item[0] == "name":
                key = self.take("name")
                self.take("punct", "=")
                named[key] = self._value()
            else:
                positional.append(self._value())
            if self.peek() == ("punct", ","):
                self.take("punct", ",")
        self.take("punct", ")")
        return positional, named

    def _value(self) -> str:
        item = self.peek()
        if item is not None and item[0] == "punct" and item[1] == "[":
            raise FilterSyntaxError(f"lists (entity_path) are not supported in {{{{ {self.text} }}}}")
        return self.take("string")


def _parse_call(text: str) -> Ref:
    cursor = _Cursor(text)
    function = cursor.take("name")
    if function not in ("Dimension", "TimeDimension", "Entity"):
        raise FilterSyntaxError(f"{function}(...) is not supported in filters (only Dimension, TimeDimension, Entity)")
    positional, named = cursor.arguments()
    if not positional:
        raise FilterSyntaxError(f"{function}() needs a name")
    grain = named.pop("time_granularity_name", None) or named.pop("grain", None)
    if function == "TimeDimension" and len(positional) > 1:
        grain = positional[1]
    unused = sorted(named)
    while cursor.peek() is not None:
        cursor.take("punct", ".")
        method = cursor.take("name")
        args, _ = cursor.arguments()
        if method == "grain" and args:
            grain = args[0]
        elif method == "descending":
            continue
        else:
            raise FilterSyntaxError(f".{method}(...) is not supported in {{{{ {text} }}}}")
    if unused:
        raise FilterSyntaxError(f"argument(s) {', '.join(unused)} not supported in {{{{ {text} }}}}")
    if grain is not None and grain.lower() not in GRAINS:
        raise FilterSyntaxError(f"unknown time grain {grain!r} in {{{{ {text} }}}}")
    *path, name = positional[0].split("__")
    if function == "Entity":
        return Ref("entity", name, tuple(path))
    kind: RefKind = "time_dimension" if function == "TimeDimension" or grain else "dimension"
    return Ref(kind, name, tuple(path), grain.lower() if grain else None)
