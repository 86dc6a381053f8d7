"""Leak attempts: a table, a column and masked values the policy hides, reached every way a
query or an answer can reach them. Each must be refused by name (with the policy's contact)
or simply not show the hidden thing; none may return its data."""

from __future__ import annotations

import pytest

from agent.api import ChatContext
from tests.policy.conftest import ANALYST, audit_records

# SQL that reads planes (denied to everyone) or flights.tailnum (a denied column), spelled every way.
HIDDEN_READS = [
    ("plain table", "SELECT * FROM planes", "main.planes"),
    ("schema-qualified", "SELECT count(*) FROM main.planes", "main.planes"),
    ("quoted and upper case", 'SELECT "SEATS" FROM "PLANES"', "main.planes"),
    ("alias", "SELECT p.seats FROM planes AS p", "main.planes"),
    ("cte", "WITH x AS (SELECT * FROM planes) SELECT count(*) FROM x", "main.planes"),
    ("cte named like an allowed table", "WITH flights AS (SELECT * FROM planes) SELECT * FROM flights",
     "main.planes"),
    ("nested cte", "WITH a AS (SELECT tailnum FROM planes), b AS (SELECT * FROM a) SELECT * FROM b",
     "main.planes"),
    ("subquery in from", "SELECT m FROM (SELECT manufacturer AS m FROM planes) t", "main.planes"),
    ("scalar subquery", "SELECT (SELECT max(seats) FROM planes) AS most", "main.planes"),
    ("in subquery", "SELECT count(*) FROM flights WHERE carrier IN (SELECT manufacturer FROM planes)",
     "main.planes"),
    ("exists", "SELECT count(*) FROM airlines WHERE EXISTS (SELECT 1 FROM planes)", "main.planes"),
    ("union", "SELECT carrier FROM airlines UNION ALL SELECT manufacturer FROM planes", "main.planes"),
    ("intersect", "SELECT carrier FROM airlines INTERSECT SELECT model FROM planes", "main.planes"),
    ("join", "SELECT a.name FROM airlines a JOIN planes p ON a.carrier = p.model", "main.planes"),
    ("lateral", "SELECT * FROM airlines, LATERAL (SELECT seats FROM planes LIMIT 1) z", "main.planes"),
    ("whole row as a struct", "SELECT p FROM planes p", "main.planes"),
    ("columns()", "SELECT COLUMNS('.*') FROM planes", "main.planes"),
    ("from-first", "FROM planes", "main.planes"),
    ("window", "SELECT row_number() OVER (ORDER BY seats) FROM planes", "main.planes"),
    ("denied column", "SELECT tailnum FROM flights", "main.flights.tailnum"),
    ("denied column qualified", "SELECT f.tailnum FROM flights f", "main.flights.tailnum"),
    ("denied column by star", "SELECT * FROM flights LIMIT 5", "main.flights.tailnum"),
    ("denied column by table star", "SELECT f.* FROM flights f LIMIT 5", "main.flights.tailnum"),
    ("denied column through a cte star", "WITH x AS (SELECT * FROM flights) SELECT count(*) FROM x",
     "main.flights.tailnum"),
    ("denied column in a filter", "SELECT count(*) FROM flights WHERE tailnum = 'N14228'", "main.flights.tailnum"),
    ("denied column in group by", "SELECT count(*) FROM flights GROUP BY tailnum", "main.flights.tailnum"),
    ("denied column in order by", "SELECT dep_delay FROM flights ORDER BY tailnum LIMIT 1", "main.flights.tailnum"),
    ("denied column distinct count", "SELECT count(DISTINCT tailnum) FROM flights", "main.flights.tailnum"),
    ("denied column as a row struct", "SELECT f FROM flights f LIMIT 1", "main.flights.tailnum"),
    ("denied column via to_json", "SELECT to_json(f) FROM flights f LIMIT 1", "main.flights.tailnum"),
    ("denied column by a star over a join", "SELECT * FROM flights JOIN airlines USING (carrier) LIMIT 1",
     "main.flights.tailnum"),
    ("information_schema tables", "SELECT table_name FROM information_schema.tables", "information_schema"),
    ("information_schema columns", "SELECT column_name FROM information_schema.columns", "information_schema"),
    ("duckdb_tables()", "SELECT * FROM duckdb_tables()", "duckdb_tables"),
    ("duckdb_columns()", "SELECT * FROM duckdb_columns()", "duckdb_columns"),
    ("sqlite_master", "SELECT * FROM sqlite_master", "sqlite_master"),
    ("pg_catalog", "SELECT * FROM pg_catalog.pg_class", "pg_class"),
    ("weather for an analyst", "SELECT avg(temp) FROM weather", "main.weather"),
]


SYSTEM_CATALOGS = ("information_schema", "duckdb_", "sqlite_master", "pg_")


def _assert_refused(reply, named: str) -> None:
    assert reply.error is not None, reply.text
    assert named in reply.error, reply.error
    # System catalogs may be refused by the read-only guard before the policy sees them (no contact then).
    assert named.startswith(SYSTEM_CATALOGS) or "#data-access" in reply.error, reply.error
    assert reply.rows == [] and reply.row_count == 0


@pytest.mark.parametrize("sql,named", [(s, n) for _, s, n in HIDDEN_READS], ids=[i for i, _, _ in HIDDEN_READS])
async def test_pasted_sql_is_refused_by_name(policed, session, audit_file, sql, named):
    reply = await policed.reply(policed.run_tool(session, "Chat BI Agent", {"sql": sql, "dialect": "duckdb"}, ANALYST))
    _assert_refused(reply, named)
    if named.startswith(SYSTEM_CATALOGS):
        return  # refused by the guard before reaching the warehouse: nothing was asked to run
    record = audit_records(audit_file)[-1]
    assert record["outcome"] == "refused" and record["user"] == "UANALYST" and record["channel"] == "CDATA"
    assert record["error_code"] == "access_denied" and record["rows"] is None and record["sql"]


@pytest.mark.parametrize("sql", [
    "SELECT seats FORM planes",
    "SELECT tailnum, count(*) FROM flights GROUP BY 1 ORDER BY",
    "SELECT * FROM information_schema.tables WHERE",
    "SELECT seat FROM planes",
])
async def test_fixsql_refuses_instead_of_repairing(policed, session, sql):
    reply = await policed.reply(policed.run_tool(session, "Fix SQL Agent", {"sql": sql}, ANALYST))
    assert reply.error is not None and "#data-access" in reply.error, reply.text
    assert "seats" not in reply.text and reply.rows == []


@pytest.mark.parametrize("sql,named", [
    ("SELECT manufacturer, count(*) FROM planes GROUP BY manufacturer", "main.planes"),
    ("WITH p AS (SELECT * FROM planes) SELECT * FROM p", "main.planes"),
    ("SELECT tailnum FROM flights", "main.flights.tailnum"),
])
async def test_explainsql_refuses_by_name(policed, session, sql, named):
    reply = await policed.reply(policed.run_tool(session, "Explain SQL Agent", {"sql": sql}, ANALYST))
    assert reply.error is not None and named in reply.error and "manufacturer" not in reply.text


async def test_edited_sql_at_the_confirmation_is_checked(policed, session, audit_file):
    first = await policed.reply(policed.ask(session, "average departure delay at JFK", ANALYST))
    assert first.ask_human is not None and first.ask_human.kind == "confirm_sql"
    edited = await policed.reply(policed.resume(session, "edit", ANALYST, edited_sql="SELECT * FROM planes"))
    _assert_refused(edited, "main.planes")
    assert audit_records(audit_file)[-1]["outcome"] == "refused"


async def test_a_thread_reply_with_sql_is_checked(policed, session):
    first = await policed.reply(policed.ask(session, "number of flights by origin", ANALYST))
    assert first.ask_human is not None
    reply = await policed.reply(policed.ask(session, "SELECT year, count(*) FROM planes GROUP BY year", ANALYST))
    assert reply.error is not None and "main.planes" in reply.error


@pytest.mark.parametrize("question", [
    "which table has the aircraft manufacturer and number of seats",
    "where can I find plane models",
    "what tables are there",
])
async def test_discovery_never_lists_a_hidden_table(policed, session, question):
    reply = await policed.reply(policed.run_tool(session, "Data Discovery", {"question": question}, ANALYST))
    assert "planes" not in reply.text.lower() and "weather" not in reply.text.lower()


@pytest.mark.parametrize("question", ["what does seats mean?", "what is tailnum", "what does manufacturer mean"])
async def test_glossary_answers_skip_hidden_columns(policed, session, question):
    reply = await policed.reply(policed.ask(session, question, ANALYST))
    text = reply.text.lower()
    assert "planes." not in text and "flights.tailnum" not in text and "tail number" not in text


async def test_questions_about_hidden_data_get_no_numbers(policed, session):
    reply = await policed.reply(policed.ask(session, "average number of seats by manufacturer", ANALYST))
    if reply.ask_human is not None and reply.ask_human.kind == "confirm_sql":
        reply = await policed.reply(policed.resume(session, "run", ANALYST))
    assert reply.rows == [] and "planes" not in (reply.sql or "")


async def test_follow_ups_and_choices_name_only_readable_data(policed, session):
    reply = await policed.reply(policed.ask(session, "number of flights by carrier", ANALYST))
    reply = await policed.reply(policed.resume(session, "run", ANALYST))
    assert reply.error is None and reply.row_count > 0
    assert reply.follow_ups and not any("plane" in f.lower() or "tail" in f.lower() or "weather" in f.lower()
                                        for f in reply.follow_ups)


async def test_masked_column_comes_back_masked(policed, session, audit_file):
    reply = await policed.reply(policed.run_tool(
        session, "Chat BI Agent", {"sql": "SELECT carrier, name FROM airlines ORDER BY carrier", "dialect": "duckdb"},
        ANALYST))
    assert reply.error is None and reply.row_count == 16
    assert {row[1] for row in reply.rows} == {"***"}
    record = audit_records(audit_file)[-1]
    assert record["outcome"] == "ok" and "'***'" in record["executed_sql"]


async def test_masked_column_cannot_be_probed_by_a_filter(policed, session):
    reply = await policed.reply(policed.run_tool(
        session, "Chat BI Agent",
        {"sql": "SELECT count(*) AS n FROM airlines WHERE name LIKE 'United%'", "dialect": "duckdb"}, ANALYST))
    assert reply.error is None and reply.rows == [[0]]


async def test_masked_column_under_a_star_comes_back_masked(policed, session):
    reply = await policed.reply(policed.run_tool(
        session, "Chat BI Agent", {"sql": "SELECT * FROM airlines", "dialect": "duckdb"}, ANALYST))
    assert reply.error is None and reply.columns == ["carrier", "name"] and {r[1] for r in reply.rows} == {"***"}


async def test_masked_column_in_a_whole_row_is_refused(policed, session):
    reply = await policed.reply(policed.run_tool(
        session, "Chat BI Agent", {"sql": "SELECT to_json(a) FROM airlines a", "dialect": "duckdb"}, ANALYST))
    assert reply.error is not None and "main.airlines.name" in reply.error and "masked" in reply.error


async def test_two_groups_get_the_more_restrictive(policed, session):
    both = ChatContext(user="UBOTH", channel="CDATA")
    for sql, named in (("SELECT count(*) FROM airlines", "main.airlines"), ("SELECT avg(temp) FROM weather", "main.weather")):
        reply = await policed.reply(policed.run_tool(session, "Chat BI Agent", {"sql": sql, "dialect": "duckdb"}, both))
        _assert_refused(reply, named)
    ok = await policed.reply(policed.run_tool(
        session, "Chat BI Agent", {"sql": "SELECT count(*) FROM flights", "dialect": "duckdb"}, both))
    assert ok.error is None and ok.rows == [[336776]]


async def test_a_channel_rule_narrows_everyone_in_it(policed, session):
    ops_in_private = ChatContext(user="UOPS", channel="CDATA")
    ops_in_public = ChatContext(user="UOPS", channel="CPUBLIC")
    sql = {"sql": "SELECT count(*) FROM weather", "dialect": "duckdb"}
    assert (await policed.reply(policed.run_tool(session, "Chat BI Agent", sql, ops_in_private))).error is None
    _assert_refused(await policed.reply(policed.run_tool(session, "Chat BI Agent", sql, ops_in_public)), "main.weather")


async def test_allowed_queries_still_run(policed, session):
    sql = ("WITH d AS (SELECT origin, dep_delay FROM flights) "
           "SELECT a.name AS airport, avg(d.dep_delay) AS delay FROM d JOIN airports a ON a.faa = d.origin GROUP BY 1")
    reply = await policed.reply(policed.run_tool(session, "Chat BI Agent", {"sql": sql, "dialect": "duckdb"}, ANALYST))
    assert reply.error is None and reply.row_count == 3


async def test_an_out_of_scope_answer_names_only_readable_tables(policed, session):
    reply = await policed.reply(policed.ask(session, "write me a poem about the sea", ANALYST))
    assert "flights" in reply.text and "planes" not in reply.text and "weather" not in reply.text


def test_suggested_prompts_offer_only_questions_on_readable_tables(policed, base_context):
    hidden = {" ".join(e.question.split()) for e in base_context.catalog.data.examples
              if {"planes", "weather"} & set(e.tables)}
    mine = {p.message for p in policed.suggested_prompts(100, ANALYST)}
    assert hidden and mine and not (mine & hidden)
