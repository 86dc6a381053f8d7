"""A step reads the session's tool-call ledger once and hands it on (issue 23): the look-ups of earlier
results (the thread's last reading, the discovery a query was written from, the query a run takes) are
given the ledger the step read, and dispatch takes the question a tool was asked from the call that
asked it, so no look-up reads the state again through `agent.tools.state.calls_of`.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

import agent.tools.state
from agent.api import Assistant


@pytest.fixture
def ledger_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every read of the ledger through `calls_of`, in every module that took it by name."""
    reads: list[str] = []
    original = agent.tools.state.calls_of

    def counted(state: Any, scope: Any = "session") -> Any:
        reads.append(sys._getframe(1).f_code.co_qualname)
        return original(state, scope)

    for module in [m for name, m in sys.modules.items() if name == "agent" or name.startswith("agent.")]:
        if getattr(module, "calls_of", None) is original:
            monkeypatch.setattr(module, "calls_of", counted)
    return reads


async def test_the_review_walk_reads_the_ledger_once_in_each_step_that_looks_back(offline_context, ledger_reads):
    assistant = Assistant(offline_context)
    asked = await assistant.reply(assistant.ask("ledger", "average arrival delay by carrier last month"))
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked
    # the router's prompt (the thread's last reading, which tools.thread reads for it), discovery, generate_sql
    # and the confirmation's SQL
    assert sorted(ledger_reads) == sorted(
        ["last_reading_json", "data_discovery", "generate_sql", "confirmation_question"])

    ledger_reads.clear()
    ran = await assistant.reply(assistant.resume("ledger", "run"))
    assert ran.error is None and ran.rows, ran
    # the run (the SQL it takes) and the reply (this turn's calls)
    assert sorted(ledger_reads) == sorted(["execute_sql_and_analyze_result", "build_reply"])
