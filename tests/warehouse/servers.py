"""Real PostgreSQL and MariaDB/MySQL on 127.0.0.1 for warehouse tests: each test module gets
its own database (random name) and role, dropped afterwards; skipped with the start command
when no server answers (`bash .ci/run` starts both)."""

from __future__ import annotations

import contextlib
import socket
from uuid import uuid4

import pytest

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
MYSQL_HOST, MYSQL_PORT = "127.0.0.1", 3306


def answers(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


def require(port: int, what: str, start: str) -> None:
    if not answers(port):
        pytest.skip(f"no {what} answers on 127.0.0.1:{port} (start one: {start})")


def suffix() -> str:
    return uuid4().hex[:10]


# A small schema with what real warehouses have: keys, comments, odd identifiers, a table the
# bot's role may not read, and enough rows for statistics.
PG_SCHEMA = [
    "CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, segment text, created_at date)",
    "COMMENT ON TABLE customers IS 'People and companies that buy from us'",
    "COMMENT ON COLUMN customers.segment IS 'Market segment'",
    "CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customers (id), "
    "amount numeric(10, 2), status text, ordered_at timestamp)",
    'CREATE TABLE "Mixed Case" ("Weird Name" text, "Größe" integer, "quote""d" text)',
    "CREATE TABLE secret_salaries (person text, salary integer)",
    "INSERT INTO customers SELECT g, 'customer ' || g, (ARRAY['retail','wholesale','online'])[1 + g % 3], "
    "DATE '2024-01-01' + g FROM generate_series(1, 300) g",
    "INSERT INTO orders SELECT g, 1 + g % 300, (g % 97) * 1.5, (ARRAY['open','shipped','returned'])[1 + g % 3], "
    "TIMESTAMP '2024-01-01' + g * INTERVAL '1 hour' FROM generate_series(1, 3000) g",
    "INSERT INTO \"Mixed Case\" VALUES ('a', 1, 'x'), ('b', 2, 'y')",
    "INSERT INTO secret_salaries VALUES ('ann', 100)",
    "ANALYZE",
]

MYSQL_SCHEMA = [
    "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL, segment VARCHAR(20) "
    "COMMENT 'Market segment', created_at DATE) COMMENT 'People and companies that buy from us'",
    "CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, amount DECIMAL(10, 2), status VARCHAR(20), "
    "ordered_at DATETIME, FOREIGN KEY (customer_id) REFERENCES customers (id))",
    "CREATE TABLE `Mixed Case` (`Weird Name` VARCHAR(20), `Größe` INT)",
    "CREATE TABLE secret_salaries (person VARCHAR(20), salary INT)",
    "INSERT INTO customers VALUES (1, 'customer 1', 'retail', '2024-01-02'), (2, 'customer 2', 'online', '2024-01-03')",
    "INSERT INTO orders VALUES (1, 1, 10.5, 'open', '2024-02-01 10:00:00'), (2, 2, 20, 'shipped', '2024-02-02 11:00:00')",
    "INSERT INTO `Mixed Case` VALUES ('a', 1), ('b', 2)",
    "INSERT INTO secret_salaries VALUES ('ann', 100)",
]
