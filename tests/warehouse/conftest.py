from __future__ import annotations

import pytest

from agent.settings import load_settings
from tests.warehouse import servers


@pytest.fixture(scope="module")
def pg_database():
    """(database name, bot role) on the local PostgreSQL; both dropped afterwards."""
    servers.require(5432, "PostgreSQL", "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start")
    psycopg = pytest.importorskip("psycopg")
    name, role = f"sda_test_{servers.suffix()}", f"sda_bot_{servers.suffix()}"
    with psycopg.connect(servers.PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'bot-secret-pw'")
    try:
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
            for statement in servers.PG_SCHEMA:
                con.execute(statement)
            con.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
            con.execute(f'GRANT SELECT ON customers, orders, "Mixed Case" TO {role}')
        yield name, role
    finally:
        with psycopg.connect(servers.PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f"DROP ROLE IF EXISTS {role}")


@pytest.fixture(scope="module")
def mysql_database():
    """(database name, bot user) on the local MariaDB/MySQL; both dropped afterwards."""
    servers.require(3306, "MariaDB/MySQL", "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd")
    pymysql = pytest.importorskip("pymysql")
    name, user = f"sda_test_{servers.suffix()}", f"sda_bot_{servers.suffix()}"
    admin = pymysql.connect(host=servers.MYSQL_HOST, port=servers.MYSQL_PORT, user="root", autocommit=True)
    try:
        with admin.cursor() as cur:
            cur.execute(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4")
            cur.execute(f"CREATE USER '{user}'@'%' IDENTIFIED BY 'bot-secret-pw'")
            cur.execute(f"CREATE USER '{user}'@'localhost' IDENTIFIED BY 'bot-secret-pw'")
            cur.execute(f"USE `{name}`")
            for statement in servers.MYSQL_SCHEMA:
                cur.execute(statement)
            for host in ("%", "localhost"):
                for table in ("customers", "orders", "Mixed Case"):
                    cur.execute(f"GRANT SELECT ON `{name}`.`{table}` TO '{user}'@'{host}'")
        yield name, user
    finally:
        with admin.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
            cur.execute(f"DROP USER IF EXISTS '{user}'@'%'")
            cur.execute(f"DROP USER IF EXISTS '{user}'@'localhost'")
        admin.close()


def server_settings(tmp_path, url: str, **overrides):
    values = dict(
        _env_file=None, data_dir=tmp_path, warehouse_url=url, openai_api_key=None, redis_url=None,
        slack_bot_token=None, slack_app_token=None, slack_signing_secret=None,
    )
    values.update(overrides)
    return load_settings(**values)
