"""The model bootstrapped from a schema alone, rule by rule, on a small zoo of mixed naming styles
with no declared keys but one: references confirmed by values (and one named like a key whose
values are elsewhere, which must not join), a bridge table, a line amount with the price on the
product, display names, flags with rates, codes labelled by comments, durations, positions that
are not summed, times of day. Compiled metrics are checked row for row against hand-written SQL."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from agent.catalog.bootstrap_dbt import write_project
from agent.catalog.commands import bootstrap_document, check_semantic
from agent.catalog.evidence import read_evidence
from agent.catalog.measures import code_labels
from agent.catalog.naming import singular, slug
from agent.catalog.references import find_references
from agent.semantic.compare import rows_match
from agent.semantic.model.layer import load_layer
from agent.semantic.compile.sqlgen import GroupBy, Query, compile_query
from agent.settings import load_settings
from agent.warehouse import open_warehouse
from agent.warehouse.base import quote
from tests.support.duck_files import duckdb_file

def q(name: str) -> str:
    return quote(name, "duckdb")


SNAPSHOT = Path(__file__).with_name("snapshots") / "zoo_semantic_models.yml"

ZOO = """
CREATE TABLE "Employees" ("EmployeeId" INTEGER PRIMARY KEY, "FirstName" VARCHAR, "LastName" VARCHAR,
                          "ManagerId" INTEGER, "IsRemote" TINYINT, "HireDate" DATE);
CREATE TABLE "Customers" ("CustomerId" INTEGER PRIMARY KEY, "CompanyName" VARCHAR, "SupportRepId" INTEGER,
                          "Vip" VARCHAR);
CREATE TABLE products (product_id INTEGER PRIMARY KEY, name VARCHAR, price DECIMAL(8,2), release_year INTEGER,
                       rank INTEGER);
CREATE TABLE orders ("orderId" INTEGER PRIMARY KEY, "customerId" INTEGER, "orderTime" TIME, "orderedOn" DATE);
CREATE TABLE order_lines (line_id INTEGER PRIMARY KEY, order_id INTEGER, product_id INTEGER, quantity INTEGER);
CREATE TABLE coupons (coupon_id INTEGER PRIMARY KEY, order_id INTEGER, amount DECIMAL(8,2));
CREATE TABLE categories (category_id INTEGER PRIMARY KEY, category_name VARCHAR, parent_id INTEGER);
CREATE TABLE product_categories (product_id INTEGER, category_id INTEGER, PRIMARY KEY (product_id, category_id));
CREATE TABLE tracks (track_id INTEGER PRIMARY KEY, title VARCHAR, milliseconds INTEGER, priority SMALLINT);
CREATE TABLE supplier (s_suppkey INTEGER PRIMARY KEY, s_name VARCHAR);
CREATE TABLE shipment (sh_shipkey INTEGER PRIMARY KEY, sh_suppkey INTEGER REFERENCES supplier (s_suppkey),
                       sh_weight DOUBLE);
COMMENT ON COLUMN tracks.priority IS 'urgency: 1 = Low, 2 = Medium, 3 = High';
COMMENT ON COLUMN products.price IS 'list price of one unit';
INSERT INTO "Employees" VALUES (1, 'Ada', 'Byron', NULL, 0, '2020-01-01'), (2, 'Alan', 'Turing', 1, 1, '2021-02-01'),
  (3, 'Ada', 'Palmer', 1, 1, '2022-03-01');
INSERT INTO "Customers" VALUES (10, 'Acme', 2, 'Y'), (11, 'Birch', 3, 'N'), (12, 'Cobalt', 2, 'N');
INSERT INTO products VALUES (100, 'chair', 20.00, 2019, 1), (101, 'lamp', 5.50, 2020, 2), (102, 'desk', 99.00, 2020, 3);
INSERT INTO orders VALUES (1000, 10, '09:15:00', '2024-01-05'), (1001, 10, '18:40:00', '2024-02-11'),
  (1002, 12, '09:05:00', '2024-02-20');
INSERT INTO order_lines VALUES (1, 1000, 100, 2), (2, 1000, 101, 4), (3, 1001, 102, 1), (4, 1002, 100, 3);
INSERT INTO coupons VALUES (1, 900, 5.00), (2, 901, 2.50), (3, 1000, 1.00);
INSERT INTO categories VALUES (1, 'furniture', NULL), (2, 'lighting', 1), (3, 'office', 1);
INSERT INTO product_categories VALUES (100, 1), (100, 3), (101, 2), (102, 1), (102, 3);
INSERT INTO tracks VALUES (1, 'Intro', 90000, 1), (2, 'Outro', 150000, 3);
INSERT INTO supplier VALUES (1, 'North'), (2, 'South');
INSERT INTO shipment VALUES (1, 1, 2.5), (2, 2, 4.0), (3, 1, 1.5);
"""


@pytest.fixture(scope="module")
def zoo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("zoo")
    path = duckdb_file(folder, "zoo", ZOO)
    settings = load_settings(_env_file=None, data_dir=folder, warehouse_url=f"duckdb://{path}", openai_api_key=None,
                             redis_url=None, slack_bot_token=None)
    warehouse = open_warehouse(settings)
    schema = warehouse.schema()
    evidence = read_evidence(warehouse, schema)
    document = bootstrap_document(warehouse, schema, settings)
    write_project(document, folder / "semantic")
    layer = load_layer(folder / "semantic" / "models", dialect=warehouse.dialect)
    yield evidence, document, layer, warehouse, schema, folder
    warehouse.close()


def _models(document) -> dict:
    return {m["name"]: m for m in document["semantic_models"]}


def _metrics(document) -> dict:
    return {m["name"]: m for m in document["metrics"]}


def _same(warehouse, layer, query: Query, sql: str) -> None:
    got = warehouse.run(compile_query(layer.project, query, dialect=warehouse.dialect).sql)
    want = warehouse.run(sql)
    assert rows_match(want.columns, want.rows, got.columns, got.rows, ordered=False), (got.rows, want.rows)


def test_references_are_kept_only_when_their_values_are_inside_the_key(zoo):
    evidence, *_ = zoo
    kept = {(r.table, r.column): (r.target, r.how) for r in evidence.references.kept}
    assert kept[("shipment", "sh_suppkey")] == ("supplier", "declared")
    assert kept[("orders", "customerId")] == ("customers", "name")  # camelCase to PascalCase
    assert kept[("order_lines", "order_id")] == ("orders", "name")
    assert kept[("order_lines", "product_id")] == ("products", "name")
    assert kept[("product_categories", "category_id")] == ("categories", "name")
    assert kept[("customers", "SupportRepId")] == ("employees", "role")  # a role pointing at people
    assert kept[("employees", "ManagerId")] == ("employees", "role")  # a self-reference
    assert kept[("categories", "parent_id")] == ("categories", "role")
    # named like the orders' key, but two of its values are no order: never joined
    assert ("coupons", "order_id") not in kept
    assert ("coupons", "order_id", "orders") in {(r.table, r.column, r.target) for r in evidence.references.rejected}


def test_a_reference_nobody_could_check_is_not_used(zoo):
    *_, schema, _ = zoo
    unchecked = find_references(schema, lambda ref: None)  # the start-up budget ran out
    assert [(r.table, r.column) for r in unchecked.kept] == [("shipment", "sh_suppkey")]  # declared only
    assert ("order_lines", "product_id", "products") in {(r.table, r.column, r.target) for r in unchecked.unchecked}


def test_a_column_named_like_a_key_whose_values_are_elsewhere_does_not_join(zoo):
    _, document, layer, *_ = zoo
    coupons = _models(document)["coupons"]
    assert [e["name"] for e in coupons["entities"]] == ["coupon"]
    assert not [j for j in layer.joins if j.from_table == "coupons"]
    assert "order_id" in {d["name"] for d in coupons["dimensions"]}  # still there to group by


def test_roles_and_self_references_are_dimensions_labelled_by_the_row_they_point_at(zoo):
    _, document, layer, *_ = zoo
    customers = _models(document)["customers"]
    assert {"name": "employee", "type": "foreign", "expr": q("SupportRepId")} in customers["entities"]
    employees = {d["name"]: d for d in _models(document)["employees"]["dimensions"]}
    assert employees["manager"]["expr"] == q("ManagerId")
    parent = {d["name"]: d for d in _models(document)["categories"]["dimensions"]}["parent"]
    assert parent["config"]["meta"]["value_labels"] == {"semantic_model": "categories", "key": "category_id",
                                                        "label": "category_name"}


def test_a_bridge_table_counts_each_thing_once_per_group(zoo):
    _, document, layer, warehouse, *_ = zoo
    bridge = _models(document)["product_categories"]
    assert bridge["config"]["meta"]["bridge"] == ["product", "category"]
    assert {m["agg"] for m in bridge["measures"]} == {"sum", "count_distinct"}  # no sums of the things linked
    _same(warehouse, layer, Query(metrics=("product_categories_distinct_product",), group_by=(GroupBy("category_name"),)),
          "SELECT c.category_name, count(DISTINCT pc.product_id) FROM product_categories pc "
          "JOIN categories c USING (category_id) GROUP BY 1")
    _same(warehouse, layer, Query(metrics=("product_categories_distinct_product",)),
          "SELECT count(DISTINCT product_id) FROM product_categories")


def test_the_line_amount_multiplies_the_quantity_by_the_price_of_the_product_it_points_at(zoo):
    _, document, layer, warehouse, *_ = zoo
    metric = _metrics(document)["order_lines_sales"]
    assert metric["label"] == "Sales" and {"sales", "revenue"} <= set(metric["config"]["meta"]["synonyms"])
    measure = next(m for m in _models(document)["order_lines"]["measures"] if m["name"] == "order_lines_sales")
    assert measure["expr"] == "quantity * product.price"
    _same(warehouse, layer, Query(metrics=("order_lines_sales",), group_by=(GroupBy("company_name"),)),
          'SELECT c."CompanyName", sum(l.quantity * p.price) FROM order_lines l JOIN products p USING (product_id) '
          'JOIN orders o ON o."orderId" = l.order_id JOIN "Customers" c ON c."CustomerId" = o."customerId" GROUP BY 1')
    # lines are dated by their order
    assert _models(document)["order_lines"]["config"]["meta"]["agg_time_dimension"] == "order__ordered_on_order_time"


def test_display_names_and_distinct_counts_of_each_entity(zoo):
    _, document, layer, warehouse, *_ = zoo
    employees = {d["name"]: d for d in _models(document)["employees"]["dimensions"]}
    assert employees["employee_name"]["expr"] == f"CONCAT({q('FirstName')}, ' ', {q('LastName')})"
    _same(warehouse, layer, Query(metrics=("employees_count",), group_by=(GroupBy("employee_name"),)),
          "SELECT \"FirstName\" || ' ' || \"LastName\", count(*) FROM \"Employees\" GROUP BY 1")
    products = {d["name"]: d for d in _models(document)["products"]["dimensions"]}
    assert "product name" in products["name"]["config"]["meta"]["synonyms"]
    metric = _metrics(document)["orders_distinct_customer"]
    assert metric["label"] == "Customers with orders"
    _same(warehouse, layer, Query(metrics=("orders_distinct_customer",)), 'SELECT count(DISTINCT "customerId") FROM orders')


def test_two_valued_columns_are_flags_with_rates(zoo):
    _, document, layer, warehouse, *_ = zoo
    dims = {d["name"]: d for d in _models(document)["customers"]["dimensions"]}
    assert dims["vip"] == {"name": "vip", "type": "categorical", "expr": f"{q('Vip')} = 'Y'",
                           "config": {"meta": {"kind": "flag"}}}
    rate = _metrics(document)["employees_is_remote_rate"]
    assert rate["label"] == "Remote rate" and rate["type"] == "ratio"
    _same(warehouse, layer, Query(metrics=("employees_is_remote_rate",)), 'SELECT avg("IsRemote") FROM "Employees"')
    _same(warehouse, layer, Query(metrics=("customers_vip_rate",)),
          "SELECT avg(CASE WHEN \"Vip\" = 'Y' THEN 1.0 ELSE 0 END) FROM \"Customers\"")


def test_codes_durations_positions_and_times_of_day(zoo):
    _, document, layer, warehouse, *_ = zoo
    tracks = _models(document)["tracks"]
    dims = {d["name"]: d for d in tracks["dimensions"]}
    assert dims["priority"]["config"]["meta"]["value_aliases"] == {"Low": "1", "Medium": "2", "High": "3"}
    assert dims["priority"]["description"] == "urgency: 1 = Low, 2 = Medium, 3 = High"
    measures = {m["name"] for m in tracks["measures"]}
    assert "tracks_priority_total" not in measures and "tracks_priority_average" in measures
    assert {"tracks_duration_minutes_total", "tracks_duration_minutes_average"} <= measures  # ms in minutes
    _same(warehouse, layer, Query(metrics=("tracks_duration_minutes_total",)), "SELECT sum(milliseconds) / 60000.0 FROM tracks")
    products = _models(document)["products"]
    assert not [m for m in products["measures"] if "release_year" in m["name"] or "rank" in m["name"]]
    year = {d["name"]: d for d in products["dimensions"]}["release_year"]
    assert year["config"]["meta"]["kind"] == "numeric"
    assert {d["name"]: d for d in products["dimensions"]}["price"]["description"] == "list price of one unit"
    # a date and a time of day apart: one time dimension to the hour, what orders are dated by
    orders = _models(document)["orders"]
    moment = {d["name"]: d for d in orders["dimensions"]}["ordered_on_order_time"]
    assert moment["type_params"] == {"time_granularity": "hour"}
    assert orders["defaults"] == {"agg_time_dimension": "ordered_on_order_time"}
    _same(warehouse, layer, Query(metrics=("orders_count",), group_by=(GroupBy("metric_time", "extract_hour"),)),
          'SELECT extract(hour FROM "orderTime"), count(*) FROM orders GROUP BY 1')
    _same(warehouse, layer, Query(metrics=("order_lines_sales",), group_by=(GroupBy("metric_time", "extract_hour"),)),
          'SELECT extract(hour FROM o."orderTime"), sum(l.quantity * p.price) FROM order_lines l '
          'JOIN products p USING (product_id) JOIN orders o ON o."orderId" = l.order_id GROUP BY 1')


def test_the_model_checks_and_every_metric_compiles(zoo):
    _, document, layer, warehouse, schema, folder = zoo
    assert check_semantic(folder / "semantic", schema, warehouse.dialect) == []
    assert not layer.project.diagnostics
    for metric in layer.project.metrics:
        warehouse.dry_run(compile_query(layer.project, Query(metrics=(metric.name,)), dialect=warehouse.dialect).sql)


def test_names_in_words():
    assert [singular(w) for w in ("movies", "series", "categories", "boxes", "status")] == [
        "movie", "series", "category", "box", "status"]
    assert slug("pizzaTypeId") == "pizza_type_id" and slug("Payment Type") == "payment_type"
    assert code_labels("1 = Below College, 2 = College; 3 = Bachelor") == {
        "Below College": "1", "College": "2", "Bachelor": "3"}


def test_the_bootstrapped_yaml_of_the_zoo_is_as_snapshotted(zoo):
    _, document, *_ = zoo
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    if not SNAPSHOT.exists():
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text(text, encoding="utf-8")
        pytest.fail(f"wrote {SNAPSHOT}; check it and run again")
    assert text == SNAPSHOT.read_text(encoding="utf-8")


ROLES_BEFORE_CODES = """
CREATE TABLE region (region_cd VARCHAR PRIMARY KEY, region_nm VARCHAR);
CREATE TABLE technician (tech_id INTEGER PRIMARY KEY, home_region_cd VARCHAR, skill_cd VARCHAR);
INSERT INTO region VALUES ('N', 'North'), ('S', 'South');
INSERT INTO technician VALUES (1, 'N', 'ELEC'), (2, 'S', 'GAS'), (3, 'N', 'GAS');
"""


def test_a_role_put_before_another_tables_key_column_points_at_that_table(tmp_path):
    """'home_region_cd' is region's 'region_cd' with a role in front, whatever its key word ('cd' is none of
    id, key): confirmed by its values, as any reference."""
    path = duckdb_file(tmp_path, "roles", ROLES_BEFORE_CODES)
    settings = load_settings(_env_file=None, data_dir=tmp_path, warehouse_url=f"duckdb://{path}", openai_api_key=None,
                             redis_url=None, slack_bot_token=None)
    warehouse = open_warehouse(settings)
    try:
        evidence = read_evidence(warehouse, warehouse.schema())
    finally:
        warehouse.close()
    kept = {(r.table, r.column): (r.target, r.how) for r in evidence.references.kept}
    assert kept[("technician", "home_region_cd")] == ("region", "name")
    assert ("technician", "skill_cd") not in kept  # a code of no table's key
