"""Counters for the work a request repeats (issue 23): the CPU steps it runs, the SQL texts sqlglot
parses, the questions the reader reads and the checkpoints read.

The CPU steps run in the test's process (`InProcessPool`: arguments and results still pickled, as
they cross to a worker), so the parses and readings they make are seen by the spies too.
"""

from __future__ import annotations

import collections
import pickle
import sys
from typing import Any

import pytest
import sqlglot.parser

from agent.session.memory import BoundedInMemorySaver
from agent.budget.cpu import CpuPool
from agent.semantic.nlq import extract
from agent.sql.parse import clean_sql_text
from agent.tools import steps
from agent.warehouse.checked import CheckedQueries


class InProcessPool(CpuPool):
    """The CPU steps in the test's process, so a spy sees them; what crosses is pickled as it would be."""

    def __init__(self) -> None:
        super().__init__(workers=1, budget_s=60.0, preload=steps.PRELOAD)
        self.steps: list[str] = []

    async def run(self, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        self.steps.append(fn.__name__)
        args, kwargs = pickle.loads(pickle.dumps((args, kwargs)))
        return pickle.loads(pickle.dumps(fn(*args, **kwargs)))


def forget_checked_queries(monkeypatch: pytest.MonkeyPatch, warehouse: Any) -> None:
    """Start the warehouse's memo of checked SQL empty for this test. The warehouse is the session's, so
    without this a query another test asked earlier in the process is found judged, never parsed here,
    and a count of parses depends on the order the tests ran in."""
    monkeypatch.setattr(warehouse, "_checked", CheckedQueries())


def _key(sql: object) -> str:
    return " ".join(str(sql).split())


class ParseSpy:
    """Every text sqlglot's parser is handed, counted by text (spacing ignored). The parser itself is
    watched, so every way in counts: `sqlglot.parse`, `parse_one`, a dialect's `parse`, `maybe_parse`,
    `transpile`, an expression built from a string."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: collections.Counter[str] = collections.Counter()
        parser = sqlglot.parser.Parser
        parse, parse_into = parser.parse, parser.parse_into

        def counted_parse(self_: Any, raw_tokens: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
            self.texts[_key(sql)] += 1
            return parse(self_, raw_tokens, sql, *args, **kwargs)

        def counted_parse_into(self_: Any, into: Any, raw_tokens: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
            self.texts[_key(sql)] += 1
            return parse_into(self_, into, raw_tokens, sql, *args, **kwargs)

        monkeypatch.setattr(parser, "parse", counted_parse)
        monkeypatch.setattr(parser, "parse_into", counted_parse_into)

    def of(self, sql: str) -> int:
        return self.texts[_key(clean_sql_text(sql))]

    def queries(self) -> dict[str, int]:
        """The texts parsed that are whole queries (sqlglot also parses snippets: the model's expressions)."""
        return {text: n for text, n in self.texts.items() if text.upper().startswith(("SELECT", "WITH"))}


class ReaderSpy:
    """Every question the reader (`extract_intent`) reads, wherever it was imported."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.questions: list[str] = []
        original = extract.extract_intent

        def counted(question: str, *args: Any, **kwargs: Any) -> Any:
            self.questions.append(question)
            return original(question, *args, **kwargs)

        for module in list(sys.modules.values()):
            if getattr(module, "extract_intent", None) is original:
                monkeypatch.setattr(module, "extract_intent", counted)


class CountingSaver(BoundedInMemorySaver):
    """The in-process saver, counting the checkpoints read (LangGraph's async read calls `get_tuple`)
    and written."""

    def __init__(self) -> None:
        super().__init__(max_sessions=10, idle_ttl_s=3600)
        self.reads = 0
        self.puts = 0

    def get_tuple(self, config: Any) -> Any:
        self.reads += 1
        return super().get_tuple(config)

    def put(self, *args: Any, **kwargs: Any) -> Any:
        self.puts += 1
        return super().put(*args, **kwargs)
