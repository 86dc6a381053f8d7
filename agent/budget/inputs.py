"""Size limits checked before any parsing.

Parsing cost grows with the text (and sqlglot recurses once per nesting level), so text
that is too long or too deeply nested is refused after one cheap pass over its characters,
with a sentence that says what the limit is.
"""

from __future__ import annotations

from agent.errors import InputTooLargeError

import re

# Only these characters matter for nesting; the scan jumps from one to the next.
_SPECIAL = re.compile(r"[()\[\]'\"`]|--|/\*")


def check_question(text: str, max_chars: int) -> None:
    if len(text) > max_chars:
        raise InputTooLargeError(
            f"That message is {len(text):,} characters long; I read questions of up to {max_chars:,} "
            "characters. Please shorten it or ask one thing at a time."
        )


def check_sql(sql: str, *, max_chars: int, max_depth: int) -> None:
    if len(sql) > max_chars:
        raise InputTooLargeError(
            f"That SQL is {len(sql):,} characters long; I read queries of up to {max_chars:,} characters. "
            "Please send a shorter query."
        )
    depth = nesting_depth(sql)
    if depth > max_depth:
        raise InputTooLargeError(
            f"That SQL nests brackets {depth:,} levels deep; I read queries nested up to {max_depth} levels. "
            "Please flatten it (a WITH clause often helps)."
        )


def nesting_depth(sql: str) -> int:
    """The deepest bracket nesting outside strings, quoted names and comments (one linear pass)."""
    depth = deepest = 0
    position = 0
    while (match := _SPECIAL.search(sql, position)) is not None:
        token, position = match.group(), match.end()
        if token in "([":
            depth += 1
            deepest = max(deepest, depth)
        elif token in ")]":
            depth = max(0, depth - 1)
        else:
            # Skip to the end of the string, quoted name or comment (a doubled quote is two strings).
            closer = {"--": "\n", "/*": "*/"}.get(token, token)
            end = sql.find(closer, position)
            position = len(sql) if end < 0 else end + len(closer)
    return deepest
