"""The access policy keeps names as the engine spells them: on an engine that keeps `Bakers` and
`bakers` apart (MariaDB's tables, PostgreSQL's quoted names) a rule on one never touches the other,
and a rule written in another case than the only table it can mean still applies (never fails open)."""

from __future__ import annotations

import pytest

from agent.policy.access import AccessDenied, Identity, Policy
from agent.policy.scope import warehouse_tables
from agent.warehouse import open_warehouse
from tests.warehouse import servers
from tests.warehouse.conftest import server_settings

POLICY = """version: 1
contact: "#data"
default: allow
rules:
  - everyone: true
    deny: [{db}.bakers, {db}.JUDGES]
    mask: [{db}.Bakers.Secret]
"""


def check(warehouse, tmp_path, db: str, q: str) -> None:
    (tmp_path / "policy.yaml").write_text(POLICY.format(db=db))
    tables, default_schema = warehouse_tables(warehouse)
    assert {(db, "Bakers"), (db, "bakers"), (db, "Judges")} <= set(tables)
    access = Policy.load(tmp_path / "policy.yaml").access_for(Identity(user="U1"), tables, default_schema,
                                                              warehouse.dialect)
    readable = f"SELECT {q}Name{q} FROM {q}Bakers{q}"
    assert access.authorize(readable) == readable
    assert warehouse.run(access.authorize(readable)).rows == [("Ann",)]
    masked = access.authorize(f"SELECT {q}Secret{q} FROM {q}Bakers{q}")
    assert warehouse.run(masked).rows == [("***",)]
    with pytest.raises(AccessDenied, match="bakers"):
        access.authorize(f"SELECT {q}name{q} FROM {q}bakers{q}")
    with pytest.raises(AccessDenied, match="Judges"):  # 'JUDGES' can only mean `Judges`
        access.authorize(f"SELECT * FROM {q}Judges{q}")


def test_postgres_keeps_quoted_names_apart(tmp_path):
    servers.require(5432, "PostgreSQL", "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start")
    psycopg = pytest.importorskip("psycopg")
    name = f"sda_case_{servers.suffix()}"
    with psycopg.connect(servers.PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
            con.execute('CREATE TABLE "Bakers" ("Name" text, "Secret" text)')
            con.execute("CREATE TABLE bakers (name text, secret text)")
            con.execute('CREATE TABLE "Judges" ("Name" text)')
            con.execute("""INSERT INTO "Bakers" VALUES ('Ann', 's1'); INSERT INTO bakers VALUES ('Bo', 's2');
                           INSERT INTO "Judges" VALUES ('Cy')""")
        warehouse = open_warehouse(server_settings(tmp_path, f"postgresql://postgres@127.0.0.1:5432/{name}"))
        try:
            check(warehouse, tmp_path, "public", '"')
        finally:
            warehouse.close()
    finally:
        with psycopg.connect(servers.PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_mariadb_keeps_table_names_apart(tmp_path):
    servers.require(3306, "MariaDB/MySQL", "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd")
    pymysql = pytest.importorskip("pymysql")
    name = f"sda_case_{servers.suffix()}"
    admin = pymysql.connect(host=servers.MYSQL_HOST, port=servers.MYSQL_PORT, user="root", autocommit=True)
    try:
        with admin.cursor() as cur:
            cur.execute("SELECT @@lower_case_table_names")
            if cur.fetchone()[0] != 0:
                pytest.skip("this server folds table names, so it cannot hold Bakers and bakers apart")
            cur.execute(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4")
            cur.execute(f"USE `{name}`")
            cur.execute("CREATE TABLE `Bakers` (`Name` VARCHAR(20), `Secret` VARCHAR(20))")
            cur.execute("CREATE TABLE `bakers` (`name` VARCHAR(20), `secret` VARCHAR(20))")
            cur.execute("CREATE TABLE `Judges` (`Name` VARCHAR(20))")
            cur.execute("INSERT INTO `Bakers` VALUES ('Ann', 's1')")
            cur.execute("INSERT INTO `bakers` VALUES ('Bo', 's2')")
            cur.execute("INSERT INTO `Judges` VALUES ('Cy')")
        warehouse = open_warehouse(server_settings(tmp_path, f"mysql://root@127.0.0.1:3306/{name}"))
        try:
            check(warehouse, tmp_path, name, "`")
        finally:
            warehouse.close()
    finally:
        with admin.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
        admin.close()
