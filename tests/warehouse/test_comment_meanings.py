"""What a warehouse's comments say, read from its URL alone: another name for a table ('Depots, also called
hubs'), what a text column's codes mean ('T = in transit', a remark in parentheses no part of the name),
the state an empty value means ('NULL = unpaid (open)'), and questions that lean on them: a status said as a
verb that also names the date ('loads delivered each month'), an average per thing over the rows that have
one, a share of an amount ('how much of what we invoiced'), quarters beside their year."""

from __future__ import annotations

import pytest

from agent.catalog.measures import code_labels
from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE depot (depot_id INTEGER PRIMARY KEY, depot_name VARCHAR NOT NULL, city VARCHAR NOT NULL);
COMMENT ON TABLE depot IS 'Depots, also called hubs: where our loads start';
CREATE TABLE driver (driver_id INTEGER PRIMARY KEY, driver_name VARCHAR NOT NULL, terminated_on DATE);
COMMENT ON COLUMN driver.terminated_on IS 'last day employed; NULL = still employed (active)';
CREATE TABLE shipment (shipment_id INTEGER PRIMARY KEY, depot_id INTEGER NOT NULL REFERENCES depot (depot_id),
                       driver_id INTEGER REFERENCES driver (driver_id), status_code VARCHAR NOT NULL,
                       service_level VARCHAR NOT NULL, booked_on DATE NOT NULL, delivered_on DATE);
COMMENT ON TABLE shipment IS 'Shipments, a.k.a. loads: one row per load a customer booked';
COMMENT ON COLUMN shipment.driver_id IS 'our driver; NULL when the load went to another firm';
COMMENT ON COLUMN shipment.status_code IS 'B = booked, awaiting pickup; T = in transit; D = delivered';
COMMENT ON COLUMN shipment.service_level IS 'S = standard, X = express (guaranteed, one day faster)';
COMMENT ON COLUMN shipment.delivered_on IS 'actual delivery date; NULL = not delivered yet';
CREATE TABLE scan (scan_id INTEGER PRIMARY KEY, shipment_id INTEGER NOT NULL REFERENCES shipment (shipment_id),
                   event_code VARCHAR NOT NULL, scanned_at TIMESTAMP NOT NULL);
COMMENT ON COLUMN scan.event_code IS 'PU = picked up, DL = delivered';
CREATE TABLE invoice (invoice_id INTEGER PRIMARY KEY, shipment_id INTEGER NOT NULL REFERENCES shipment (shipment_id),
                      invoice_date DATE NOT NULL, total_amount DECIMAL(10, 2) NOT NULL, paid_date DATE);
COMMENT ON COLUMN invoice.paid_date IS 'date the customer paid; NULL = unpaid (open)';
INSERT INTO depot VALUES (1, 'Dayton Hub', 'Dayton'), (2, 'Erie Hub', 'Erie');
INSERT INTO driver VALUES (1, 'Ann Lee', NULL), (2, 'Bo Ray', '2024-03-01'), (3, 'Cy Oak', NULL);
INSERT INTO shipment VALUES
  (1, 1, 1, 'D', 'S', '2023-02-01', '2023-02-03'), (2, 1, 1, 'D', 'X', '2023-05-02', '2023-05-03'),
  (3, 2, 2, 'D', 'S', '2024-01-10', '2024-01-14'), (4, 2, NULL, 'D', 'X', '2024-01-20', '2024-02-02'),
  (5, 1, 3, 'D', 'S', '2024-02-05', '2024-02-09'), (6, 2, 3, 'T', 'X', '2024-06-28', NULL),
  (7, 1, NULL, 'B', 'S', '2024-06-30', NULL), (8, 2, 1, 'D', 'S', '2024-04-01', '2024-04-04');
INSERT INTO scan VALUES (1, 1, 'PU', '2023-02-01 08:00'), (2, 1, 'DL', '2023-02-03 09:00'),
  (3, 3, 'PU', '2024-01-10 08:00'), (4, 3, 'DL', '2024-01-14 10:00'), (5, 6, 'PU', '2024-06-29 07:00');
INSERT INTO invoice VALUES (1, 1, '2023-02-04', 100, '2023-03-01'), (2, 2, '2023-05-04', 250, '2023-06-01'),
  (3, 3, '2024-01-15', 300, NULL), (4, 4, '2024-02-03', 120, '2024-03-01'), (5, 5, '2024-02-10', 80, NULL),
  (6, 8, '2024-04-05', 500, '2024-05-01');
"""


@pytest.fixture(scope="module")
def freight(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("comments"), "freight_comments", SCHEMA) as work:
        yield work


def test_a_remark_in_parentheses_is_no_part_of_a_codes_name():
    assert code_labels("S = standard, X = express (guaranteed, one day faster), E = economy") == {
        "standard": "S", "express": "X", "economy": "E"}
    assert code_labels("D = dry van, R = reefer (refrigerated)") == {"dry van": "D", "reefer": "R"}


def test_another_name_a_table_comment_gives(freight):
    assert_reads_as(freight, "list all our hubs", "SELECT depot_name FROM depot", leading=True)
    assert_reads_as(freight, "how many loads are there", "SELECT count(*) FROM shipment")


@pytest.mark.parametrize("question, sql", [
    ("how many loads are still in transit right now?", "SELECT count(*) FROM shipment WHERE status_code = 'T'"),
    ("how many express loads did we book", "SELECT count(*) FROM shipment WHERE service_level = 'X'"),
    # 'delivered' is a shipment's status and a scan's code: the loads' own column is meant
    ("how many loads were delivered", "SELECT count(*) FROM shipment WHERE status_code = 'D'"),
])
def test_a_text_columns_codes_read_by_their_meaning(freight, question, sql):
    assert_reads_as(freight, question, sql)


@pytest.mark.parametrize("question, sql", [
    ("how many active drivers do we have", "SELECT count(*) FROM driver WHERE terminated_on IS NULL"),
    ("how many invoices are unpaid", "SELECT count(*) FROM invoice WHERE paid_date IS NULL"),
    ("how many open invoices", "SELECT count(*) FROM invoice WHERE paid_date IS NULL"),
])
def test_the_state_an_empty_value_means(freight, question, sql):
    assert_reads_as(freight, question, sql)


def test_a_negated_state_is_no_flag_the_verb_would_be_read_as(freight):
    # 'NULL = not delivered yet' makes no flag: 'delivered' would read as its opposite
    assert "not_delivered" not in freight.semantic.dimension_by_name


def test_a_status_verb_with_calendar_words_names_the_date(freight):
    assert_reads_as(freight, "number of loads delivered each month in 2024",
                    "SELECT month(delivered_on), count(*) FROM shipment WHERE year(delivered_on) = 2024 GROUP BY 1")


def test_an_average_per_thing_counts_only_the_rows_that_have_one(freight):
    # loads that went to another firm have no driver: nobody's loads, so not in the average
    assert_reads_as(freight, "avg number of loads per driver",
                    "SELECT count(driver_id) / count(DISTINCT driver_id) FROM shipment")


def test_how_much_of_an_amount_is_a_share_of_the_amount(freight):
    assert_reads_as(freight, "how much of what we invoiced in 2024 is still unpaid, as a % of the total",
                    "SELECT 100.0 * sum(CASE WHEN paid_date IS NULL THEN total_amount END) / sum(total_amount) "
                    "FROM invoice WHERE year(invoice_date) = 2024")


def test_quarters_beside_their_years_are_numbers(freight):
    assert_reads_as(freight, "total amount by quarter, 2024 vs 2023",
                    "SELECT year(invoice_date), quarter(invoice_date), sum(total_amount) FROM invoice "
                    "GROUP BY 1, 2")


def test_a_measure_word_summed_is_not_said_twice(freight):
    labels = {m.label for m in freight.semantic.metrics}
    assert "Total amount" in labels and not any(label.startswith("Total total") for label in labels)


def test_a_verbs_form_is_never_a_values_plural(freight):
    said = {item.words for item in freight.values.phrases}
    assert ("booked",) in said and ("bookeds",) not in said  # 'books' must not read as a status


LODGING = """
CREATE TABLE hotels (hotelid INTEGER PRIMARY KEY, hotelname VARCHAR NOT NULL, city VARCHAR NOT NULL);
COMMENT ON TABLE hotels IS 'Our properties (hotels) in the chain';
CREATE TABLE reservations (reservationid INTEGER PRIMARY KEY, hotelid INTEGER NOT NULL REFERENCES hotels (hotelid),
                           bookedat DATE NOT NULL, arrivalstatus VARCHAR NOT NULL);
COMMENT ON TABLE reservations IS 'Bookings: one row per reservation made, cancelled ones included';
COMMENT ON COLUMN reservations.arrivalstatus IS 'A = arrived, N = no-show, U = upcoming';
CREATE TABLE stays (stayid INTEGER PRIMARY KEY, reservationid INTEGER NOT NULL REFERENCES reservations (reservationid),
                    checkindate DATE NOT NULL, nights INTEGER NOT NULL);
CREATE TABLE staff (staffid INTEGER PRIMARY KEY, staffname VARCHAR NOT NULL, hotelid INTEGER REFERENCES hotels (hotelid),
                    standing VARCHAR NOT NULL);
COMMENT ON COLUMN staff.standing IS 'G = good standing, P = academic probation, S = suspended';
CREATE TABLE tuition_payments (paymentid INTEGER PRIMARY KEY, staffid INTEGER REFERENCES staff (staffid),
                               paid_on DATE NOT NULL, amt_paid DECIMAL(10, 2) NOT NULL);
INSERT INTO hotels VALUES (1, 'Larkspur Plaza', 'Santa Fe'), (2, 'Larkspur Dock', 'Erie');
INSERT INTO reservations VALUES (1, 1, '2024-01-03', 'A'), (2, 1, '2024-01-09', 'N'), (3, 2, '2024-02-01', 'A'),
  (4, 2, '2024-02-11', 'N'), (5, 2, '2024-03-05', 'N'), (6, 1, '2023-12-30', 'A'), (7, 1, '2024-03-30', 'U');
INSERT INTO stays VALUES (1, 1, '2024-01-05', 2), (2, 3, '2024-02-03', 1), (3, 6, '2024-01-02', 4);
INSERT INTO staff VALUES (1, 'Ann Lee', 1, 'G'), (2, 'Bo Ray', 1, 'P'), (3, 'Cy Oak', 2, 'G'), (4, 'Di Fir', 2, 'S');
INSERT INTO tuition_payments VALUES (1, 1, '2024-01-10', 1000), (2, 2, '2024-01-20', 250.50), (3, 3, '2024-02-02', 400);
"""


@pytest.fixture(scope="module")
def lodging(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("lodging"), "lodging_comments", LODGING) as work:
        yield work


@pytest.mark.parametrize("question, sql", [
    ("how many properties do we have?", "SELECT count(*) FROM hotels"),  # 'Our properties (hotels)'
    ("how many bookings are there", "SELECT count(*) FROM reservations"),  # 'Bookings: one row per reservation'
    # a value said as a plural noun counts the rows it is of, not the model's default count
    ("no-shows by hotel name", "SELECT h.hotelname, count(*) FROM reservations r JOIN hotels h USING (hotelid) "
                               "WHERE r.arrivalstatus = 'N' GROUP BY 1"),
    # a date's event counted by its noun: the rows of that date's table, by its months
    ("how many check-ins did we have each month in 2024?",
     "SELECT month(checkindate), count(*) FROM stays WHERE year(checkindate) = 2024 GROUP BY 1"),
    ("how many staff are on probation", "SELECT count(*) FROM staff WHERE standing = 'P'"),  # 'academic probation'
    # the amount of tuition payments is the tuition, and an amount paid adds up
    ("total tuition by month in 2024", "SELECT month(paid_on), sum(amt_paid) FROM tuition_payments GROUP BY 1"),
])
def test_what_descriptions_and_codes_name(lodging, question, sql):
    assert_reads_as(lodging, question, sql)
