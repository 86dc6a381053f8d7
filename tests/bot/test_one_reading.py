"""One @mention, as the review of issue 23 walked it, through the bot's real endpoint and the real agent
(offline model, demo DuckDB): the question is read once and its SQL parsed once, from the mention to the
answer after Run, and each turn reads its session's checkpoint once.

The CPU steps run in the test's process (tests/support/counting.py), so the reader's and the guard's
work is seen wherever it runs; the spies watch `extract_intent` wherever it was imported and sqlglot's
parser itself, so every way into either counts.
"""

from __future__ import annotations

import re

import dataclasses

import pytest

from agent.api import Assistant
from agent.bootstrap import build_context
from agent.tools import steps
from bot.render import actions
from tests.support.bot_server import serving_bot
from tests.support.counting import CountingSaver, InProcessPool, ParseSpy, ReaderSpy, forget_checked_queries
from tests.support.slack_requests import click, find_button, mention

QUESTION = "average arrival delay by carrier last month"


@pytest.fixture
async def counted_agent(settings, warehouse, monkeypatch):
    pool = InProcessPool()
    # A worker opens its own read-only connection to the warehouse file; in this process DuckDB allows
    # only connections configured like the warehouse's, so a step gets one of the warehouse's own.
    key = (str(warehouse.path), settings.query_memory_limit)
    monkeypatch.setitem(steps._connections, key, warehouse._con.cursor())
    forget_checked_queries(monkeypatch, warehouse)
    saver = CountingSaver()
    context = build_context(settings, warehouse=warehouse, in_process=True, warm=False)
    assistant = Assistant(dataclasses.replace(context, cpu=pool), saver)
    yield assistant, saver
    pool.close()  # the warehouse is the session's (tests/conftest.py): not closed here
    assistant.governance.close()


async def test_an_at_mention_and_its_run_read_the_question_once_and_parse_its_sql_once(
    bot_settings, slack, counted_agent, monkeypatch
):
    assistant, saver = counted_agent
    async with serving_bot(bot_settings, slack, assistant) as bot:
        reader, parses = ReaderSpy(monkeypatch), ParseSpy(monkeypatch)

        await bot.send.event(mention(QUESTION, ts="230.1"))
        await bot.drain()
        question = slack.thread("C1", "230.1")[-1]
        run = find_button(question, actions.RUN)
        assert run, question
        asked_reads = saver.reads

        await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
        await bot.drain()
        answer = slack.thread("C1", "230.1")[-1]
        assert ":warning:" not in answer["text"], answer["text"]

    # the question, read by the reader once: the router's check, discovery and the SQL share that reading
    assert reader.questions == [QUESTION], reader.questions
    # its SQL, parsed once (by the guard, in the warehouse's dialect): the dry run, the confirmation,
    # the access check, the audit, the run and the answer's column meanings take that one reading
    queries = parses.queries()
    asked = [text for text in queries if "arr_delay" in text]
    assert len(asked) == 1 and queries[asked[0]] == 1, queries
    # and whatever else ran is parsed once too: here the data's first and latest dates, which 'last month'
    # counts back from (read once per process)
    assert all(n == 1 for n in queries.values()), queries
    # (a table's name is tried once per process as 'SELECT t FROM t' to learn whether it must be quoted: no query)
    probes = {text for text in queries if re.fullmatch(r"SELECT (\w+) FROM \1", text)}
    assert all(text.startswith(("SELECT max(", "SELECT min(")) for text in queries if text not in {*asked, *probes}), \
        queries
    # the mention: one read, as its turn starts; LangGraph's run starts from that reading
    assert asked_reads == 1, asked_reads
    # Run: the same one, after the bot's two questions on the click (may this person answer, and is this
    # the question pending), each a read of its own
    assert saver.reads - asked_reads == 3, saver.reads - asked_reads
