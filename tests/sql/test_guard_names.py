"""Issue 25 item 1: functions are judged by their full name, lock and session functions by name,
unsafe statements keep their reason when the parser cannot read them, and executable comments are
refused by the guard, /fixsql and /explainsql alike."""

from __future__ import annotations

import itertools

import pytest

from agent.api import Assistant
from agent.errors import SqlSyntaxError, UnsafeSqlError
from agent.bootstrap import build_context
from agent.sql.explain import explain_sql
from agent.sql.guard import ensure_read_only

# A function named with its schema or database is one someone created, however built-in it sounds.
QUALIFIED = [
    ("mysql", "SELECT dev_bakeoff.lower(token) FROM t", "dev_bakeoff.lower"),
    ("mysql", "SELECT `db`.`left`(token, 2) FROM t", "db.left"),
    ("postgres", "SELECT myschema.lower(name) FROM t", "myschema.lower"),
    ("postgres", 'SELECT "s"."upper"(name) FROM t', "s.upper"),
    ("postgres", "SELECT pg_catalog.lower(name) FROM t", "pg_catalog.lower"),
    ("postgres", "SELECT * FROM s.generate_series(1, 3)", "s.generate_series"),
    ("duckdb", "SELECT main.lower('a')", "main.lower"),
    ("duckdb", "SELECT memory.main.m(1)", "memory.main.m"),
    ("snowflake", "SELECT db.sch.lower(name) FROM t", "db.sch.lower"),
    ("bigquery", "SELECT proj.ds.lower(name) FROM t", "proj.ds.lower"),
    ("bigquery", "SELECT `proj.ds.lower`(name) FROM t", "proj.ds.lower"),
]


@pytest.mark.parametrize("dialect,sql,name", QUALIFIED, ids=[q[2] for q in QUALIFIED])
def test_a_qualified_function_is_a_user_function(dialect, sql, name):
    with pytest.raises(UnsafeSqlError) as refused:
        ensure_read_only(sql, dialect)
    assert f"{name}()" in refused.value.user_message and "created" in refused.value.user_message


def test_bare_built_ins_and_bigquery_safe_prefix_still_run():
    ensure_read_only("SELECT lower(token) FROM t", "mysql")
    ensure_read_only("SELECT SAFE.SUBSTR(name, 1, 2) FROM t", "bigquery")
    ensure_read_only("SELECT t.lower_name FROM t", "postgres")


LOCKS = [
    ("mysql", "SELECT GET_LOCK('x', 10)"),
    ("mysql", "SELECT RELEASE_LOCK('x')"),
    ("mysql", "SELECT RELEASE_ALL_LOCKS()"),
    ("mysql", "SELECT IS_USED_LOCK('x')"),
    ("mysql", "SELECT IS_FREE_LOCK('x')"),
    ("mysql", "SELECT SLEEP(1)"),
    ("mysql", "SELECT BENCHMARK(1000000, md5('a'))"),
    ("mysql", "SELECT token FROM t WHERE get_lock(token, 0) = 1"),
    ("postgres", "SELECT pg_advisory_lock(1)"),
    ("postgres", "SELECT pg_try_advisory_xact_lock(1)"),
    ("postgres", "SELECT pg_advisory_unlock_all()"),
    ("postgres", "SELECT set_config('statement_timeout', '0', false)"),
    ("postgres", "SELECT pg_sleep(1)"),
    ("duckdb", "SELECT sleep_ms(10)"),
]


@pytest.mark.parametrize("dialect,sql", LOCKS)
def test_lock_and_session_functions_are_refused_by_name(dialect, sql):
    with pytest.raises(UnsafeSqlError) as refused:
        ensure_read_only(sql, dialect)
    assert "lock, wait, or change the session" in refused.value.user_message


# Statements that sqlglot cannot tokenize or parse: the refusal must still say what they would do.
UNREADABLE = [
    ("presto", r"SELECT 'it\'s' INTO OUTFILE '/tmp/x'", "INTO OUTFILE"),
    ("duckdb", r"LOAD DATA INFILE '/tmp/a\'b' INTO TABLE t", "LOAD"),
    ("postgres", r"HANDLER t READ FIRST WHERE a = 'x\'", "HANDLER"),
    ("mysql", "LOCK TABLES t READ", "LOCK"),
    ("mysql", "SELECT 1 FROM t PROCEDURE ANALYSE()", "PROCEDURE"),
    ("mysql", "XA START 'x'", "XA"),
    ("mysql", "DO SLEEP(5)", "DO"),
    ("mysql", "INSTALL SONAME 'ha_blackhole'", "INSTALL"),
    ("mysql", "FLUSH TABLES WITH READ LOCK", "FLUSH"),
]


@pytest.mark.parametrize("dialect,sql,label", UNREADABLE)
def test_unsafe_statements_keep_their_reason_when_they_do_not_parse(dialect, sql, label):
    with pytest.raises(UnsafeSqlError) as refused:
        ensure_read_only(sql, dialect)
    assert not isinstance(refused.value, SqlSyntaxError) and "syntax" not in refused.value.user_message
    assert f"({label})" in refused.value.user_message


EXECUTABLE = [
    "SELECT 1 /*! , SLEEP(5) */",
    "/*!50000 SELECT SLEEP(5) */",
    "SELECT dest FROM flights /*M! WHERE get_lock('x', 1) */",
    "SELECT dest FROM flights WHERE origin = 'JFK' /*!UNION SELECT name FROM airlines*/",
    "SELECT count(*) FROM flights /*! INTO OUTFILE '/tmp/x' */",
]


@pytest.mark.parametrize("sql", EXECUTABLE)
@pytest.mark.parametrize("dialect", ["mysql", "duckdb", "postgres"])
def test_executable_comments_are_refused(sql, dialect):
    with pytest.raises(UnsafeSqlError, match="executable comment"):
        ensure_read_only(sql, dialect)


@pytest.mark.parametrize("sql", EXECUTABLE)
def test_explain_never_explains_an_executable_comment(sql):
    with pytest.raises(UnsafeSqlError, match="executable comment"):
        explain_sql(sql, dialect="mysql")


_sessions = itertools.count()


@pytest.fixture(scope="module")
def assistant(settings, warehouse):
    return Assistant(build_context(settings, warehouse=warehouse))


@pytest.mark.parametrize("agent_name", ["Fix SQL Agent", "Explain SQL Agent"])
@pytest.mark.parametrize("sql", EXECUTABLE[:3])
async def test_fixsql_and_explainsql_refuse_executable_comments(assistant, agent_name, sql):
    reply = await assistant.reply(assistant.run_tool(f"exec-{next(_sessions)}", agent_name, {"sql": sql}))
    said = f"{reply.text or ''} {reply.error or ''}"
    assert "executable comment" in said and "refused" in said, said
    assert "already runs" not in said and reply.sql is None
