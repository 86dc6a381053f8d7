"""Bounds on SQL text checked before any parser sees it.

sqlglot's parser is recursive and can spend minutes on pathological input (ten thousand
nested parentheses); a linear scan of the raw text refuses such input first. Every code
path that parses SQL from a person or a model calls `check_sql_size` before parsing.
"""

from __future__ import annotations

from agent.errors import SqlError

MAX_SQL_CHARS = 100_000
MAX_NESTING = 64


class SqlTooComplexError(SqlError):
    code = "sql_too_complex"


def check_sql_size(sql: str, *, max_chars: int = MAX_SQL_CHARS, max_depth: int = MAX_NESTING) -> None:
    """Refuse text longer than `max_chars` or nested deeper than `max_depth`, in one pass.

    Depth counts parentheses and CASE ... END blocks outside string literals, quoted
    names and comments; that is what drives the parser's recursion.
    """
    if len(sql) > max_chars:
        raise SqlTooComplexError(
            f"The SQL is {len(sql):,} characters long; I read at most {max_chars:,}. "
            "Shorten it or split it into smaller queries."
        )
    depth = deepest = 0
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"`":
            end = sql.find(ch, i + 1)
            while end != -1 and end + 1 < n and sql[end + 1] == ch:  # doubled quote escapes
                end = sql.find(ch, end + 2)
            i = n if end == -1 else end + 1
            continue
        if ch == "-" and sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end == -1 else end + 1
            continue
        if ch == "/" and sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end == -1 else end + 2
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif ch in "cC" and _word_at(sql, i, "case"):
            depth += 1
        elif ch in "eE" and _word_at(sql, i, "end"):
            depth = max(depth - 1, 0)
        if depth > deepest:
            deepest = depth
            if deepest > max_depth:
                raise SqlTooComplexError(
                    f"The SQL nests parentheses or CASE blocks more than {max_depth} levels deep; "
                    "I do not read queries that deep. Flatten it with a WITH clause."
                )
        i += 1


def _word_at(text: str, i: int, word: str) -> bool:
    end = i + len(word)
    if text[i:end].lower() != word:
        return False
    before = text[i - 1] if i else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")
