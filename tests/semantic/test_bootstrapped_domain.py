"""A warehouse nobody modelled, in a domain the product has never seen (stores, clients, invoices
and their lines): `catalog init` bootstraps it, and the offline parser answers analysts'
questions on that model alone, checked row for row against hand-written SQL.

The schema has what real warehouses have: column prefixes per table (il_, in_, ...), a line
table whose key includes its header's key, references nobody declared (il_storekey), a unit
price to multiply by a quantity and a discount that is a fraction.
"""

from __future__ import annotations

import pytest

from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent
from agent.semantic.nlq.extract import extract_intent
from tests.support.duck_files import bootstrapped

SCHEMA = """
CREATE TABLE area (a_areakey INTEGER PRIMARY KEY, a_name VARCHAR NOT NULL);
CREATE TABLE store (st_storekey INTEGER PRIMARY KEY, st_name VARCHAR NOT NULL,
                    st_areakey INTEGER NOT NULL REFERENCES area (a_areakey));
CREATE TABLE client (cl_clientkey INTEGER PRIMARY KEY, cl_name VARCHAR NOT NULL,
                     cl_areakey INTEGER NOT NULL REFERENCES area (a_areakey), cl_tier VARCHAR NOT NULL,
                     cl_acctbal DECIMAL(10,2) NOT NULL);
CREATE TABLE product (pr_productkey INTEGER PRIMARY KEY, pr_name VARCHAR NOT NULL, pr_kind VARCHAR NOT NULL,
                      pr_grade VARCHAR NOT NULL);
CREATE TABLE invoice (in_invoicekey INTEGER PRIMARY KEY, in_clientkey INTEGER NOT NULL REFERENCES client (cl_clientkey),
                      in_invoicedate DATE NOT NULL, in_channel VARCHAR NOT NULL);
CREATE TABLE invoiceline (il_invoicekey INTEGER NOT NULL REFERENCES invoice (in_invoicekey),
                          il_linenumber INTEGER NOT NULL, il_productkey INTEGER NOT NULL, il_storekey INTEGER NOT NULL,
                          il_unitprice DECIMAL(10,2) NOT NULL, il_quantity INTEGER NOT NULL,
                          il_discount DECIMAL(4,2) NOT NULL, il_shipdate DATE NOT NULL, il_promisedate DATE NOT NULL,
                          il_deliverdate DATE NOT NULL, PRIMARY KEY (il_invoicekey, il_linenumber));
INSERT INTO area VALUES (1, 'NORTH'), (2, 'SOUTH'), (3, 'WEST');
INSERT INTO store VALUES (1, 'Harbour', 1), (2, 'Hilltop', 2), (3, 'Riverside', 3);
INSERT INTO client VALUES (1, 'Acme', 2, 'GOLD', 120.50), (2, 'Birch', 1, 'SILVER', 990.00),
                          (3, 'Cobalt', 3, 'GOLD', -15.00), (4, 'Dune', 1, 'SILVER', 300.00);
INSERT INTO product VALUES (1, 'blue chair', 'FURNITURE', 'A'), (2, 'blue lamp', 'LIGHTING', 'B'),
                           (3, 'red desk', 'FURNITURE', 'B'), (4, 'green mug', 'KITCHEN', 'A');
INSERT INTO invoice VALUES (1, 1, '2023-12-30', 'WEB'), (2, 1, '2024-03-02', 'SHOP'), (3, 2, '2024-03-15', 'WEB'),
                           (4, 3, '2024-05-01', 'WEB'), (5, 1, '2024-06-20', 'SHOP');
INSERT INTO invoiceline VALUES
  (1, 1, 1, 1, 100.00, 2, 0.10, '2024-01-03', '2024-01-05', '2024-01-04'),
  (1, 2, 4, 2, 8.00, 5, 0.00, '2024-01-02', '2024-01-05', '2024-01-09'),
  (2, 1, 3, 2, 250.00, 1, 0.20, '2024-03-04', '2024-03-08', '2024-03-07'),
  (3, 1, 2, 3, 40.00, 3, 0.05, '2024-03-20', '2024-03-22', '2024-03-25'),
  (3, 2, 1, 1, 100.00, 1, 0.00, '2024-03-31', '2024-04-02', '2024-04-01'),
  (4, 1, 4, 3, 8.00, 10, 0.50, '2024-05-03', '2024-05-06', '2024-05-10'),
  (5, 1, 3, 2, 250.00, 2, 0.10, '2024-06-22', '2024-06-25', '2024-06-24');
"""

NET = "il.il_unitprice * il.il_quantity * (1 - il.il_discount)"
LINES = ("invoiceline il JOIN invoice i ON il.il_invoicekey = i.in_invoicekey "
         "JOIN client c ON i.in_clientkey = c.cl_clientkey")

QUESTIONS = {
    "net sales by client area, biggest first": (
        f"SELECT a.a_name, sum({NET}) FROM {LINES} JOIN area a ON c.cl_areakey = a.a_areakey GROUP BY 1 ORDER BY 2 DESC",
        True),
    "top 2 stores by net sales in 2024": (
        f"SELECT s.st_name, sum({NET}) FROM {LINES} JOIN store s ON il.il_storekey = s.st_storekey "
        "WHERE year(i.in_invoicedate) = 2024 GROUP BY 1 ORDER BY 2 DESC LIMIT 2", True),
    "how many invoice lines shipped in March 2024?": (
        "SELECT count(*) FROM invoiceline WHERE il_shipdate >= DATE '2024-03-01' AND il_shipdate < DATE '2024-04-01'",
        False),
    "what share of invoice lines were delivered late (deliver date after promise date)?": (
        "SELECT avg(CASE WHEN il_deliverdate > il_promisedate THEN 1.0 ELSE 0 END) FROM invoiceline", False),
    "total quantity*unitprice by product kind": (
        "SELECT p.pr_kind, sum(il.il_quantity * il.il_unitprice) FROM invoiceline il "
        "JOIN product p ON il.il_productkey = p.pr_productkey GROUP BY 1", False),
    "clients with 2 or more invoices": (
        "SELECT c.cl_name FROM invoice i JOIN client c ON i.in_clientkey = c.cl_clientkey GROUP BY 1 "
        "HAVING count(*) >= 2", False),
    "how many clients have no invoices?": (
        "SELECT count(*) FROM client c WHERE NOT EXISTS (SELECT 1 FROM invoice i WHERE i.in_clientkey = c.cl_clientkey)",
        False),
    "number of products whose name starts with 'blue'": (
        "SELECT count(*) FROM product WHERE pr_name LIKE 'blue%'", False),
    "what % of net sales came from each store area?": (
        f"SELECT a.a_name, 100.0 * sum({NET}) / sum(sum({NET})) OVER () FROM invoiceline il "
        "JOIN store s ON il.il_storekey = s.st_storekey JOIN area a ON s.st_areakey = a.a_areakey GROUP BY 1", False),
    "which 2 products have the most net sales?": (
        f"SELECT p.pr_name, sum({NET}) FROM invoiceline il JOIN product p ON il.il_productkey = p.pr_productkey "
        "GROUP BY 1 ORDER BY 2 DESC LIMIT 2", True),
    "net sales per year (by invoice date)": (
        f"SELECT year(i.in_invoicedate), sum({NET}) FROM {LINES} GROUP BY 1 ORDER BY 1", True),
    "net sales from NORTH clients buying in SOUTH stores": (
        f"SELECT sum({NET}) FROM {LINES} JOIN area ca ON c.cl_areakey = ca.a_areakey "
        "JOIN store s ON il.il_storekey = s.st_storekey JOIN area sa ON s.st_areakey = sa.a_areakey "
        "WHERE ca.a_name = 'NORTH' AND sa.a_name = 'SOUTH'", False),
    "which clients have the highest account balance?": (
        "SELECT cl_name, cl_acctbal FROM client ORDER BY 2 DESC", True),
    "clients in NORTH with account balance over 500": (
        "SELECT count(*) FROM client c JOIN area a ON c.cl_areakey = a.a_areakey "
        "WHERE a.a_name = 'NORTH' AND c.cl_acctbal > 500", False),
    # 'value' is a word of the thesaurus's revenue group, which the net sales joined: an invoice's value
    "average invoice value by channel": (
        f"SELECT i.in_channel, sum({NET}) / count(DISTINCT i.in_invoicekey) FROM {LINES} GROUP BY 1", False),
    "invoices with channel WEB by client tier": (
        "SELECT c.cl_tier, count(*) FROM invoice i JOIN client c ON i.in_clientkey = c.cl_clientkey "
        "WHERE i.in_channel = 'WEB' GROUP BY 1", False),
    "average days from ship date to deliver date by store": (
        "SELECT s.st_name, avg(il.il_deliverdate - il.il_shipdate) FROM invoiceline il "
        "JOIN store s ON il.il_storekey = s.st_storekey GROUP BY 1", False),
    "avg number of days from invoice date to ship date, by channel": (
        "SELECT i.in_channel, avg(il.il_shipdate - i.in_invoicedate) FROM invoiceline il "
        "JOIN invoice i ON il.il_invoicekey = i.in_invoicekey GROUP BY 1", False),
    "year-over-year % change in net sales for 2023 through 2024": (
        f"SELECT y, 100.0 * (s - lag(s) OVER (ORDER BY y)) / lag(s) OVER (ORDER BY y) FROM (SELECT "
        f"year(i.in_invoicedate) AS y, sum({NET}) AS s FROM {LINES} GROUP BY 1) t ORDER BY y", True),
    "how many products have a kind of FURNITURE": (  # 'a' is an article, not grade A
        "SELECT count(*) FROM product WHERE pr_kind = 'FURNITURE'", False),
    "net sales of products with grade A": (
        f"SELECT sum({NET}) FROM invoiceline il JOIN product p ON il.il_productkey = p.pr_productkey "
        "WHERE p.pr_grade = 'A'", False),
    "which area has the most clients": (
        "SELECT a.a_name, count(*) FROM client c JOIN area a ON c.cl_areakey = a.a_areakey GROUP BY 1 "
        "ORDER BY 2 DESC, 1 LIMIT 1", True),
    # the invoices run to 20 June 2024: 'last month' is May, the latest whole month; 'this month' is June
    "net sales last month": (
        f"SELECT sum({NET}) FROM {LINES} WHERE i.in_invoicedate >= DATE '2024-05-01' "
        "AND i.in_invoicedate < DATE '2024-06-01'", False),
    "net sales this month": (
        f"SELECT sum({NET}) FROM {LINES} WHERE i.in_invoicedate >= DATE '2024-06-01' "
        "AND i.in_invoicedate < DATE '2024-07-01'", False),
    "how many products did we sell in 2024?": (  # a quantity's verb: the units sold, not the product rows
        f"SELECT sum(il.il_quantity) FROM {LINES} WHERE year(i.in_invoicedate) = 2024", False),
    "which stores sold more than 10 products?": (  # the units sold per store, compared after adding them up
        "SELECT s.st_name, sum(il.il_quantity) FROM invoiceline il JOIN store s ON il.il_storekey = s.st_storekey "
        "GROUP BY 1 HAVING sum(il.il_quantity) > 10", False),
    "which store sold the most products?": (  # ranked by the units sold, not by counting product rows
        "SELECT s.st_name, sum(il.il_quantity) FROM invoiceline il JOIN store s ON il.il_storekey = s.st_storekey "
        "GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1", True),
    "average net sales per invoice": (  # the lines' total over the invoices they belong to
        f"SELECT sum({NET}) / count(DISTINCT il.il_invoicekey) FROM invoiceline il", False),
    "top 2 clients by invoices": (  # the clients ranked by their invoices counted, no grouping by invoice
        "SELECT c.cl_name, count(*) FROM invoice i JOIN client c ON i.in_clientkey = c.cl_clientkey "
        "GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 2", True),
    "which products have the most stock value (unitprice * quantity summed)?": (
        "SELECT p.pr_name, sum(il.il_unitprice * il.il_quantity) FROM invoiceline il "
        "JOIN product p ON il.il_productkey = p.pr_productkey GROUP BY 1 ORDER BY 2 DESC, 1", True),
}


@pytest.fixture(scope="module")
def domain(tmp_path_factory):
    model, values, warehouse = bootstrapped(tmp_path_factory.mktemp("invoices"), "invoices", SCHEMA)
    yield model, values, warehouse
    warehouse.close()


def test_the_bootstrap_finds_what_the_schema_implies(domain):
    model, *_ = domain
    lines = model.table_by_name["invoice_line"]  # 'invoiceline': its words apart, as people say them
    assert lines.agg_time == "invoice__in_invoice_date"  # lines happen when their invoice does
    assert {j.to_table for j in model.joins if j.from_table == "invoice_line"} == {"invoice", "product", "store"}
    net = model.metric_by_name["invoice_line_net_unit_price"]
    assert "net sales" in net.synonyms
    assert model.project.measure("invoice_line_net_unit_price").expr == "il_unitprice * il_quantity * (1 - il_discount)"


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_question_on_the_bootstrapped_model_gets_the_right_rows(domain, question):
    model, values, warehouse = domain
    extraction = extract_intent(question, model, values)
    assert extraction.intent is not None, extraction.reason
    sql, ordered = QUESTIONS[question]
    want = warehouse.run(sql)
    got = warehouse.run(compile_intent(extraction.intent, model).sql)
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=ordered), (question, got.rows, want.rows)


@pytest.mark.parametrize("question, unread", [
    ("net sales for the 7 stores", "7"),  # a number nobody placed is never dropped
    ("how many blue products are there?", "blue"),  # part of a value ('blue chair'): asked back, not dropped
    ("net sales when it was raining", "raining"),  # a condition nobody read
    ("average invoice colour by channel", "colour"),  # an average of nothing the model measures
    ("which store sells the most to clients in the same area", "same"),
])
def test_what_cannot_be_read_is_said_not_dropped(domain, question, unread):
    model, values, *_ = domain
    extraction = extract_intent(question, model, values)
    assert extraction.intent is None
    if unread:
        assert unread in (extraction.reason or "")


@pytest.mark.parametrize("expr", [
    "(SELECT max(cl_acctbal) FROM client)",  # another table, through a subquery
    "il_unitprice * random()",  # a function
    "il_unitprice * cl_acctbal",  # a column of another table
])
def test_a_definition_from_an_llm_is_held_to_the_same_rule(domain, expr):
    from agent.semantic.compile.definitions import Definition
    from agent.semantic.compile.intent import StructuredIntent, validate_intent

    model, *_ = domain
    intent = StructuredIntent(definitions=[Definition(name="odd", label="odd", table="invoice_line", kind="measure",
                                                      expr=expr)], metrics=["odd"])
    assert validate_intent(intent, model)


def test_latest_dates_are_read_for_dates_only(domain, caplog):
    """Counting back ('last month') reads the latest date of real dates, never of a month number or a
    weekday name, so start-up logs no failed reads."""
    model, values, *_ = domain
    with caplog.at_level("WARNING"):
        values.read_all_latest(model)
    assert "could not read the latest date" not in caplog.text
    assert str(values.latest_date("invoice_line")) == "2024-06-20"


def test_a_store_named_by_its_number_is_the_store_with_that_key(domain):
    model, values, *_ = domain
    intent = extract_intent("net sales for store 2", model, values).intent
    assert intent is not None and [(f.field, f.values) for f in intent.filters] == [("store", [2])]


def test_a_year_earlier_of_each_month_is_that_month_a_year_before_never_the_month_before(domain):
    """'by month in 2024 vs the same month last year': each month of 2024 beside the same month of 2023 (none
    here, the data starts in December 2023), never beside the month before it."""
    model, values, warehouse = domain
    extraction = extract_intent("invoices by month in 2024 vs the same month last year", model, values)
    assert extraction.intent is not None and extraction.intent.compare == "previous_year", extraction.reason
    got = warehouse.run(compile_intent(extraction.intent, model).sql)
    assert [(int(r[0]), r[1], r[2]) for r in got.rows] == [(3, 2, None), (5, 1, None), (6, 1, None)], got.rows
