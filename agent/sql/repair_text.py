"""Repairs on the SQL text, for statements the parser cannot read at all.

Each repair is tried where the parser stopped and kept only when the parser then gets
further (reads the whole statement, or stops later than before), so a keyword is only
corrected where a keyword is expected and a parenthesis is only added where one is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import sqlglot
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokenizer_core import Token, TokenType

from agent.sql.names import SQL_KEYWORDS, keyword_candidates
from agent.sql.parse import unclosed_quote

_CLAUSE_WORDS = {
    "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "QUALIFY", "WINDOW", "UNION",
    "INTERSECT", "EXCEPT", "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "ON",
}


# A value ends with a name, a literal or a closing parenthesis; the next one starts with a
# name or a literal. Two such tokens side by side in a list are a missing comma.
_VALUE_END = {
    TokenType.VAR, TokenType.IDENTIFIER, TokenType.NUMBER, TokenType.STRING, TokenType.R_PAREN,
}
_VALUE_START = {TokenType.VAR, TokenType.IDENTIFIER, TokenType.NUMBER, TokenType.STRING}
# Where a string that runs on most likely should have ended: before the next clause or operator.
_AFTER_VALUE_WORDS = set(SQL_KEYWORDS) - {"AS", "NULL", "NULLS", "FIRST", "LAST", "ALL", "VALUES", "CAST"}


MAX_QUOTE_TRIES = 12


@dataclass(frozen=True)
class TextEdit:
    sql: str
    what: str
    why: str


def parse_stop(sql: str, read: str) -> tuple[int, int] | None:
    """(line, column) where the parser gives up, or None when the statement parses."""
    try:
        sqlglot.parse(sql, read=read)
    except ParseError as error:
        first = error.errors[0] if error.errors else {}
        return (first.get("line") or 0, first.get("col") or 0)
    except TokenError:
        return (0, 0)
    return None


def repair_syntax_once(sql: str, read: str, known_names: set[str]) -> TextEdit | None:
    """One edit that lets the parser read further, or None when no repair helps."""
    stop = parse_stop(sql, read)
    if stop is None:
        return None
    try:
        tokens = Dialect.get_or_raise(read).tokenize(sql)
    except TokenError:
        return _close_quote(sql, read)
    for edit in _candidate_edits(sql, tokens, stop, known_names):
        after = parse_stop(edit.sql, read)
        if after is None or after > stop:
            return edit
    return None


def _candidate_edits(
    sql: str, tokens: list[Token], stop: tuple[int, int], known_names: set[str]
) -> Iterable[TextEdit]:
    stop_index = _token_at(tokens, stop)
    yield from _keyword_edits(sql, tokens, stop_index, known_names)
    yield from _parenthesis_edits(sql, tokens, stop_index)
    yield from _comma_edits(sql, tokens, stop_index)
    yield from _missing_comma_edits(sql, tokens, stop_index)


def _token_at(tokens: list[Token], stop: tuple[int, int]) -> int:
    """Index of the token the parser stopped at (the last one when it ran off the end)."""
    for i, token in enumerate(tokens):
        if (token.line, token.col) >= stop:
            return i
    return len(tokens) - 1


def _replace(sql: str, token: Token, text: str) -> str:
    return sql[: token.start] + text + sql[token.end + 1 :]


def _keyword_edits(
    sql: str, tokens: list[Token], stop_index: int, known_names: set[str]
) -> Iterable[TextEdit]:
    # Nearest to where the parser stopped first: a misspelt keyword sits just before it.
    for i in range(min(stop_index, len(tokens) - 1), -1, -1):
        token = tokens[i]
        if token.token_type != TokenType.VAR or token.text.lower() in known_names:
            continue
        for keyword in keyword_candidates(token.text):
            yield TextEdit(
                _replace(sql, token, keyword),
                f"{token.text} → {keyword}",
                f"'{token.text}' is not a word SQL knows; {keyword} is the keyword it resembles "
                "and the one expected there.",
            )


def _parenthesis_edits(sql: str, tokens: list[Token], stop_index: int) -> Iterable[TextEdit]:
    depth = 0
    for token in tokens:
        if token.token_type == TokenType.L_PAREN:
            depth += 1
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1
            if depth < 0:
                yield TextEdit(
                    _replace(sql, token, ""),
                    f"removed an extra ')' at line {token.line}, column {token.col}",
                    "that closing parenthesis had no opening one.",
                )
                return
    if depth <= 0:
        return
    stop = tokens[stop_index]
    ran_off_end = stop_index == len(tokens) - 1 and stop.token_type != TokenType.R_PAREN
    if ran_off_end and stop.text.upper() not in _CLAUSE_WORDS:
        yield TextEdit(sql.rstrip() + ")", "added ')' at the end", "a parenthesis was never closed.")
        return
    before = tokens[stop_index - 1].text if stop_index > 0 else ""
    yield TextEdit(
        sql[: stop.start].rstrip() + ") " + sql[stop.start :],
        f"added ')' after '{before}'",
        f"a parenthesis was opened but not closed before {stop.text}.",
    )


def _comma_edits(sql: str, tokens: list[Token], stop_index: int) -> Iterable[TextEdit]:
    if stop_index <= 0:
        return
    previous, stop = tokens[stop_index - 1], tokens[stop_index]
    if previous.token_type == TokenType.COMMA and stop.text.upper() in _CLAUSE_WORDS:
        yield TextEdit(
            _replace(sql, previous, ""),
            f"removed the comma before {stop.text.upper()}",
            "a list of columns cannot end with a comma.",
        )


def _missing_comma_edits(sql: str, tokens: list[Token], stop_index: int) -> Iterable[TextEdit]:
    """`SELECT origin, dest count(*)`: the parser reads `dest count` as a name and its alias and
    stops at the `(`, so the comma is tried before the stop and before the word ahead of it."""
    for i in (stop_index, stop_index - 1):
        if i <= 0 or i >= len(tokens):
            continue
        before, after = tokens[i - 1], tokens[i]
        if before.token_type in _VALUE_END and after.token_type in _VALUE_START:
            yield TextEdit(
                sql[: before.end + 1] + "," + sql[before.end + 1 :],
                f"added a comma between {before.text} and {after.text}",
                f"{before.text} and {after.text} are two items of a list; without the comma SQL "
                f"reads {after.text} as a name for {before.text}.",
            )


def _close_quote(sql: str, read: str) -> TextEdit | None:
    """Close a string that is never closed, where the string most likely ends: before the first
    SQL keyword that follows it (`'EWR AND month = 12` → `'EWR' AND month = 12`), else at the end."""
    found = unclosed_quote(sql)
    if found is None:
        return None
    quote, line, column = found
    start = _offset(sql, line, column)
    rest = sql[start + 1 :]
    ends = [m.start() for m in re.finditer(r"\s+(\w+)", rest) if m.group(1).upper() in _AFTER_VALUE_WORDS]
    # Each try is a full parse, so only the first few places are tried (a string that runs on
    # past a dozen keywords is not a quote closed one word early).
    for end in [*ends[:MAX_QUOTE_TRIES], len(rest.rstrip())]:
        candidate = sql[: start + 1] + rest[:end] + quote + rest[end:]
        if parse_stop(candidate, read) is None:
            value = rest[:end]
            return TextEdit(
                candidate,
                f"closed the string: {quote}{value}{quote}",
                f"the quote {quote} opened at line {line}, column {column} was never closed, so "
                f"everything after it read as one value; it most likely ends after {quote}{value}{quote}.",
            )
    return None


def _offset(sql: str, line: int, column: int) -> int:
    lines = sql.split("\n")
    return sum(len(text) + 1 for text in lines[: line - 1]) + column - 1
