"""Repairs on the SQL text, for statements the parser cannot read at all.

Each repair is tried where the parser stopped and kept only when the parser then gets
further (reads the whole statement, or stops later than before), so a keyword is only
corrected where a keyword is expected and a parenthesis is only added where one is missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlglot
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import Token, TokenType

from agent.sql.names import keyword_candidates

_CLAUSE_WORDS = {
    "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "QUALIFY", "WINDOW", "UNION",
    "INTERSECT", "EXCEPT", "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "ON",
}


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
        return None
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
