"""Honest words (issue 14 item 6): a statement the guard refuses is called refused, with why, by
/fixsql and /explainsql; explain describes only queries; a request to change data is answered
by saying the bot only reads."""

from __future__ import annotations

import itertools

import pytest


_sessions = itertools.count()

REFUSED = [
    "INSTALL httpfs",
    "DROP TABLE flights",
    "DELETE FROM planes WHERE year < 1990",
    "SELECT * FROM read_csv('/etc/passwd')",
    "ATTACH 'other.db' AS other",
]


def _refused_with_a_reason(said: str) -> bool:
    """It says 'refused' and then why, in a sentence of its own (the guard's words)."""
    return "refused" in said and len(said.split("refused", 1)[1].strip(" .")) > 20


async def _direct(assistant, agent_name, sql):
    return await assistant.reply(assistant.run_tool(f"honest-{next(_sessions)}", agent_name, {"sql": sql}))


@pytest.mark.parametrize("sql", REFUSED)
async def test_fixsql_says_a_refused_statement_is_refused_and_why(offline_assistant, sql):
    reply = await _direct(offline_assistant, "Fix SQL Agent", sql)
    said = f"{reply.text or ''} {reply.error or ''}"
    assert _refused_with_a_reason(said)
    assert "already runs" not in said
    assert reply.sql is None


@pytest.mark.parametrize("sql", REFUSED)
async def test_explainsql_says_a_refused_statement_is_refused_and_why(offline_assistant, sql):
    reply = await _direct(offline_assistant, "Explain SQL Agent", sql)
    said = f"{reply.text or ''} {reply.error or ''}"
    assert _refused_with_a_reason(said)
    assert "This query" not in said
    assert reply.sql is None


async def test_explain_describes_only_queries(offline_assistant):
    reply = await _direct(offline_assistant, "Explain SQL Agent", "DESCRIBE flights")
    said = f"{reply.text or ''} {reply.error or ''}"
    assert "This query" not in said
    assert "only explain queries" in said or "refused" in said


@pytest.mark.parametrize(
    "text",
    [
        "drop the flights table",
        "delete all flights from January",
        "update the carrier name of UA to United",
        "can you insert a new row into airports",
        "please truncate weather",
        "I want to remove all rows from planes",
        "create a new table with the delays",
    ],
)
async def test_a_request_to_change_data_is_answered_with_read_only(offline_assistant, text):
    reply = await offline_assistant.reply(offline_assistant.ask(f"honest-{next(_sessions)}", text))
    assert reply.tools == ["reject_out_of_scope"]
    assert "only read data" in reply.text
    assert reply.sql is None and reply.rows in (None, [])



@pytest.mark.parametrize(
    "text",
    [
        "remove cancelled flights from the average delay by carrier",
        "how many rows were deleted flights in march",
        "update me on the average delay at JFK",
        "which planes were created before 1990",
        "add up the distance flown per carrier",
    ],
)
async def test_questions_that_only_mention_changes_still_read_data(route, text):
    assert (await route(text)).tool != "reject_out_of_scope"


async def test_the_refusal_names_the_warehouse_tables_not_a_fixed_list(offline_assistant, offline_context):
    reply = await offline_assistant.reply(offline_assistant.ask(f"honest-{next(_sessions)}", "drop the weather table"))
    for table in offline_context.catalog.table_names:
        assert table in reply.text


async def test_fixsql_without_a_fix_carries_no_sql_and_says_what_and_where(offline_assistant):
    reply = await _direct(offline_assistant, "Fix SQL Agent", "SELECT frobnicate, count(*) FROM flights GROUP BY 1")
    assert reply.sql is None
    assert "frobnicate" in reply.error and "line 1" in reply.error


async def test_fixsql_names_where_an_unclosed_quote_opens_when_it_fixes_it(offline_assistant):
    reply = await _direct(offline_assistant, "Fix SQL Agent", "SELECT count(*) FROM airlines WHERE carrier = 'UA")
    assert reply.error is None and "'UA'" in reply.sql
    assert "opened at line 1, column 47" in reply.text
