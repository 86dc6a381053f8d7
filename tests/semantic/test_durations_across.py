"""A duration whose two dates no one table holds: the start on one table, the end on a table linked to it
(agent/semantic/nlq/parse/durations.py `_across`), and a start named by its thing alone ('from invoice'),
checked row for row against hand-written SQL; and the pairs it must not guess."""

from __future__ import annotations

import pytest

from agent.semantic.compile.definitions import problems_of
from agent.semantic.compile.first_end import FirstEnd
from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE delivery (delivery_id INTEGER PRIMARY KEY, grower VARCHAR NOT NULL, delivered_at TIMESTAMP NOT NULL);
CREATE TABLE payment (payment_id INTEGER PRIMARY KEY, delivery_id INTEGER NOT NULL REFERENCES delivery (delivery_id),
                      paid_on DATE NOT NULL, amount DECIMAL(10, 2) NOT NULL);
CREATE TABLE shipment (shipment_id INTEGER PRIMARY KEY, carrier VARCHAR NOT NULL, dispatched_at TIMESTAMP NOT NULL);
CREATE TABLE box (box_id INTEGER PRIMARY KEY, shipment_id INTEGER NOT NULL REFERENCES shipment (shipment_id),
                  packed_at TIMESTAMP NOT NULL);
CREATE TABLE claim (claim_id INTEGER PRIMARY KEY, shipment_id INTEGER NOT NULL REFERENCES shipment (shipment_id),
                    filed_on DATE NOT NULL);
CREATE TABLE client (client_id INTEGER PRIMARY KEY, client_name VARCHAR NOT NULL);
CREATE TABLE invoice (invoice_id INTEGER PRIMARY KEY, client_id INTEGER NOT NULL REFERENCES client (client_id),
                      billing_month DATE NOT NULL, issued_on DATE NOT NULL, due_on DATE NOT NULL, settled_on DATE);
CREATE TABLE quote (quote_id INTEGER PRIMARY KEY, created_at TIMESTAMP NOT NULL, issued_on DATE NOT NULL,
                    accepted_on DATE);
INSERT INTO delivery VALUES (1, 'Ann', '2024-01-01 08:00'), (2, 'Ann', '2024-01-03 09:00'),
  (3, 'Bob', '2024-02-01 10:00'), (4, 'Bob', '2024-02-10 10:00');
-- delivery 1 is paid, then the payment reversed: its first payment is the one that counts; 4 is not paid yet
INSERT INTO payment VALUES (1, 1, '2024-01-05', 100), (2, 1, '2024-01-20', -100), (3, 2, '2024-01-12', 80),
  (4, 3, '2024-02-09', 50);
INSERT INTO shipment VALUES (1, 'north', '2024-03-01 12:00'), (2, 'south', '2024-03-02 18:00');
INSERT INTO box VALUES (1, 1, '2024-03-01 08:00'), (2, 1, '2024-03-01 10:00'), (3, 2, '2024-03-02 06:00');
INSERT INTO claim VALUES (1, 1, '2024-03-05'), (2, 2, '2024-03-09');
INSERT INTO client VALUES (1, 'Acme'), (2, 'Birch');
INSERT INTO invoice VALUES (1, 1, '2024-01-01', '2024-01-02', '2024-02-01', '2024-01-12'),
  (2, 1, '2024-02-01', '2024-02-03', '2024-03-03', '2024-02-08'), (3, 2, '2024-01-01', '2024-01-05', '2024-02-04', '2024-02-14'),
  (4, 2, '2024-02-01', '2024-02-02', '2024-03-03', NULL);
INSERT INTO quote VALUES (1, '2024-01-01 09:00', '2024-01-02', '2024-01-10'), (2, '2024-01-05 09:00', '2024-01-09', NULL);
"""


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("durations_across"), "durations_across", SCHEMA) as work:
        yield work


def test_the_end_on_rows_pointing_at_the_start_is_their_first(warehouse):
    """Payments point at the delivery they pay: one duration per delivery, to its first payment (a reversal
    later is no second payment of it), deliveries not paid yet left out."""
    assert_reads_as(warehouse, "average number of days between a delivery and its payment, by grower",
                    "SELECT grower, avg(first_paid - CAST(delivered_at AS DATE)) FROM delivery JOIN "
                    "(SELECT delivery_id, min(paid_on) AS first_paid FROM payment GROUP BY 1) USING (delivery_id) "
                    "GROUP BY 1")


def test_the_end_on_the_row_the_start_points_at_is_read_through_the_join(warehouse):
    """Each box points at its shipment: one duration per box, to its shipment's dispatch."""
    assert_reads_as(warehouse, "average hours from packing to dispatch by carrier",
                    "SELECT carrier, avg(epoch(dispatched_at - packed_at)) / 3600 FROM box JOIN shipment "
                    "USING (shipment_id) GROUP BY 1")


def test_a_thing_named_alone_starts_at_the_one_date_it_was_made(warehouse):
    """'from invoice': of an invoice's dates only its issue says it was made (billing month, due date do not)."""
    assert_reads_as(warehouse, "avg days from invoice to settlement",
                    "SELECT avg(settled_on - issued_on) FROM invoice")


def test_the_definition_across_tables_is_held_to_the_rule(warehouse):
    read = extract_intent("average days between a delivery and its payment", warehouse.semantic, warehouse.values)
    assert read.intent is not None, read.reason
    definition = read.intent.definitions[0]
    assert definition.first_end == FirstEnd(table="payment", column="paid_on")
    assert not problems_of(read.intent.definitions, warehouse.semantic)
    # the end must be a date of rows pointing at the measure's own: the claims do not point at deliveries
    through = extract_intent("average hours from packing to dispatch", warehouse.semantic, warehouse.values)
    assert through.intent is not None and not problems_of(through.intent.definitions, warehouse.semantic)
    forged = definition.model_copy(update={"first_end": FirstEnd(table="claim", column="filed_on")})
    assert problems_of([forged], warehouse.semantic)


@pytest.mark.parametrize("question", [
    # boxes and claims both point at a shipment: which box goes with which claim is not said
    "average days from packing to filing",
    # a quote is made twice over (created, issued): which is its start is not said
    "avg days from quote to acceptance",
])
def test_a_pair_nobody_said_is_not_guessed(warehouse, question):
    read = extract_intent(question, warehouse.semantic, warehouse.values)
    assert read.intent is None or not read.intent.definitions, read.intent
