"""A schema zoo on each engine: PascalCase, quoted camelCase, spaces, reserved words, non-ASCII, a
view, the same table name in two schemas, no declared keys. Each is read with the URL alone (the
schemas found, not configured, where the engine has schemas), its values sampled, every table read
through the guard and the access policy, the bootstrapped model compiled and dry-run metric by
metric, and /fixsql and /explainsql run on its names. DuckDB, PostgreSQL and MariaDB for real;
Snowflake, BigQuery, Trino and ClickHouse as compiled-SQL snapshots."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pytest
import sqlglot

from agent.catalog.bootstrap_dbt import bootstrap, write_project
from agent.catalog.commands import bootstrap_document
from agent.catalog.compile_check import check_metrics
from agent.catalog.introspected import is_text
from agent.policy.access import Identity, Policy
from agent.policy.scope import warehouse_tables
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.layer import load_layer
from agent.sql.explain import explain_sql
from agent.sql.fix import fix_sql
from agent.warehouse import Column, Schema, TableInfo, open_warehouse
from agent.warehouse.base import needs_quotes
from tests.warehouse import servers
from tests.warehouse.conftest import server_settings

# {Q} is the engine's identifier quote, {shop} and {archive} the two schemas (databases on MariaDB).
ZOO = [
    "CREATE TABLE {shop}.{Q}Customers{Q} ({Q}CustomerId{Q} INT, {Q}FirstName{Q} VARCHAR(40), "
    "{Q}Region{Q} VARCHAR(20), {Q}SignedUp{Q} DATE)",
    "CREATE TABLE {shop}.{Q}orderLines{Q} ({Q}orderLineId{Q} INT, {Q}customerId{Q} INT, "
    "{Q}unitPrice{Q} DECIMAL(10, 2), {Q}quantity{Q} INT, {Q}orderedAt{Q} TIMESTAMP)",
    "CREATE TABLE {shop}.{Q}Sales Rep{Q} ({Q}Rep Name{Q} VARCHAR(40), {Q}Home Region{Q} VARCHAR(20), "
    "{Q}Target Amount{Q} DECIMAL(10, 2))",
    "CREATE TABLE {shop}.{Q}order{Q} ({Q}select{Q} VARCHAR(20), {Q}group{Q} VARCHAR(20), {Q}amount{Q} DECIMAL(10, 2))",
    "CREATE TABLE {shop}.{Q}Größe{Q} ({Q}Maß{Q} VARCHAR(20), {Q}Gewicht{Q} DECIMAL(10, 2))",
    "CREATE VIEW {shop}.{Q}BigOrders{Q} AS SELECT {Q}customerId{Q}, {Q}unitPrice{Q} * {Q}quantity{Q} AS "
    "{Q}lineTotal{Q} FROM {shop}.{Q}orderLines{Q} WHERE {Q}quantity{Q} > 1",
    "CREATE TABLE {archive}.{Q}orderLines{Q} ({Q}orderLineId{Q} INT, {Q}unitPrice{Q} DECIMAL(10, 2), {Q}quantity{Q} INT)",
    "INSERT INTO {shop}.{Q}Customers{Q} VALUES (1, 'Ann', 'North', DATE '2024-01-02'), (2, 'Bo', 'South', DATE '2024-02-03')",
    "INSERT INTO {shop}.{Q}orderLines{Q} VALUES (1, 1, 2.50, 3, TIMESTAMP '2024-03-01 10:00:00'), "
    "(2, 2, 4.00, 1, TIMESTAMP '2024-03-02 11:00:00')",
    "INSERT INTO {shop}.{Q}Sales Rep{Q} VALUES ('Cy', 'North', 100), ('Di', 'South', 200)",
    "INSERT INTO {shop}.{Q}order{Q} VALUES ('a', 'x', 1), ('b', 'y', 2)",
    "INSERT INTO {shop}.{Q}Größe{Q} VALUES ('groß', 1.5), ('klein', 0.5)",
    "INSERT INTO {archive}.{Q}orderLines{Q} VALUES (9, 1.00, 7)",
]
TABLES = {"Customers", "orderLines", "Sales Rep", "order", "Größe", "BigOrders"}
# the archive's orderLines is denied: the shop's, with the same name, stays readable
POLICY = "version: 1\ncontact: \"#data\"\ndefault: allow\nrules:\n  - everyone: true\n    deny: [{archive}.orderLines]\n"


def zoo(shop: str, archive: str, quote: str) -> list[str]:
    return [s.format(shop=shop, archive=archive, Q=quote) for s in ZOO]


def exercise(warehouse, settings, tmp_path: Path, shop: str, archive: str) -> None:
    dialect = warehouse.dialect
    schema = warehouse.schema()
    found = {(info.schema, info.name) for info in schema.info.values()}
    assert {(shop, t) for t in TABLES} | {(archive, "orderLines")} <= found
    lines = [k for k, i in schema.info.items() if i.name == "orderLines"]
    assert len(lines) == 2 and len({len(schema.tables[k]) for k in lines}) == 2  # apart, each its own columns
    assert schema.key_of(f"{shop}.Customers") == schema.key_of(f'"{shop}"."Customers"') is not None

    texts = [(k, c.name) for k, cols in schema.tables.items() for c in cols
             if is_text(c.type) and schema.info[k].schema in (shop, archive)]
    values = {(k, c): sorted(map(str, warehouse.distinct_values(k, c))) for k, c in texts}
    assert values[(schema.key_of(f"{shop}.Größe"), "Maß")] == ["groß", "klein"]
    assert values[(schema.key_of(f"{shop}.Sales Rep"), "Rep Name")] == ["Cy", "Di"]

    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(POLICY.format(archive=archive))
    access = Policy.load(policy_file).access_for(Identity(user="U1"), *warehouse_tables(warehouse), dialect)
    for key, columns in schema.tables.items():
        if schema.info[key].schema not in (shop, archive):
            continue  # the fixture's own tables, one of them not granted
        listed = ", ".join(schema_column(c.name, dialect) for c in columns)
        sql = f"SELECT {listed} FROM {schema.reference(key, dialect)}"
        if schema.info[key].schema == archive:
            with pytest.raises(Exception, match="(?i)access"):
                access.authorize(sql)
            continue
        assert warehouse.run(access.authorize(sql)).row_count >= 1, sql

    folder = tmp_path / "semantic"
    write_project(bootstrap_document(warehouse, schema, settings), folder)
    model = load_layer(folder, dialect=dialect)
    report = check_metrics(model, warehouse, budget_s=120, root=folder)
    assert report.failures == [] and report.compiled == report.checked >= len(TABLES), report.failures

    broken = f'SELECT {schema_column("Rep Name", dialect)}, count(* FROM {schema.reference(schema.key_of(f"{shop}.Sales Rep"), dialect)} GROUP BY 1'
    fixed = fix_sql(broken, dialect=dialect, schema=schema, dry_run=warehouse.dry_run, target=dialect)
    assert fixed.valid and fixed.fixed_sql, fixed
    warehouse.dry_run(fixed.fixed_sql)
    assert "Rep Name" in fixed.fixed_sql
    reserved = f'SELECT {schema_column("group", dialect)}, sum(amount) FROM {schema.reference(schema.key_of(f"{shop}.order"), dialect)} GROUP BY 1'
    explained = explain_sql(reserved, dialect=dialect)
    assert "order" in json.dumps(explained.model_dump(), ensure_ascii=False)


def schema_column(name: str, dialect: str) -> str:
    from agent.warehouse.base import quote

    return quote(name, dialect)


def test_duckdb_zoo_read_with_the_url_alone(tmp_path):
    path = tmp_path / "zoo.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA shop; CREATE SCHEMA archive")
    for statement in zoo("shop", "archive", '"'):
        con.execute(statement)
    con.close()
    settings = server_settings(tmp_path, f"duckdb:///{path}")
    warehouse = open_warehouse(settings)
    try:
        exercise(warehouse, settings, tmp_path, "shop", "archive")
        # bare names in pasted SQL mean the schema the catalog calls bare
        assert warehouse.run('SELECT count(*) FROM "Customers"').rows == [(2,)]
    finally:
        warehouse.close()


def test_postgres_zoo_read_with_the_url_alone(tmp_path, pg_database):
    psycopg = pytest.importorskip("psycopg")
    name, role = pg_database
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
        con.execute("CREATE SCHEMA shop; CREATE SCHEMA archive")
        for statement in zoo("shop", "archive", '"'):
            con.execute(statement)
        con.execute(f"GRANT USAGE ON SCHEMA shop, archive TO {role}")
        con.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA shop, archive TO {role}")
    settings = server_settings(tmp_path, f"postgresql://{role}:bot-secret-pw@127.0.0.1:5432/{name}")
    warehouse = open_warehouse(settings)
    try:
        exercise(warehouse, settings, tmp_path, "shop", "archive")
        assert warehouse.schema().default_schema == "public"  # the fixture's own tables live there
    finally:
        warehouse.close()


def test_mariadb_zoo_in_two_databases(tmp_path, mysql_database):
    pymysql = pytest.importorskip("pymysql")
    name, user = mysql_database
    archive = f"{name}_archive"
    admin = pymysql.connect(host=servers.MYSQL_HOST, port=servers.MYSQL_PORT, user="root", autocommit=True)
    try:
        with admin.cursor() as cur:
            cur.execute(f"CREATE DATABASE `{archive}` CHARACTER SET utf8mb4")
            for statement in zoo(f"`{name}`", f"`{archive}`", "`"):
                cur.execute(statement)
            for host in ("%", "localhost"):
                for database in (name, archive):
                    cur.execute(f"GRANT SELECT ON `{database}`.* TO '{user}'@'{host}'")
        settings = server_settings(tmp_path, f"mysql://{user}:bot-secret-pw@127.0.0.1:3306/{name}",
                                   warehouse_schemas=f"{name},{archive}")
        warehouse = open_warehouse(settings)
        try:
            exercise(warehouse, settings, tmp_path, name, archive)
            # MySQL's REGEXP_LIKE, as sqlglot writes regexps for MySQL, runs on MariaDB as REGEXP
            regexp = f"SELECT `Rep Name` FROM `{name}`.`Sales Rep` WHERE REGEXP_LIKE(`Rep Name`, '^C')"
            assert warehouse.run(regexp).rows == [("Cy",)]
        finally:
            warehouse.close()
    finally:
        with admin.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS `{archive}`")
        admin.close()


# -- engines without a server here: the compiled SQL, as snapshots ----------------------------------

SNAPSHOTS = Path(__file__).parent / "zoo_snapshots"


def zoo_schema() -> Schema:
    """The zoo as SQLAlchemy reports it (Snowflake's case-blind upper-case names come back lower-case)."""
    schema = Schema(default_schema="shop")
    tables = {
        "Customers": [("CustomerId", "INTEGER"), ("FirstName", "VARCHAR(40)"), ("Region", "VARCHAR(20)"),
                      ("SignedUp", "DATE")],
        "orderLines": [("orderLineId", "INTEGER"), ("customerId", "INTEGER"), ("unitPrice", "DECIMAL(10, 2)"),
                       ("quantity", "INTEGER"), ("orderedAt", "TIMESTAMP")],
        "Sales Rep": [("Rep Name", "VARCHAR(40)"), ("Home Region", "VARCHAR(20)"), ("Target Amount", "DECIMAL(10, 2)")],
        "order": [("select", "VARCHAR(20)"), ("group", "VARCHAR(20)"), ("amount", "DECIMAL(10, 2)")],
        "Größe": [("Maß", "VARCHAR(20)"), ("Gewicht", "DECIMAL(10, 2)")],
    }
    for name, columns in tables.items():
        key = name.lower()
        schema.tables[key] = [Column(c, t) for c, t in columns]
        schema.info[key] = TableInfo("shop", name)
    schema.tables["archive.orderlines"] = [Column("orderLineId", "INTEGER"), Column("unitPrice", "DECIMAL(10, 2)")]
    schema.info["archive.orderlines"] = TableInfo("archive", "orderLines")
    return schema


@pytest.mark.parametrize("dialect", ["snowflake", "bigquery", "trino", "clickhouse"])
def test_zoo_compiles_on_engines_without_a_server(dialect, tmp_path):
    schema = zoo_schema()
    write_project(bootstrap(schema, dialect=dialect, default_schema="shop"), tmp_path)
    model = load_layer(tmp_path, dialect=dialect)
    compiled = {m.name: compile_intent(StructuredIntent(metrics=[m.name]), model, dialect).sql for m in model.metrics}
    assert len(compiled) >= len(TABLES) - 1
    for sql in compiled.values():
        sqlglot.parse_one(sql, read=dialect)  # the engine's own grammar reads it back
    text = "\n".join(compiled.values())
    case_folding = dialect in ("snowflake", "trino")
    assert needs_quotes("orderLines", dialect) == case_folding
    assert ('"orderLines"' in text) == case_folding
    assert "archive" in {i.schema for i in schema.info.values()}
    snapshot = SNAPSHOTS / f"{dialect}.json"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        snapshot.parent.mkdir(exist_ok=True)
        snapshot.write_text(json.dumps(compiled, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    assert compiled == json.loads(snapshot.read_text(encoding="utf-8"))
