"""The queries a warehouse has checked: its memo of the guard's readings (`agent.sql.checked`), kept
by the warehouse that judged them, which alone reads and fills it."""

from __future__ import annotations

import threading
from collections import OrderedDict

from agent.sql.checked import CheckedQuery


class CheckedQueries:
    """The queries a warehouse has checked, by text and dialect (a bounded memo, safe across threads).

    A query's text is what crosses a pause for confirmation, a checkpoint or a process; this turns
    it back into the one reading made of it, so the SQL a person confirmed is not parsed again to run.
    """

    def __init__(self, size: int = 256):
        self._size = size
        self._queries: OrderedDict[tuple[str, str], CheckedQuery] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, sql: str, dialect: str) -> CheckedQuery | None:
        with self._lock:
            found = self._queries.get((sql, dialect))
            if found is not None:
                self._queries.move_to_end((sql, dialect))
            return found

    def keep(self, query: CheckedQuery) -> CheckedQuery:
        with self._lock:
            self._queries[(query.sql, query.dialect)] = query
            self._queries.move_to_end((query.sql, query.dialect))
            while len(self._queries) > self._size:
                self._queries.popitem(last=False)
        return query
