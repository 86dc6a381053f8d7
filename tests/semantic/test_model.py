"""The demo's dbt semantic layer against the warehouse, and the parser's view derived from it."""

import shutil
from pathlib import Path

import pytest

from agent.semantic.model.layer import DEMO_MODEL_PATH, load_layer
from agent.semantic.model.runtime import SemanticModelError, check_against


def test_model_matches_the_warehouse(model, warehouse):
    assert check_against(model, warehouse.schema()) == []


def test_every_join_is_many_to_one_in_the_data(model, warehouse):
    # the model promises joins cannot multiply rows; the data must agree
    for join in model.joins:
        keys = ", ".join(right for _, right in join.keys)
        table = model.table_by_name[join.to_table].table
        total, distinct = warehouse.run(f"SELECT count(*), count(DISTINCT ({keys})) FROM {table}").rows[0]
        assert total == distinct, join.name


def _edited_model(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "model"
    shutil.copytree(DEMO_MODEL_PATH, folder)
    text = (folder / file).read_text()
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1))
    return folder


def test_a_metric_on_a_missing_measure_is_reported_and_skipped(tmp_path):
    path = _edited_model(tmp_path, "metrics.yml", "measure: avg_humid", "measure: avg_humidity")
    model = load_layer(path)
    assert "avg_humid" not in model.metric_by_name
    (problem,) = model.project.diagnostics
    assert problem.file == "metrics.yml" and problem.line > 0 and "avg_humidity" in problem.message


def test_no_metric_at_all_is_an_error_naming_the_folder(tmp_path):
    (tmp_path / "empty.yml").write_text("semantic_models: []\n")
    with pytest.raises(SemanticModelError, match="No metric"):
        load_layer(tmp_path)


def test_check_against_names_missing_columns(tmp_path, warehouse):
    path = _edited_model(tmp_path, "semantic_models.yml", "expr: humid\n", "expr: humidity\n")
    problems = check_against(load_layer(path), warehouse.schema())
    assert "metric 'avg_humid': column 'humidity' is not in table 'weather'" in problems


def test_role_playing_models_and_one_to_many_refusal(model):
    source, join = model.resolve("dest_name", "flights")
    assert join.to_table == "dest_airports"
    assert model.resolve("carrier", "planes") is None  # planes -> flights would multiply rows
    assert model.resolve("month", "weather")[1] is None  # weather has its own month


def test_a_bare_dbt_project_gets_words_from_its_names(tmp_path):
    (tmp_path / "m.yml").write_text("""
semantic_models:
  - name: orders
    model: ref('orders')
    entities: [{name: order, type: primary, expr: order_id}]
    dimensions: [{name: sales_channel, type: categorical}]
    measures:
      - {name: order_count, agg: count, expr: order_id}
      - {name: order_amount, agg: sum, expr: amount}
metrics:
  - {name: orders, type: simple, type_params: {measure: order_count}}
  - {name: revenue, type: simple, type_params: {measure: order_amount}}
""")
    model = load_layer(tmp_path)
    assert model.default_metric == "orders"
    assert model.table_by_name["orders"].entity_words == ["order"]
    assert model.dimension_by_name["sales_channel"].values  # matched against warehouse values
    assert model.dimension_by_name["sales_channel"].label == "sales channel"
