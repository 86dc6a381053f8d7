"""The catalog read from a live warehouse: the demo's introspection agrees with the hand-written
catalog, a team file overlays it with errors naming file and line, and `catalog init` writes a
dbt semantic model that `catalog check` validates."""

from __future__ import annotations

import duckdb
import pytest
import yaml

from agent.catalog import CatalogError, default_catalog
from agent.catalog.bootstrap_dbt import bootstrap
from agent.catalog.introspected import build_catalog, catalog_dict, overlay
from agent.cli import main
from agent.settings import load_settings
from agent.warehouse import open_warehouse


def test_introspection_of_the_demo_agrees_with_the_hand_written_catalog(warehouse):
    introspected = catalog_dict(warehouse.refresh(), name="demo")
    written = default_catalog()
    assert set(introspected["tables"]) == set(written.table_names)
    for table in written.table_names:
        documented = [c.name for c in written.describe_table(table).columns]
        assert list(introspected["tables"][table]["columns"]) == documented, table


@pytest.fixture
def shop(tmp_path):
    """A DuckDB warehouse in another domain, with keys, comments and odd identifiers."""
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE stores (store_id INTEGER PRIMARY KEY, city VARCHAR, opened DATE)")
    con.execute("COMMENT ON TABLE stores IS 'Our shops'")
    con.execute("CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, store_id INTEGER REFERENCES stores (store_id), "
                "amount DECIMAL(10, 2), sold_at TIMESTAMP, channel VARCHAR, \"Payment Type\" VARCHAR)")
    con.execute("INSERT INTO stores VALUES (1, 'Lyon', DATE '2020-01-01'), (2, 'Nantes', DATE '2021-05-01')")
    con.execute("INSERT INTO sales SELECT i, 1 + i % 2, i * 1.5, TIMESTAMP '2024-01-01' + i * INTERVAL 1 HOUR, "
                "CASE WHEN i % 3 = 0 THEN 'web' ELSE 'store' END, 'card' FROM range(1, 200) t(i)")
    con.close()
    return path


def _settings(tmp_path, path, **extra):
    return load_settings(_env_file=None, data_dir=tmp_path, warehouse_url=f"duckdb://{path}", openai_api_key=None,
                         redis_url=None, slack_bot_token=None, **extra)


def test_live_catalog_has_values_joins_and_comments(tmp_path, shop):
    wh = open_warehouse(_settings(tmp_path, shop))
    try:
        catalog = build_catalog(wh, None)
    finally:
        wh.close()
    stores = catalog.describe_table("stores")
    assert stores.description.startswith("Our shops")
    sales = catalog.data.tables["sales"]
    assert sales.columns["channel"].values == ["store", "web"]
    assert sales.joins[0].on == "sales.store_id = stores.store_id"
    assert "Payment Type" in sales.columns


def test_team_file_overlays_and_errors_name_file_and_line(tmp_path, shop):
    wh = open_warehouse(_settings(tmp_path, shop))
    try:
        schema = wh.schema()
        team = tmp_path / "team.yaml"
        team.write_text("name: Shop\ntables:\n  sales:\n    description: Every sale at the till or online.\n"
                        "    columns:\n      amount:\n        description: What the customer paid, in euros.\n",
                        encoding="utf-8")
        merged = overlay(catalog_dict(schema, name="x"), team, schema)
        assert merged["tables"]["sales"]["columns"]["amount"]["type"].startswith("DECIMAL")
        assert merged["tables"]["sales"]["description"] == "Every sale at the till or online."
        team.write_text("tables:\n  sales:\n    columns:\n      amount:\n        description: x\n"
                        "      amonut_eur:\n        description: y\n  stors:\n    description: z\n", encoding="utf-8")
        with pytest.raises(CatalogError) as caught:
            overlay(catalog_dict(schema, name="x"), team, schema)
    finally:
        wh.close()
    message = caught.value.user_message
    assert f"{team}:6: column 'sales.amonut_eur' is not in the warehouse" in message
    assert f"{team}:8: table 'stors' is not in the warehouse (closest: stores)" in message


def test_bootstrap_writes_standard_dbt_semantic_models(tmp_path, shop):
    wh = open_warehouse(_settings(tmp_path, shop))
    try:
        document = bootstrap(wh.schema(), dialect=wh.dialect, default_schema="main")
    finally:
        wh.close()
    models = {m["name"]: m for m in document["semantic_models"]}
    sales = models["sales"]
    assert sales["model"] == "ref('sales')"
    assert sales["defaults"] == {"agg_time_dimension": "sold_at"}
    assert {"name": "sale", "type": "primary", "expr": "sale_id"} in sales["entities"]
    assert {"name": "store", "type": "foreign", "expr": "store_id"} in sales["entities"]
    assert {"name": "store", "type": "primary", "expr": "store_id"} in models["stores"]["entities"]
    dims = {d["name"]: d for d in sales["dimensions"]}
    assert dims["channel"] == {"name": "channel", "type": "categorical"}
    assert dims["payment_type"]["expr"] == '"Payment Type"'
    assert dims["sold_at"]["type_params"] == {"time_granularity": "hour"}  # a timestamp keeps its time of day
    measures = {m["name"]: m for m in sales["measures"]}
    assert measures["sales_count"] == {"name": "sales_count", "description": "Number of sales rows",
                                       "agg": "count", "expr": "sale_id"}
    assert measures["sales_amount_total"]["agg"] == "sum" and measures["sales_amount_average"]["agg"] == "average"
    assert "sales_store_id_total" not in measures  # keys are not measures
    metric = next(m for m in document["metrics"] if m["name"] == "sales_amount_total")
    # an amount adds up: named without an aggregation, its total is meant (meta, which dbt ignores)
    assert metric == {"name": "sales_amount_total", "label": "Sales amount total", "type": "simple",
                      "type_params": {"measure": "sales_amount_total"}, "config": {"meta": {"default": True}}}
    allowed = {"name", "description", "model", "node_relation", "defaults", "entities", "dimensions", "measures",
               "config"}
    assert all(set(m) <= allowed for m in document["semantic_models"])


def test_catalog_init_and_check_from_the_command_line(tmp_path, shop, monkeypatch, capsys):
    monkeypatch.setenv("WAREHOUSE_URL", f"duckdb://{shop}")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    out = tmp_path / "catalog"
    assert main(["catalog", "init", "--out", str(out)]) == 0
    assert "2 semantic models" in capsys.readouterr().out
    assert main(["catalog", "check", str(out)]) == 0
    models_file = out / "semantic" / "models" / "semantic_models.yml"
    text = models_file.read_text(encoding="utf-8").replace("expr: sale_id", "expr: sale_key")
    models_file.write_text(text, encoding="utf-8")
    assert main(["catalog", "check", str(out)]) == 1
    assert "reads column 'sale_key', which table sales does not have" in capsys.readouterr().out
    catalog = yaml.safe_load((out / "catalog.yaml").read_text(encoding="utf-8"))
    assert catalog["tables"]["sales"]["columns"]["channel"]["values"] == ["store", "web"]
    assert main(["catalog", "refresh", str(out)]) == 0


def test_catalog_check_fails_while_a_metric_cannot_run(tmp_path, shop, monkeypatch, capsys):
    """Every metric is compiled and dry-run: an expression the engine refuses (text times a number)
    passes the name check but not `catalog check`, which names the file, the line and DuckDB's error."""
    monkeypatch.setenv("WAREHOUSE_URL", f"duckdb://{shop}")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    out = tmp_path / "catalog"
    assert main(["catalog", "init", "--out", str(out)]) == 0
    assert main(["catalog", "check"]) == 0  # without a folder: the model the bot starts with
    assert "metrics compile and run" in capsys.readouterr().out
    models_file = out / "semantic" / "models" / "semantic_models.yml"
    text = models_file.read_text(encoding="utf-8")
    assert "expr: amount" in text
    models_file.write_text(text.replace("expr: amount", "expr: channel * 2", 1), encoding="utf-8")
    assert main(["catalog", "check", str(out)]) == 1
    printed = capsys.readouterr().out
    assert f"{out / 'semantic' / 'models' / 'metrics.yml'}:" in printed and "DuckDB refuses it" in printed
    assert "Binder Error" in printed or "Conversion Error" in printed


def test_no_readable_table_names_the_schemas_seen_and_the_setting(tmp_path, monkeypatch, capsys):
    path = tmp_path / "empty.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA sales")
    con.close()
    monkeypatch.setenv("WAREHOUSE_URL", f"duckdb://{path}")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    assert main(["catalog", "check"]) == 1
    printed = capsys.readouterr().out
    assert "main, sales" in printed and "WAREHOUSE_SCHEMAS" in printed
