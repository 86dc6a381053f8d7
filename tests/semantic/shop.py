"""The shop fixture's data, as plain rows loadable into any warehouse the tests compare."""

from __future__ import annotations

from pathlib import Path

PROJECT = Path(__file__).with_name("dbt_shop")

CUSTOMERS = [(1, "north", "retail"), (2, "south", "retail"), (3, "north", "business"), (4, "east", "business")]
# order_id, customer_id, ordered_at, channel, amount
ORDERS = [
    (10, 1, "2023-11-03", "web", 120.0), (11, 2, "2023-11-20", "store", 40.0), (12, 3, "2023-12-01", "web", 300.0),
    (13, 1, "2023-12-15", "web", 60.0), (14, 4, "2023-12-31", "store", 90.0), (15, 2, "2024-01-02", "web", 150.0),
    (16, 3, "2024-01-18", "store", 75.0), (17, 4, "2024-02-05", "web", 210.0), (18, 1, "2024-02-29", "store", 35.0),
    (19, 3, "2024-02-29", "web", None),
]
# item_id, order_id, product, price, quantity, shipped_at
ITEMS = [
    (100, 10, "lamp", 60.0, 2, "2023-11-04"), (101, 11, "mug", 10.0, 4, "2023-11-21"),
    (102, 12, "desk", 200.0, 1, "2023-12-02"), (103, 12, "lamp", 50.0, 2, "2023-12-02"),
    (104, 13, "mug", 15.0, 4, "2023-12-16"), (105, 14, "chair", 90.0, 1, "2024-01-02"),
    (106, 15, "lamp", 75.0, 2, "2024-01-03"), (107, 16, "mug", 25.0, 3, "2024-01-19"),
    (108, 17, "desk", 210.0, 1, "2024-02-06"), (109, 18, "mug", 35.0, 1, "2024-03-01"),
    (110, 17, "mug", 0.0, 1, "2024-02-06"), (111, 15, "mug", 0.0, 1, "2024-01-03"),
]

DDL = [
    "CREATE TABLE customers (customer_id INTEGER, region VARCHAR(20), segment VARCHAR(20))",
    "CREATE TABLE orders (order_id INTEGER, customer_id INTEGER, ordered_at DATE, channel VARCHAR(20), amount DOUBLE PRECISION)",
    "CREATE TABLE order_items (item_id INTEGER, order_id INTEGER, product VARCHAR(20), price DOUBLE PRECISION, "
    "quantity INTEGER, shipped_at DATE)",
]


def load(execute, mark: str = "%s") -> None:
    """Create and fill the three tables through `execute(sql, params)` (a DB-API style call)."""
    for statement in DDL:
        execute(statement, None)
    for table, rows in (("customers", CUSTOMERS), ("orders", ORDERS), ("order_items", ITEMS)):
        marks = ", ".join([mark] * len(rows[0]))
        for row in rows:
            execute(f"INSERT INTO {table} VALUES ({marks})", row)
