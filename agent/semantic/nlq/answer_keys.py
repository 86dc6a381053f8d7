"""What the dialogue state keeps of an answer's rows: the things it named, for the next turn's reading.

'which of them …', 'that month', 'the second one' point at the rows of the answer before; the SQL step
keeps its first grouping's values beside the answer (in the session's ledger), and the reader of the
next message reads them back (`agent.tools.thread.previous_keys`).
"""

from __future__ import annotations

from typing import Any

from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.runtime import SemanticModel

MAX_KEYS = 50  # more things than this are no 'them' a person points at; the list is not kept


def answer_keys(intent: StructuredIntent | None, columns: list[str], rows: list[list[Any]], row_count: int,
                model: SemanticModel) -> dict[str, Any] | None:
    """What the dialogue state keeps of an answer's rows: its first grouping (not a date; a period kept in a
    column of its own, as a month number, when nothing else groups and the periods were ranked) and the values
    they hold, for 'which of them …', 'that month', 'the second one' in the next turn. None when the rows were
    cut or are many, unless they were ranked: then the first ones are kept as `leading`, for 'the 2nd busiest'
    (a place in the ranking), never for 'them'."""
    if intent is None or intent.count_groups or not rows:
        return None  # (an answer counting its groups holds a number, none of them)
    whole = len(rows) >= row_count and len(rows) <= MAX_KEYS
    if not whole and not intent.order_by:
        return None
    found = _first_grouping(intent, columns, rows[:MAX_KEYS], model)
    return found if found is None or whole else {"field": found["field"], "leading": found["values"]}


def _first_grouping(intent: StructuredIntent, columns: list[str], rows: list[list[Any]],
                    model: SemanticModel) -> dict[str, Any] | None:
    things = [n for n in intent.dimensions if (d := model.dimension_by_name.get(n)) is not None and d.kind != "time"]
    ranked = bool(intent.order_by or intent.limit)  # 'the wettest month': a period picked, not the calendar
    for position, name in enumerate(intent.dimensions):
        dim = model.dimension_by_name.get(name)
        if dim is None or model.time_grain(name) is not None or (dim.kind == "time" and (things or not ranked)):
            continue
        index = columns.index(name) if name in columns else position if position < len(columns) else None
        if index is None:
            return None
        values = list(dict.fromkeys(row[index] for row in rows if index < len(row) and row[index] is not None))
        return {"field": name, "values": values} if values else None
    return None
