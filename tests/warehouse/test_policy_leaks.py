"""Leak attempts on real PostgreSQL and MariaDB: the access policy hides a table, a column and
masks another, and every route a query or an answer takes must refuse or leave them out, as on
DuckDB (tests/policy/test_leaks.py). The policy names the hidden table without its schema and
the column with it, so the warehouse's own default schema (`public`, the database) is what a
bare name means."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest

from agent.api import AgentName, Assistant, ChatContext
from agent.bootstrap import build_context
from tests.warehouse.conftest import server_settings

pytest.importorskip("sqlalchemy")

POLICY = """\
version: 1
contact: "#data-access"
default: allow
rules:
  - name: nobody reads salaries; customer names are private; segments are masked
    everyone: true
    deny: [secret_salaries, {schema}.customers.name]
    mask: [{schema}.customers.segment]
"""

PERSON = ChatContext(user="UANALYST", channel="CDATA")
_sessions = itertools.count()

# Spelt every way a query can reach the hidden table or column; `{schema}` is the default schema.
COMMON = [
    ("plain table", "SELECT * FROM secret_salaries", "secret_salaries"),
    ("schema-qualified", "SELECT count(*) FROM {schema}.secret_salaries", "secret_salaries"),
    ("one column", "SELECT salary FROM secret_salaries", "secret_salaries"),
    ("alias", "SELECT s.salary FROM secret_salaries AS s", "secret_salaries"),
    ("alias without AS", "SELECT s.person FROM secret_salaries s", "secret_salaries"),
    ("cte", "WITH x AS (SELECT * FROM secret_salaries) SELECT count(*) FROM x", "secret_salaries"),
    ("cte named like a readable table",
     "WITH orders AS (SELECT * FROM secret_salaries) SELECT * FROM orders", "secret_salaries"),
    ("nested cte", "WITH a AS (SELECT salary FROM secret_salaries), b AS (SELECT * FROM a) SELECT * FROM b",
     "secret_salaries"),
    ("subquery in from", "SELECT m FROM (SELECT salary AS m FROM secret_salaries) t", "secret_salaries"),
    ("scalar subquery", "SELECT (SELECT max(salary) FROM secret_salaries) AS most", "secret_salaries"),
    ("in subquery", "SELECT count(*) FROM orders WHERE amount IN (SELECT salary FROM secret_salaries)",
     "secret_salaries"),
    ("exists", "SELECT count(*) FROM orders WHERE EXISTS (SELECT 1 FROM secret_salaries)", "secret_salaries"),
    ("union all", "SELECT status FROM orders UNION ALL SELECT person FROM secret_salaries", "secret_salaries"),
    ("union", "SELECT status FROM orders UNION SELECT person FROM secret_salaries", "secret_salaries"),
    ("join", "SELECT o.id FROM orders o JOIN secret_salaries s ON s.salary = o.amount", "secret_salaries"),
    ("left join", "SELECT o.id, s.person FROM orders o LEFT JOIN secret_salaries s ON s.salary = o.id",
     "secret_salaries"),
    ("comma join", "SELECT o.id, s.salary FROM orders o, secret_salaries s", "secret_salaries"),
    ("window", "SELECT row_number() OVER (ORDER BY salary) AS n FROM secret_salaries", "secret_salaries"),
    ("group by", "SELECT person, sum(salary) FROM secret_salaries GROUP BY person", "secret_salaries"),
    ("count star only", "SELECT count(*) FROM secret_salaries", "secret_salaries"),
    ("table star", "SELECT s.* FROM secret_salaries s", "secret_salaries"),
    ("derived table in a cte join",
     "WITH o AS (SELECT id FROM orders) SELECT o.id FROM o JOIN (SELECT salary FROM secret_salaries) z ON z.salary = o.id",
     "secret_salaries"),
    ("denied column", "SELECT name FROM customers", "customers.name"),
    ("denied column qualified", "SELECT c.name FROM customers c", "customers.name"),
    ("denied column by star", "SELECT * FROM customers", "customers.name"),
    ("denied column by table star", "SELECT c.* FROM customers c", "customers.name"),
    ("denied column through a cte star", "WITH x AS (SELECT * FROM customers) SELECT count(*) FROM x",
     "customers.name"),
    ("denied column in a filter", "SELECT count(*) FROM customers WHERE name = 'customer 1'", "customers.name"),
    ("denied column in group by", "SELECT count(*) FROM customers GROUP BY name", "customers.name"),
    ("denied column in order by", "SELECT id FROM customers ORDER BY name LIMIT 1", "customers.name"),
    ("denied column distinct count", "SELECT count(DISTINCT name) FROM customers", "customers.name"),
    ("denied column in a function", "SELECT upper(name) FROM customers", "customers.name"),
    ("denied column through a subquery", "SELECT n FROM (SELECT name AS n FROM customers) t", "customers.name"),
    ("denied column in a union", "SELECT status FROM orders UNION SELECT name FROM customers", "customers.name"),
    ("denied column by a star over a join",
     "SELECT * FROM orders JOIN customers ON customers.id = orders.customer_id LIMIT 1", "customers.name"),
    ("denied column in a join condition",
     "SELECT count(*) FROM orders o JOIN customers c ON c.name = o.status", "customers.name"),
    ("information_schema tables", "SELECT table_name FROM information_schema.tables", "information_schema"),
    ("information_schema columns", "SELECT column_name FROM information_schema.columns", "information_schema"),
]

ENGINE_ONLY = {
    "postgres": [
        ("whole row", "SELECT c FROM customers c", "customers.name"),
        ("a derived table's star", "SELECT x.name FROM (SELECT * FROM customers) x", "customers.name"),
        ("lateral", "SELECT o.id, z.salary FROM orders o, LATERAL (SELECT salary FROM secret_salaries LIMIT 1) z",
         "secret_salaries"),
        ("quoted", 'SELECT "salary" FROM "secret_salaries"', "secret_salaries"),
        ("pg_catalog", "SELECT relname FROM pg_catalog.pg_class", "pg_class"),
        ("pg_tables", "SELECT tablename FROM pg_tables", "pg_tables"),
        ("pg_settings", "SELECT name, setting FROM pg_settings", "pg_settings"),
        ("pg_user", "SELECT usename FROM pg_user", "pg_user"),
        ("pg_stat_activity", "SELECT query FROM pg_stat_activity", "pg_stat_activity"),
        ("information_schema schemata", "SELECT schema_name FROM information_schema.schemata", "information_schema"),
    ],
    "mysql": [
        ("backticks", "SELECT `salary` FROM `secret_salaries`", "secret_salaries"),
        ("backticks qualified", "SELECT * FROM `{schema}`.`secret_salaries`", "secret_salaries"),
        ("straight_join", "SELECT o.id FROM orders o STRAIGHT_JOIN secret_salaries s ON s.salary = o.id",
         "secret_salaries"),
        ("concat of a hidden column", "SELECT concat(name, '') AS n FROM customers", "customers.name"),
        ("mysql.user", "SELECT user, host FROM mysql.user", "mysql.user"),
        ("mysql.db", "SELECT * FROM mysql.db", "mysql.db"),
        ("performance_schema", "SELECT * FROM performance_schema.threads", "performance_schema"),
        ("sys schema", "SELECT * FROM sys.session", "sys.session"),
        ("information_schema schemata", "SELECT schema_name FROM information_schema.schemata", "information_schema"),
        ("information_schema processlist", "SELECT info FROM information_schema.processlist", "information_schema"),
    ],
}

ATTEMPTS = {engine: COMMON + extra for engine, extra in ENGINE_ONLY.items()}
SYSTEM = ("information_schema", "pg_", "mysql.", "performance_schema", "sys.")


@pytest.fixture(scope="module", params=["postgres", "mysql"])
def engine(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def assistants(tmp_path_factory):
    """Each engine's assistant, opened on first use and shared by the module's tests. It does not hang on
    the `engine` fixture: the pasted-SQL tests parametrize `engine` per test, and a module fixture that
    depended on it was torn down and rebuilt around every one of them (~30 s of CPU a run)."""
    opened: dict[str, tuple] = {}

    def open_on(engine: str, database: str) -> tuple:
        if engine not in opened:
            if engine == "postgres":
                url, schema = f"postgresql://postgres@127.0.0.1:5432/{database}", "public"
            else:
                url, schema = f"mysql://root@127.0.0.1:3306/{database}", database.lower()
            folder = tmp_path_factory.mktemp(f"policy-{engine}")
            policy = folder / "policy.yaml"
            policy.write_text(POLICY.format(schema=schema))
            audit = folder / "audit.jsonl"
            settings = server_settings(folder, url, policy_path=policy, audit_path=str(audit))
            opened[engine] = (Assistant(build_context(settings)), audit, schema)
        return opened[engine]

    yield open_on
    for assistant, _, _ in opened.values():
        asyncio.run(assistant.aclose())  # its worker processes, audit file and connections


@pytest.fixture
def served(engine, assistants, request):
    """(assistant, audit file, default schema) over a fresh database of `engine` under the policy."""
    name, _ = request.getfixturevalue("pg_database" if engine == "postgres" else "mysql_database")
    return assistants(engine, name)


@pytest.fixture
def session(engine):
    return f"leak-{engine}-{next(_sessions)}"


def _refused(reply, named: str) -> None:
    assert reply.error is not None, reply.text
    assert named in reply.error, reply.error
    # System catalogs may be refused by the read-only guard before the policy sees them (no contact then).
    assert named.startswith(SYSTEM) or "#data-access" in reply.error, reply.error
    assert reply.rows == [] and reply.row_count == 0


def _attempts(engine: str) -> list:
    return [pytest.param(engine, sql, named, id=f"{engine}-{label}") for label, sql, named in ATTEMPTS[engine]]


def test_at_least_forty_attempts_per_engine():
    assert all(len(attempts) >= 40 for attempts in ATTEMPTS.values()), {e: len(a) for e, a in ATTEMPTS.items()}


@pytest.mark.parametrize("engine,sql,named", _attempts("postgres") + _attempts("mysql"), indirect=["engine"])
async def test_pasted_sql_is_refused_by_name(engine, served, session, sql, named):
    assistant, audit, schema = served
    sql = sql.format(schema=schema)
    reply = await assistant.reply(assistant.run_tool(session, "Chat BI Agent", {"sql": sql, "dialect": engine}, PERSON))
    _refused(reply, named)
    if named.startswith(SYSTEM):
        return
    assert f"{schema}.{named}" in reply.error  # named with the warehouse's own schema
    record = json.loads(audit.read_text().splitlines()[-1])
    assert record["outcome"] == "refused" and record["error_code"] == "access_denied" and record["rows"] is None


@pytest.mark.parametrize("sql", [
    "SELECT salary FORM secret_salaries",
    "SELECT name, count(*) FROM customers GROUP BY 1 ORDER BY",
    "SELECT * FROM information_schema.tables WHERE",
    "SELECT salry FROM secret_salaries",
])
async def test_fixsql_refuses_instead_of_repairing(served, session, sql):
    assistant, _, _ = served
    reply = await assistant.reply(assistant.run_tool(session, "Fix SQL Agent", {"sql": sql}, PERSON))
    assert reply.error is not None and "#data-access" in reply.error, reply.text
    assert "salary" not in reply.text.replace(sql, "") and reply.rows == []


@pytest.mark.parametrize("sql,named", [
    ("SELECT person, sum(salary) FROM secret_salaries GROUP BY person", "secret_salaries"),
    ("WITH p AS (SELECT * FROM secret_salaries) SELECT * FROM p", "secret_salaries"),
    ("SELECT name FROM customers", "customers.name"),
])
async def test_explainsql_refuses_by_name(served, session, sql, named):
    assistant, _, _ = served
    reply = await assistant.reply(assistant.run_tool(session, "Explain SQL Agent", {"sql": sql}, PERSON))
    assert reply.error is not None and named in reply.error and "person" not in reply.text


async def _confirmation(assistant, session):
    reply = await assistant.reply(assistant.ask(session, "number of orders by status", PERSON))
    assert reply.ask_human is not None and reply.ask_human.kind == "confirm_sql", reply.text
    return reply


async def test_edited_sql_at_the_confirmation_is_checked(served, session):
    assistant, audit, schema = served
    await _confirmation(assistant, session)
    edited = await assistant.reply(assistant.resume(session, "edit", PERSON, edited_sql="SELECT * FROM secret_salaries"))
    _refused(edited, f"{schema}.secret_salaries")
    assert json.loads(audit.read_text().splitlines()[-1])["outcome"] == "refused"


async def test_an_edit_in_the_warehouse_dialect_runs(engine, served, session):
    """The Edit button's check reads the warehouse's dialect: PostgreSQL's `#` (bitwise xor) and
    MySQL's backtick-quoted names are syntax errors to DuckDB's reader."""
    assistant, _, _ = served
    await _confirmation(assistant, session)
    sql = {"postgres": "SELECT count(*) AS n FROM orders WHERE (id # 1) > id",
           "mysql": "SELECT count(*) AS n FROM `orders` WHERE `status` = 'open'"}[engine]
    reply = await assistant.reply(assistant.resume(session, "edit", PERSON, edited_sql=sql))
    assert reply.error is None, reply.error
    assert reply.rows == [[{"postgres": 1500, "mysql": 1}[engine]]]


async def test_a_thread_reply_with_sql_is_checked(served, session):
    assistant, _, schema = served
    await _confirmation(assistant, session)
    reply = await assistant.reply(assistant.ask(session, "SELECT person, salary FROM secret_salaries", PERSON))
    assert reply.error is not None and f"{schema}.secret_salaries" in reply.error


@pytest.mark.parametrize("question", [
    "which table has salaries",
    "where can I find the salary of a person",
    "what tables are there",
])
async def test_catalog_questions_never_list_the_hidden_table(served, session, question):
    assistant, _, _ = served
    reply = await assistant.reply(assistant.run_tool(session, "Data Discovery", {"question": question}, PERSON))
    assert "secret_salaries" not in reply.text.lower() and "salar" not in reply.text.lower()


async def test_questions_about_hidden_data_get_no_numbers(served, session):
    assistant, _, _ = served
    reply = await assistant.reply(assistant.ask(session, "total salary by person", PERSON))
    if reply.ask_human is not None and reply.ask_human.kind == "confirm_sql":
        reply = await assistant.reply(assistant.resume(session, "run", PERSON))
    assert reply.rows == [] and "secret_salaries" not in (reply.sql or "")


async def test_follow_ups_name_only_readable_data(served, session):
    assistant, _, _ = served
    await _confirmation(assistant, session)
    reply = await assistant.reply(assistant.resume(session, "run", PERSON))
    assert reply.error is None and reply.row_count > 0
    assert not any("salar" in f.lower() or "customer name" in f.lower() for f in reply.follow_ups)


async def test_masked_column_comes_back_masked(served, session):
    assistant, _, _ = served
    reply = await assistant.reply(assistant.run_tool(
        session, "Chat BI Agent", {"sql": "SELECT id, segment FROM customers ORDER BY id LIMIT 2"}, PERSON))
    assert reply.error is None and [r[1] for r in reply.rows] == ["***", "***"]


async def test_readable_queries_still_run(engine, served, session):
    assistant, _, schema = served
    sql = (f"WITH o AS (SELECT customer_id, amount FROM {schema}.orders) "
           "SELECT c.segment IS NULL AS unknown, count(*) AS n FROM o JOIN customers c ON c.id = o.customer_id GROUP BY 1")
    reply = await assistant.reply(assistant.run_tool(session, "Chat BI Agent", {"sql": sql}, PERSON))
    assert reply.error is None, reply.error
    assert sum(r[1] for r in reply.rows) == {"postgres": 3000, "mysql": 2}[engine]


def test_the_semantic_layer_hides_what_the_policy_hides(served):
    """The bootstrapped dbt model has a semantic model per table; the person's has none on the
    hidden table and no dimension on the hidden column, and the compiler's project agrees."""
    assistant, _, _ = served
    full = assistant.context.semantic.project
    mine = assistant.governance.context_for(assistant.context, PERSON).semantic
    assert any(m.relation.endswith("secret_salaries") for m in full.semantic_models)
    assert not any(m.relation.endswith("secret_salaries") for m in mine.project.semantic_models)
    assert not any("salar" in name for name in [*mine.metric_by_name, *mine.dimension_by_name])
    customers = next(m for m in mine.project.semantic_models if m.relation.endswith("customers"))
    assert "name" not in {d.expr for d in customers.dimensions}
    assert {m.name for m in mine.metrics} == set(mine.project.metric_by_name)


async def test_odd_identifiers_still_run_under_the_policy(engine, served, session):
    assistant, _, _ = served
    sql = {"postgres": 'SELECT "Weird Name", "Größe" FROM "Mixed Case" ORDER BY 1',
           "mysql": "SELECT `Weird Name`, `Größe` FROM `Mixed Case` ORDER BY 1"}[engine]
    reply = await assistant.reply(assistant.run_tool(session, "Chat BI Agent", {"sql": sql, "dialect": engine}, PERSON))
    assert reply.error is None, reply.error
    assert reply.rows == [["a", 1], ["b", 2]]


SEGMENTS = ("online", "retail")  # the masked column's real values


def test_the_masked_columns_values_leave_every_word(served):
    """Issue 25 item 2: the catalog, the model and the value index the person gets name no value of
    the masked column, and its values are not read for them."""
    assistant, _, _ = served
    mine = assistant.governance.context_for(assistant.context, PERSON)
    words = " ".join(f"{c.name} {c.description}" for c in mine.catalog.describe_table("customers").columns)
    raw = mine.catalog.data.model_dump_json().lower()
    assert "segment" in words and not any(v in raw for v in SEGMENTS), raw
    assert not any(v in " ".join(map(str, vs)).lower() for vs in mine.values.values.values() for v in SEGMENTS)
    assert not any(p.value.lower() in SEGMENTS for p in mine.values.phrases)
    assert mine.warehouse.distinct_values("customers", "segment") == []


async def test_explaining_sql_on_the_masked_column_names_no_value(served, session):
    assistant, _, _ = served
    reply = await assistant.reply(assistant.run_tool(
        session, "Explain SQL Agent", {"sql": "SELECT segment, count(*) AS n FROM customers GROUP BY segment"}, PERSON))
    said = f"{reply.text} {reply.error}".lower()
    assert "segment" in said and not any(v in said for v in SEGMENTS), said


async def test_a_masked_value_reads_like_a_made_up_one(served, engine):
    assistant, _, _ = served
    replies = []
    for value in ("retail", "zorblax"):
        session = f"oracle-{engine}-{value}-{next(_sessions)}"
        reply = await assistant.reply(assistant.ask(session, f"how many customers in the {value} segment?", PERSON))
        if reply.ask_human is not None and reply.ask_human.kind == "confirm_sql":
            reply = await assistant.reply(assistant.resume(session, "run", PERSON))
        assert reply.error is None or "try again" not in reply.error, reply.error
        replies.append(tuple(str(x).replace(value, "<v>") for x in (reply.text, reply.error, reply.sql, reply.rows)))
    assert replies[0] == replies[1]


async def test_why_after_an_answer_explains_its_sql_in_the_warehouses_dialect(engine, served, session):
    """'why?' explains the last answer's SQL, which is written in the warehouse's dialect (MySQL's
    backticks), not in DuckDB's, the demo's."""
    assistant, _, _ = served
    sql = {"postgres": 'SELECT "Weird Name", "Größe" FROM "Mixed Case" ORDER BY 1',
           "mysql": "SELECT `Weird Name`, `Größe` FROM `Mixed Case` ORDER BY 1"}[engine]
    ran = await assistant.reply(assistant.run_tool(session, AgentName.CHAT_BI, {"sql": sql, "dialect": engine}, PERSON))
    assert ran.error is None and ran.rows, ran.error
    why = await assistant.reply(assistant.ask(session, "why?", PERSON))
    assert why.error is None, why.error
    assert why.tools == ["explain_sql"] and "Mixed Case" in why.text, why.text
