"""Do two query results say the same thing? Used to score answers against gold SQL.

Column names and extra result columns do not matter: every gold column must be matched,
row for row, by some result column. Numbers are equal within a relative 1e-6; row order
counts only when the question asks for an order.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TypeGuard

REL_TOL = 1e-6


def rows_match(
    gold_columns: Sequence[str],
    gold_rows: Sequence[Sequence[object]],
    got_columns: Sequence[str],
    got_rows: Sequence[Sequence[object]],
    ordered: bool = False,
) -> bool:
    if len(gold_rows) != len(got_rows):
        return False
    width = len(gold_columns)
    if width == 0:
        return True
    if not got_rows:
        return True  # both empty
    gold_cols = [[row[j] for row in gold_rows] for j in range(width)]
    got_cols = [[row[k] for row in got_rows] for k in range(len(got_columns))]
    # candidates per gold column: result columns holding the same values (as a multiset)
    candidates = []
    for gold in gold_cols:
        fits = [k for k, got in enumerate(got_cols) if _same_multiset(gold, got)]
        if not fits:
            return False
        candidates.append(fits)
    for mapping in itertools.islice(itertools.product(*candidates), 10_000):
        if ordered:
            if all(_same_sequence(gold_cols[j], got_cols[k]) for j, k in enumerate(mapping)):
                return True
        else:
            gold_tuples = [tuple(row[j] for j in range(width)) for row in gold_rows]
            got_tuples = [tuple(row[k] for k in mapping) for row in got_rows]
            if _same_multiset_rows(gold_tuples, got_tuples):
                return True
    return False


def values_equal(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if _is_number(a) and _is_number(b):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-9)
    return str(a) == str(b)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _sort_key(value: object) -> tuple[int, float, str]:
    if value is None:
        return (0, 0.0, "")
    if _is_number(value):
        number = float(value)
        return (1, 0.0 if math.isnan(number) else float(f"{number:.9g}"), "")
    return (2, 0.0, str(value))


def _same_sequence(gold: Sequence[object], got: Sequence[object]) -> bool:
    return all(values_equal(a, b) for a, b in zip(gold, got))


def _same_multiset(gold: Sequence[object], got: Sequence[object]) -> bool:
    return _same_sequence(sorted(gold, key=_sort_key), sorted(got, key=_sort_key))


def _same_multiset_rows(gold: list[tuple[object, ...]], got: list[tuple[object, ...]]) -> bool:
    def key(row: tuple[object, ...]) -> tuple[tuple[int, float, str], ...]:
        return tuple(_sort_key(v) for v in row)

    return all(_same_sequence(a, b) for a, b in zip(sorted(gold, key=key), sorted(got, key=key)))
