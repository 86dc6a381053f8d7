"""How close a misspelt name is to a real one: edit distance, plurals, prefixes, SQL keywords."""

from __future__ import annotations

from collections.abc import Iterable

# Keywords people misspell where a clause or an operator is expected.
SQL_KEYWORDS = (
    "SELECT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "OFFSET",
    "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "ON", "USING", "AS",
    "AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "ILIKE", "BETWEEN", "EXISTS",
    "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT", "UNION", "ALL", "INTERSECT",
    "EXCEPT", "WITH", "DESC", "ASC", "OVER", "PARTITION", "QUALIFY", "VALUES", "CAST",
    "INTERVAL", "NULLS", "FIRST", "LAST",
)


def edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein (optimal string alignment): a swap of two letters costs one."""
    a, b = a.lower(), b.lower()
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        rows[i][0] = i
    for j in range(len(b) + 1):
        rows[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[len(a)][len(b)]


def allowed_typos(word: str) -> int:
    """How many edits still read as the same word: none for tiny words, more for long ones."""
    if len(word) <= 2:
        return 0
    if len(word) <= 4:
        return 1
    if len(word) <= 8:
        return 2
    return 3


def _singular(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _abbreviates(short: str, long: str) -> bool:
    """`short` is a shortening of `long`: temp/temperature, tailnum/tail_number, dep_delay/departure_delay."""
    short, long = short.lower(), long.lower()
    if short == long:
        return False
    squeezed_short, squeezed_long = short.replace("_", ""), long.replace("_", "")
    if len(squeezed_short) >= 3 and squeezed_long.startswith(squeezed_short):
        return True
    short_parts, long_parts = short.split("_"), long.split("_")
    return (
        len(short_parts) == len(long_parts) > 1
        and all(s and long.startswith(s) for s, long in zip(short_parts, long_parts))
    )


def closest_name(wanted: str, candidates: Iterable[str]) -> str | None:
    """The candidate a person most likely meant by `wanted`, or None when none is close.

    Tried in order of confidence: same word ignoring case, singular/plural, the start of
    exactly one name (dist/distance), a typo within a few edits, then one name shortening
    the other (temp/temperature) when only one does.
    """
    pool = list(dict.fromkeys(candidates))
    low = wanted.lower()
    for cand in pool:
        if cand.lower() == low:
            return cand
    plural = [c for c in pool if _singular(c) == _singular(low)]
    if len(plural) == 1:
        return plural[0]
    extended = [c for c in pool if len(low) >= 4 and c.lower().startswith(low)]
    if len(extended) == 1:
        return extended[0]
    scored = sorted((edit_distance(low, c), c) for c in pool)
    if scored and scored[0][0] <= allowed_typos(low):
        ties = [c for d, c in scored if d == scored[0][0]]
        if len(ties) == 1:
            return ties[0]
    abbreviations = [c for c in pool if _abbreviates(c, low) or _abbreviates(low, c)]
    if len(abbreviations) == 1:
        return abbreviations[0]
    return None


def keyword_candidates(word: str) -> list[str]:
    """SQL keywords a word may be a misspelling of, closest first (empty for real keywords).

    Several can be equally close (ODER: ORDER or OVER), so the caller picks the one the
    surrounding SQL accepts.
    """
    upper = word.upper()
    if upper in SQL_KEYWORDS or len(word) < 3 or not word.isalpha():
        return []
    limit = min(allowed_typos(word), 2)
    scored = sorted((edit_distance(upper, k), k) for k in SQL_KEYWORDS)
    return [k for d, k in scored if 0 < d <= limit]
